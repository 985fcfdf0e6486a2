/*===- tcuc.h - C interface to the tcuc runtime ---------------------*- C -*-===
 *
 * For callers that cannot use the C++ API: Python (ctypes), other languages'
 * FFIs, C programs. It wraps the process-wide runtime (tcuc::Runtime::global())
 * of libtcuc_runtime.so. Device pointers and streams are the CUdeviceptr /
 * CUstream (cudaStream_t) values of the caller; NULL is the legacy default
 * stream. Types are named as in the driver: "f16", "bf16", "f32", "i8",
 * "i32". `variant` is a strategy: NULL or "" for the compiler's choice, a
 * variant name ("seg256n"), a name and tiles per warp ("seg256n:2"),
 * tiles per warp alone (":2"; 1..8), or for the block variant also warps
 * per block ("block:2:8"; 1, 2, 4, 8 or 16).
 *
 * Every function returns 0 on success and -1 on failure; then
 * tcuc_last_error() holds the message (per thread, valid until the thread's
 * next tcuc call).
 *===----------------------------------------------------------------------===*/

#ifndef TCUC_TCUC_H
#define TCUC_TCUC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueues a segmented reduction of n elements of `in` into ceil(n/segment)
 * elements of `out` on `stream` (no host synchronisation). */
int tcuc_reduce(const void *in, void *out, int64_t n, int64_t segment,
                const char *in_type, const char *out_type, void *stream,
                const char *variant);

/* Enqueues a segmented scan of n elements (inclusive != 0: out[i] includes
 * in[i]). */
int tcuc_scan(const void *in, void *out, int64_t n, int64_t segment,
              const char *in_type, const char *out_type, int inclusive,
              void *stream, const char *variant);

/* Segments of any lengths: num_segments + 1 CSR offsets on the device
 * (offset_type "i32" or "i64"; the first 0, nondecreasing, the last n).
 * tcuc_reduce_offsets writes num_segments sums (0 for an empty segment),
 * tcuc_scan_offsets n = offsets[num_segments] values. n is read from the
 * offsets on the device: no synchronisation. The offsets are not checked
 * (tcuc_validate_offsets does, on host copies); the kernels clamp every
 * offset, so bad ones give wrong values, never out-of-bounds accesses. */
int tcuc_reduce_offsets(const void *in, void *out, const void *offsets,
                        int64_t num_segments, const char *offset_type,
                        const char *in_type, const char *out_type,
                        void *stream);
int tcuc_scan_offsets(const void *in, void *out, const void *offsets,
                      int64_t num_segments, const char *offset_type,
                      const char *in_type, const char *out_type, int inclusive,
                      void *stream);
/* Checks num_segments + 1 host offsets of offset_type against n (the rules
 * above); the message names the first bad entry. */
int tcuc_validate_offsets(const void *offsets, int64_t num_segments,
                          const char *offset_type, int64_t n);

/* Loads (compiling or reading the disk cache on first use) the kernel of a
 * spec without launching it; `op` is "reduce" or "scan". When non-NULL,
 * *scratch_bytes receives the scratch memory a launch over `n` elements
 * takes and *num_kernels the number of kernels one launch enqueues. */
int tcuc_prepare(const char *op, int64_t segment, const char *in_type,
                 const char *out_type, int inclusive, const char *variant,
                 int64_t n, uint64_t *scratch_bytes, int *num_kernels);

/* Scans by flags, for the modes the functions above cannot name: 0 is an
 * inclusive forward (prefix) scan, TCUC_SCAN_EXCLUSIVE leaves each element
 * out of its own sum, TCUC_SCAN_REVERSE makes it a suffix scan (out[i]
 * sums in[i] (exclusive: in[i + 1]) to the end of i's segment). Other bits
 * are an error. tcuc_scan(..., inclusive, ...) is tcuc_scan_ex(...,
 * inclusive ? 0 : TCUC_SCAN_EXCLUSIVE, ...); tcuc_prepare_ex takes flags
 * for a scan (0 for "reduce"). */
#define TCUC_SCAN_EXCLUSIVE 1
#define TCUC_SCAN_REVERSE 2
int tcuc_scan_ex(const void *in, void *out, int64_t n, int64_t segment,
                 const char *in_type, const char *out_type, int flags,
                 void *stream, const char *variant);
int tcuc_scan_offsets_ex(const void *in, void *out, const void *offsets,
                         int64_t num_segments, const char *offset_type,
                         const char *in_type, const char *out_type, int flags,
                         void *stream);
int tcuc_prepare_ex(const char *op, int64_t segment, const char *in_type,
                    const char *out_type, int flags, const char *variant,
                    int64_t n, uint64_t *scratch_bytes, int *num_kernels);

/* Decayed scans: h_i = decay * h_{i-1} + in[i] within each segment,
 * restarted at each head (flags as tcuc_scan_ex's: exclusive writes
 * h_{i-1}, 0 at a head; reverse runs from each segment's end). `decay`
 * must be finite and in [-1, 1] (1 is the plain scan) and the input
 * "f16", "bf16" or "f32"; the kernel uses it rounded to float. The kernel
 * takes the decay at launch: one kernel (compiled on first use, then
 * cached) serves every decay. */
int tcuc_scan_decayed(const void *in, void *out, int64_t n, int64_t segment,
                      const char *in_type, const char *out_type, int flags,
                      double decay, void *stream);
int tcuc_scan_offsets_decayed(const void *in, void *out, const void *offsets,
                              int64_t num_segments, const char *offset_type,
                              const char *in_type, const char *out_type,
                              int flags, double decay, void *stream);
/* The same with one decay per segment: `decays` (device memory, float)
 * holds segment j's decay at decays[j], ceil(n / segment) of them (or
 * num_segments), each finite in [-1, 1]; they are copied to the host and
 * checked before the launch (a synchronisation on `stream`). */
int tcuc_scan_segment_decays(const void *in, void *out, int64_t n,
                             int64_t segment, const char *in_type,
                             const char *out_type, int flags,
                             const float *decays, void *stream);
int tcuc_scan_offsets_segment_decays(const void *in, void *out,
                                     const void *offsets, int64_t num_segments,
                                     const char *offset_type,
                                     const char *in_type, const char *out_type,
                                     int flags, const float *decays,
                                     void *stream);

/* The message of this thread's last failed call ("" if none). */
const char *tcuc_last_error(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TCUC_TCUC_H */
