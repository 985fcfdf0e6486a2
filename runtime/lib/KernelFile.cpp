//===- KernelFile.cpp - kernel file header and size expressions -----------===//

#include "tcuc/KernelFile.h"
#include "tcuc/Spec.h"

#include <algorithm>
#include <cctype>
#include <optional>

using namespace tcuc;

namespace {

std::optional<int64_t> parseInt64(std::string_view s) {
  if (s.empty() || s.size() > 19)
    return std::nullopt;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return std::nullopt;
    if (__builtin_mul_overflow(v, 10, &v) ||
        __builtin_add_overflow(v, c - '0', &v))
      return std::nullopt;
  }
  return v;
}

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

/// "variant=<name> tiles=<1-16> warps=<0-16>" into `file`.
Status parseStrategy(std::string_view value, KernelFile &file) {
  auto bad = [&] {
    return Status::error("bad strategy " + quoted(value) +
                         " (expected 'variant=<name> tiles=<1-16> "
                         "warps=<0-16>')");
  };
  std::string_view fields[3];
  std::string_view rest = value;
  for (std::string_view &f : fields) {
    size_t space = rest.find(' ');
    f = rest.substr(0, space);
    rest = space == std::string_view::npos ? std::string_view()
                                           : rest.substr(space + 1);
  }
  if (!rest.empty() || fields[0].substr(0, 8) != "variant=" ||
      fields[1].substr(0, 6) != "tiles=" || fields[2].substr(0, 6) != "warps=")
    return bad();
  std::string_view name = fields[0].substr(8);
  std::optional<int64_t> tiles = parseInt64(fields[1].substr(6));
  std::optional<int64_t> warps = parseInt64(fields[2].substr(6));
  bool nameOk =
      !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
      });
  if (!nameOk || !tiles || *tiles < 1 || *tiles > 16 || !warps || *warps > 16)
    return bad();
  file.variant = std::string(name);
  file.tilesPerWarp = static_cast<int>(*tiles);
  file.warpsPerBlock = static_cast<int>(*warps);
  return Status::success();
}

} // namespace

//===----------------------------------------------------------------------===//
// SizeExpr
//===----------------------------------------------------------------------===//

Status SizeExpr::parse(std::string_view text, SizeExpr &expr) {
  static const struct {
    const char *name;
    Op op;
  } kBinary[] = {{"add", Op::Add},   {"sub", Op::Sub},   {"mul", Op::Mul},
                 {"divu", Op::DivU}, {"remu", Op::RemU}, {"mins", Op::MinS},
                 {"maxs", Op::MaxS}, {"ne", Op::Ne},     {"eq", Op::Eq}};
  SizeExpr result;
  result.source = std::string(text);
  size_t depth = 0;
  size_t pos = 0;
  while (true) {
    size_t end = text.find(' ', pos);
    std::string_view tok =
        text.substr(pos, end == std::string_view::npos ? std::string_view::npos
                                                       : end - pos);
    if (tok.empty())
      return Status::error("size expression " + quoted(text) +
                           ": empty token (tokens are separated by single "
                           "spaces)");
    Token t{Op::Const, 0};
    if (tok == "n") {
      t.op = Op::N;
    } else if (tok == "s") {
      t.op = Op::S;
    } else if (tok == "o") {
      t.op = Op::O;
    } else if (std::optional<int64_t> v = parseInt64(tok)) {
      t.value = *v;
    } else {
      const auto *it =
          std::find_if(std::begin(kBinary), std::end(kBinary),
                       [&](const auto &b) { return tok == b.name; });
      if (it == std::end(kBinary))
        return Status::error("size expression " + quoted(text) +
                             ": unknown token " + quoted(tok));
      if (depth < 2)
        return Status::error("size expression " + quoted(text) +
                             ": stack underflow at " + quoted(tok));
      t.op = it->op;
      depth -= 2;
    }
    ++depth;
    result.maxDepth = std::max(result.maxDepth, depth);
    result.tokens.push_back(t);
    if (end == std::string_view::npos)
      break;
    pos = end + 1;
  }
  if (depth != 1)
    return Status::error("size expression " + quoted(text) + ": leaves " +
                         std::to_string(depth) +
                         " values on the stack, expected 1");
  expr = std::move(result);
  return Status::success();
}

