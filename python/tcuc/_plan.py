"""What one call does, independent of the array library: checks the
arguments and works out the flat kernel call (docs/python.md)."""

import math

# Input element type -> the output types tcuc computes for it (the first is
# the default: f32 accumulation, i32 for i8).
OUTPUTS = {
    "float16": ("float32", "float16"),
    "bfloat16": ("float32", "bfloat16"),
    "float32": ("float32",),
    "int8": ("int32",),
}
# tcuc's names of those types.
TCUC_NAMES = {"float16": "f16", "bfloat16": "bf16", "float32": "f32",
              "int8": "i8", "int32": "i32"}


class Plan:
    """The flat call for an array reduced or scanned along its last axis
    (the caller moves `dim` there): `rows` rows of `length` elements;
    segments of `segment` elements over all rows at once, or (`per_row`)
    offsets the caller builds for every row's segments; `out_length`
    elements along the last axis of the result."""

    __slots__ = ("rows", "length", "segment", "per_row", "out_length")


def input_dtype_name(name, op):
    if name in OUTPUTS:
        return name
    hint = {
        "float64": "convert with x.float() / x.astype(numpy.float32) (tcuc "
                   "accumulates in f32)",
        "int16": "convert to int8 where the values fit, else to float32",
        "int32": "convert to float32 (exact up to 2^24), or to int8 where "
                 "the values fit",
        "int64": "convert to float32 (exact up to 2^24), or to int8 where "
                 "the values fit",
        "uint8": "convert to int8 where the values fit, else to float32",
        "bool": "convert to int8",
    }.get(name, "convert to float32")
    raise TypeError(
        f"tcuc.{op}: input of type {name}: tcuc takes float16, bfloat16, "
        f"float32 and int8; {hint}")


def output_dtype_name(in_name, out_name, op):
    allowed = OUTPUTS[in_name]
    if out_name is None:
        return allowed[0]
    if out_name not in allowed:
        raise TypeError(
            f"tcuc.{op}: out_dtype {out_name} for {in_name} input: tcuc "
            f"writes {' or '.join(allowed)} for it")
    return out_name


def normalize_dim(dim, ndim, op):
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TypeError(f"tcuc.{op}: dim must be an int, got {dim!r}")
    if ndim == 0:
        raise ValueError(f"tcuc.{op}: input is a scalar (0-d); give at "
                         "least one axis")
    if not -ndim <= dim < ndim:
        raise IndexError(f"tcuc.{op}: dim {dim} is out of range for an "
                         f"input of {ndim} axes")
    return dim % ndim


def check_segment_size(segment_size, offsets_given, op):
    if segment_size is not None and offsets_given:
        raise ValueError(f"tcuc.{op}: give segment_size or offsets, not "
                         "both")
    if segment_size is None:
        return None
    if isinstance(segment_size, bool) or not isinstance(
            segment_size, int) and not hasattr(segment_size, "__index__"):
        raise TypeError(f"tcuc.{op}: segment_size must be an int, got "
                        f"{segment_size!r}")
    segment_size = int(segment_size.__index__())
    if segment_size < 1:
        raise ValueError(f"tcuc.{op}: segment_size must be >= 1, got "
                         f"{segment_size}")
    if segment_size > 1 << 47:
        raise ValueError(f"tcuc.{op}: segment_size {segment_size} is above "
                         "2^47")
    return segment_size


def plan(shape, segment_size, num_offsets, is_scan):
    """`shape` with the reduced axis last; `segment_size` None for the
    whole axis (or offsets); `num_offsets` the offsets' length, or None."""
    p = Plan()
    p.length = shape[-1]
    p.rows = math.prod(shape[:-1])
    if num_offsets is not None:
        p.segment = None
        p.per_row = p.rows > 1
        p.out_length = p.length if is_scan else num_offsets - 1
        return p
    p.segment = max(1, p.length) if segment_size is None else segment_size
    # One flat call covers every row when no segment straddles two rows.
    p.per_row = p.rows > 1 and p.length % p.segment != 0
    p.out_length = p.length if is_scan else segments_per_row(
        p.length, p.segment, None)
    return p


def segments_per_row(length, segment_size, num_offsets):
    """k: the segments of one row (offsets: their count; else ceil(length /
    segment_size), one for the whole axis)."""
    if num_offsets is not None:
        return num_offsets - 1
    seg = max(1, length) if segment_size is None else segment_size
    return -(-length // seg)


def check_decays_meta(dtype_name, shape, x_shape, dim, k, op):
    """Per-segment decays: a float array of x's shape with `dim` cut to the
    k segments of a row (segment_sum's result shape), or 1-D of k (the same
    for every row). Returns whether they are 1-D and must be broadcast."""
    if dtype_name not in ("float16", "bfloat16", "float32", "float64"):
        raise TypeError(f"tcuc.{op}: per-segment decays must be floats, got "
                        f"{dtype_name}")
    want = tuple(x_shape[:dim]) + (k,) + tuple(x_shape[dim + 1:])
    shape = tuple(shape)
    if shape == want:
        return False
    if shape == (k,):
        return True
    raise ValueError(
        f"tcuc.{op}: per-segment decays of shape {shape}: give one per "
        f"segment, shape {want} (the input's with axis {dim} cut to its {k} "
        f"segments) or ({k},) for every row alike")


def check_offsets_meta(dtype_name, ndim, length, op):
    if dtype_name not in ("int32", "int64"):
        raise TypeError(f"tcuc.{op}: offsets must be int32 or int64, got "
                        f"{dtype_name}")
    if ndim != 1:
        raise ValueError(f"tcuc.{op}: offsets must be 1-D (k+1 CSR "
                         f"offsets), got {ndim} axes")
    if length < 1:
        raise ValueError(f"tcuc.{op}: offsets need at least one entry (k+1 "
                         "for k segments: the first 0, the last the axis "
                         "length)")