Status SizeExpr::evaluate(int64_t n, int64_t &value, int64_t segment,
                          int64_t offsets) const {
  if (tokens.empty())
    return Status::error("empty size expression");
  // Depth is bounded by the parse; small expressions stay off the heap.
  int64_t local[16];
  std::vector<int64_t> heap;
  int64_t *stack = local;
  if (maxDepth > 16) {
    heap.resize(maxDepth);
    stack = heap.data();
  }
  size_t sp = 0;
  auto fail = [&](const char *what) {
    return Status::error("size expression " + quoted(source) +
                         " at n = " + std::to_string(n) + ": " + what);
  };
  for (const Token &t : tokens) {
    if (t.op == Op::Const) {
      stack[sp++] = t.value;
      continue;
    }
    if (t.op == Op::N || t.op == Op::S || t.op == Op::O) {
      stack[sp++] = t.op == Op::N ? n : t.op == Op::S ? segment : offsets;
      continue;
    }
    int64_t b = stack[--sp];
    int64_t a = stack[--sp];
    int64_t r = 0;
    switch (t.op) {
    case Op::Add:
      if (__builtin_add_overflow(a, b, &r))
        return fail("overflow in add");
      break;
    case Op::Sub:
      if (__builtin_sub_overflow(a, b, &r))
        return fail("overflow in sub");
      break;
    case Op::Mul:
      if (__builtin_mul_overflow(a, b, &r))
        return fail("overflow in mul");
      break;
    case Op::DivU:
    case Op::RemU:
      if (a < 0 || b < 0)
        return fail("divu/remu of a negative value");
      if (b == 0)
        return fail("division by zero");
      r = t.op == Op::DivU ? a / b : a % b;
      break;
    case Op::MinS:
      r = std::min(a, b);
      break;
    case Op::MaxS:
      r = std::max(a, b);
      break;
    case Op::Ne:
      r = a != b;
      break;
    case Op::Eq:
      r = a == b;
      break;
    case Op::Const:
    case Op::N:
    case Op::S:
    case Op::O:
      break;
    }
    stack[sp++] = r;
  }
  value = stack[0];
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Kernel file header
//===----------------------------------------------------------------------===//

namespace {

bool isTarget(std::string_view s) {
  std::string arch, gpu;
  return tcuc::splitTarget(s, arch, gpu);
}

bool isPtxIdentifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
  });
}

} // namespace

Status tcuc::parseKernelFile(std::string_view text, KernelFile &file) {
  KernelFile result;
  bool haveSpec = false, haveArch = false, haveVersion = false,
       haveBuild = false, haveBlock = false, haveLaunch = false,
       haveStrategy = false, haveSegment = false, haveOffsets = false,
       haveDecay = false;
  size_t pos = 0;
  int lineNo = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    std::string_view line =
        text.substr(pos, end == std::string_view::npos ? std::string_view::npos
                                                       : end - pos);
    pos = end == std::string_view::npos ? text.size() : end + 1;
    ++lineNo;
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    auto fail = [&](const std::string &what) {
      return Status::error("kernel file: line " + std::to_string(lineNo) +
                           ": " + what);
    };

    if (lineNo == 1) {
      if (line != kKernelFileMagic)
        return fail("expected '" + std::string(kKernelFileMagic) + "', found " +
                    quoted(line.substr(0, 80)));
      continue;
    }
    if (line.substr(0, 7) != "// tcuc")
      break; // The header ends at the first non-header line.

    // "// tcuc.<field>: <value>"
    size_t colon = line.find(':');
    if (line.substr(0, 8) != "// tcuc." || colon == std::string_view::npos ||
        colon + 1 >= line.size() || line[colon + 1] != ' ')
      return fail("malformed header line " + quoted(line) +
                  " (expected '// tcuc.<field>: <value>')");
    std::string_view field = line.substr(8, colon - 8);
    std::string_view value = line.substr(colon + 2);
    if (value.empty())
      return fail("empty value for tcuc." + std::string(field));

    auto once = [&](bool &seen) {
      if (seen)
        return fail("repeated field tcuc." + std::string(field));
      seen = true;
      return Status::success();
    };
    if (field == "spec") {
      if (Status s = once(haveSpec); !s)
        return s;
      result.specKey = std::string(value);
    } else if (field == "arch") {
      if (Status s = once(haveArch); !s)
        return s;
      if (!isTarget(value))
        return fail("bad arch " + quoted(value) +
                    " (expected sm_XX or sm_XX:MODEL)");
      result.arch = std::string(value);
    } else if (field == "version") {
      if (Status s = once(haveVersion); !s)
        return s;
      result.version = std::string(value);
    } else if (field == "build") {
      if (Status s = once(haveBuild); !s)
        return s;
      result.build = std::string(value);
    } else if (field == "block") {
      if (Status s = once(haveBlock); !s)
        return s;
      std::optional<int64_t> b = parseInt64(value);
      if (!b || *b <= 0 || *b % 32 != 0 || *b > 1024)
        return fail("bad block size " + quoted(value) +
                    " (expected a multiple of 32 in [32, 1024])");
      result.blockSize = static_cast<int>(*b);
    } else if (field == "scratch") {
      size_t space = value.find(' ');
      std::string_view typeName = value.substr(0, space);
      if (!scratchElementBytes(typeName))
        return fail("bad scratch element type " + quoted(typeName));
      if (space == std::string_view::npos)
        return fail("scratch line has no size expression");
      ScratchBuffer buf;
      buf.type = std::string(typeName);
      if (Status s = SizeExpr::parse(value.substr(space + 1), buf.count); !s)
        return fail(s.message());
      result.scratch.push_back(std::move(buf));
    } else if (field == "items") {
      SizeExpr count;
      if (Status s = SizeExpr::parse(value, count); !s)
        return fail(s.message());
      result.items.push_back(std::move(count));
    } else if (field == "strategy") {
      if (Status s = once(haveStrategy); !s)
        return s;
      if (Status s = parseStrategy(value, result); !s)
        return fail(s.message());
    } else if (field == "launch") {
      if (Status s = once(haveLaunch); !s)
        return s;
      if (value != "dependent")
        return fail("bad launch " + quoted(value) + " (expected dependent)");
      result.dependentLaunch = true;
    } else if (field == "segment") {
      if (Status s = once(haveSegment); !s)
        return s;
      // "runtime MIN MAX", 1 <= MIN <= MAX <= kMaxElements.
      std::string_view rest = value;
      auto word = [&] {
        size_t sp = rest.find(' ');
        std::string_view w = rest.substr(0, sp);
        rest = sp == std::string_view::npos ? std::string_view()
                                            : rest.substr(sp + 1);
        return w;
      };
      std::string_view kind = word();
      std::optional<int64_t> lo = parseInt64(word()), hi = parseInt64(word());
      if (kind != "runtime" || !lo || !hi || !rest.empty() || *lo < 1 ||
          *lo > *hi || *hi > kMaxElements)
        return fail("bad segment " + quoted(value) +
                    " (expected 'runtime MIN MAX' with 1 <= MIN <= MAX <= "
                    "2^47)");
      result.runtimeSegment = true;
      result.segmentMin = *lo;
      result.segmentMax = *hi;
    } else if (field == "offsets") {
      if (Status s = once(haveOffsets); !s)
        return s;
      if (value != "i32" && value != "i64")
        return fail("bad offsets " + quoted(value) + " (expected i32 or i64)");
      result.offsetBits = value == "i32" ? 32 : 64;
    } else if (field == "decay") {
      if (Status s = once(haveDecay); !s)
        return s;
      if (value != "runtime" && value != "segments")
        return fail("bad decay " + quoted(value) +
                    " (expected runtime or segments)");
      (value == "runtime" ? result.runtimeDecay : result.segmentDecays) = true;
    } else if (field == "kernel") {
      if (!isPtxIdentifier(value))
        return fail("bad kernel name " + quoted(value));
      result.kernels.emplace_back(value);
    } else {
      return fail("unknown header field tcuc." + std::string(field));
    }
  }

  if (lineNo == 0)
    return Status::error("kernel file: empty");
  const char *missing = !haveSpec                ? "tcuc.spec"
                        : !haveArch              ? "tcuc.arch"
                        : !haveVersion           ? "tcuc.version"
                        : !haveBuild             ? "tcuc.build"
                        : !haveBlock             ? "tcuc.block"
                        : result.kernels.empty() ? "tcuc.kernel"
                                                 : nullptr;
  if (missing)
    return Status::error(std::string("kernel file: header has no ") + missing +
                         " line");
  if (!result.items.empty() && result.items.size() != result.kernels.size())
    return Status::error("kernel file: " + std::to_string(result.items.size()) +
                         " tcuc.items lines for " +
                         std::to_string(result.kernels.size()) +
                         " kernels (expected one per kernel, or none)");
  result.text = std::string(text);
  file = std::move(result);
  return Status::success();
}

Status tcuc::checkKernelFile(const KernelFile &file, const KernelSpec &spec,
                             const std::string &arch,
                             const std::string &build) {
  std::string key = spec.key();
  if (file.specKey != key)
    return Status::error("kernel file is for spec '" + file.specKey +
                         "', expected '" + key + "'");
  if (file.arch != arch)
    return Status::error("kernel file is for " + file.arch + ", expected " +
                         arch);
  if (file.runtimeSegment != spec.runtimeSegment)
    return Status::error(std::string("kernel file ") +
                         (file.runtimeSegment ? "takes" : "does not take") +
                         " the segment size at launch, its spec says the "
                         "opposite");
  // The sizes a launch is checked against (runtimeSegmentRange) must be the
  // ones the file's kernels were built for.
  int64_t lo = 0, hi = 0;
  if (file.runtimeSegment &&
      (!runtimeSegmentRange(spec.variant, spec.isScan, lo, hi) ||
       lo != file.segmentMin || hi != file.segmentMax))
    return Status::error(
        "kernel file takes segment sizes [" + std::to_string(file.segmentMin) +
        ", " + std::to_string(file.segmentMax) + "], variant '" + spec.variant +
        "' takes " +
        (hi ? "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]"
            : std::string("none at launch")));
  if (file.runtimeDecay != spec.runtimeDecay)
    return Status::error(std::string("kernel file ") +
                         (file.runtimeDecay ? "takes" : "does not take") +
                         " the decay at launch, its spec says the opposite");
  if (file.segmentDecays != spec.segmentDecays)
    return Status::error(std::string("kernel file ") +
                         (file.segmentDecays ? "takes" : "does not take") +
                         " per-segment decays, its spec says the opposite");
  if (file.offsetBits != spec.offsetBits)
    return Status::error(
        "kernel file takes " +
        (file.offsetBits ? "i" + std::to_string(file.offsetBits) + " offsets"
                         : std::string("one segment size")) +
        ", its spec says " +
        (spec.offsetBits ? "i" + std::to_string(spec.offsetBits) + " offsets"
                         : std::string("one segment size")));
  if (file.build != build)
    return Status::error("kernel file was made by a tcuc of build " +
                         file.build + " (" + file.version + "), expected " +
                         build + ": its compiler has changed since");
  return Status::success();
}

size_t tcuc::scratchElementBytes(std::string_view name) {
  if (name == "i64")
    return 8;
  std::optional<DType> t = parseDType(name);
  return t ? dtypeBytes(*t) : 0;
}

std::string tcuc::formatKernelFileHeader(const KernelFile &file) {
  std::string h = std::string(kKernelFileMagic) + "\n";
  h += "// tcuc.spec: " + file.specKey + "\n";
  h += "// tcuc.arch: " + file.arch + "\n";
  h += "// tcuc.version: " + file.version + "\n";
  h += "// tcuc.build: " + file.build + "\n";
  h += "// tcuc.block: " + std::to_string(file.blockSize) + "\n";
  if (!file.variant.empty())
    h += "// tcuc.strategy: variant=" + file.variant +
         " tiles=" + std::to_string(file.tilesPerWarp) +
         " warps=" + std::to_string(file.warpsPerBlock) + "\n";
  if (file.runtimeSegment)
    h += "// tcuc.segment: runtime " + std::to_string(file.segmentMin) + " " +
         std::to_string(file.segmentMax) + "\n";
  if (file.offsetBits)
    h += "// tcuc.offsets: i" + std::to_string(file.offsetBits) + "\n";
  if (file.runtimeDecay)
    h += "// tcuc.decay: runtime\n";
  if (file.segmentDecays)
    h += "// tcuc.decay: segments\n";
  for (const ScratchBuffer &b : file.scratch)
    h += "// tcuc.scratch: " + b.type + " " + b.count.text() + "\n";
  if (file.dependentLaunch)
    h += "// tcuc.launch: dependent\n";
  for (const std::string &k : file.kernels)
    h += "// tcuc.kernel: " + k + "\n";
  for (const SizeExpr &e : file.items)
    h += "// tcuc.items: " + e.text() + "\n";
  return h;
}
