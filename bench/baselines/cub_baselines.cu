// cub_baselines.cu - the CUB baselines and the memory ceilings of the
// benchmark, as a shared library with a C interface that bench/bench.py
// calls through ctypes, so every library is timed the same way (CUDA events
// around one call, on the same buffers). Built on the GPU machine by
// bench/run.sh:  nvcc -O3 -arch=sm_90 -shared -Xcompiler -fPIC.
//
// Every function enqueues on `stream` and returns a cudaError_t (0 = ok).
// Temporary storage is a grow-only buffer: the warm-up call allocates it, the
// timed calls reuse it.

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>

namespace {

void *tempStorage = nullptr;
size_t tempBytes = 0;

cudaError_t ensureTemp(size_t bytes, cudaStream_t stream) {
  if (bytes <= tempBytes)
    return cudaSuccess;
  if (tempStorage) {
    cudaStreamSynchronize(stream);
    cudaFree(tempStorage);
    tempStorage = nullptr;
    tempBytes = 0;
  }
  cudaError_t e = cudaMalloc(&tempStorage, bytes);
  if (e == cudaSuccess)
    tempBytes = bytes;
  return e;
}

struct HalfToFloat {
  __host__ __device__ float operator()(__half h) const {
    return __half2float(h);
  }
};
struct BF16ToFloat {
  __host__ __device__ float operator()(__nv_bfloat16 h) const {
    return __bfloat162float(h);
  }
};
struct CharToInt {
  __host__ __device__ int operator()(int8_t c) const { return int(c); }
};
struct SegmentBegin {
  int64_t seg;
  __host__ __device__ int64_t operator()(int64_t i) const { return i * seg; }
};
struct SegmentEnd {
  int64_t seg, n;
  __host__ __device__ int64_t operator()(int64_t i) const {
    int64_t e = (i + 1) * seg;
    return e < n ? e : n;
  }
};
struct SegmentKey {
  int64_t seg;
  __host__ __device__ int64_t operator()(int64_t i) const { return i / seg; }
};

/// Runs a CUB call twice (size query, then the work) with the shared
/// temporary storage.
template <typename Call> cudaError_t withTemp(Call call, cudaStream_t stream) {
  size_t bytes = 0;
  cudaError_t e = call(nullptr, bytes);
  if (e != cudaSuccess)
    return e;
  if ((e = ensureTemp(bytes, stream)) != cudaSuccess)
    return e;
  return call(tempStorage, bytes);
}

/// DeviceScan::{Inclusive,Exclusive}SumByKey of `in` over `keys`.
template <typename KeyIt, typename InIt, typename OutT>
cudaError_t scanKeys(KeyIt keys, InIt in, OutT *out, int64_t n,
                     cudaStream_t stream, bool inclusive) {
  return withTemp(
      [&](void *t, size_t &b) {
        return inclusive
                   ? cub::DeviceScan::InclusiveSumByKey(t, b, keys, in, out, n,
                                                        cuda::std::equal_to<>{},
                                                        stream)
                   : cub::DeviceScan::ExclusiveSumByKey(t, b, keys, in, out, n,
                                                        cuda::std::equal_to<>{},
                                                        stream);
      },
      stream);
}

/// Inclusive segmented scan of `in` (already converted by an iterator) into
/// `out`; the whole array (seg >= n) uses the unkeyed DeviceScan.
template <typename InIt, typename OutT>
cudaError_t scanByKey(InIt in, OutT *out, int64_t n, int64_t seg,
                      cudaStream_t stream, bool inclusive = true) {
  if (seg >= n)
    return withTemp(
        [&](void *t, size_t &b) {
          return inclusive
                     ? cub::DeviceScan::InclusiveSum(t, b, in, out, n, stream)
                     : cub::DeviceScan::ExclusiveSum(t, b, in, out, n, stream);
        },
        stream);
  auto keys = thrust::make_transform_iterator(
      thrust::counting_iterator<int64_t>(0), SegmentKey{seg});
  return scanKeys(keys, in, out, n, stream, inclusive);
}

// The read ceiling: every thread reads 16-byte vectors, grid-stride, eight
// independent loads in flight per thread, and folds them so the loads cannot
// be removed; a word is written only on an (in practice) impossible value.
__global__ void readKernel(const uint4 *in, int64_t count, unsigned *sink) {
  constexpr int kInFlight = 8;
  unsigned acc = 0;
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (kInFlight - 1) * stride < count; i += kInFlight * stride) {
    uint4 v[kInFlight];
#pragma unroll
    for (int k = 0; k < kInFlight; ++k)
      v[k] = in[i + k * stride];
#pragma unroll
    for (int k = 0; k < kInFlight; ++k)
      acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
  }
  for (; i < count; i += stride) {
    uint4 a = in[i];
    acc ^= a.x ^ a.y ^ a.z ^ a.w;
  }
  if (acc == 0x9e3779b9u)
    sink[blockIdx.x] = acc;
}

// The copy ceiling's kernel form (cudaMemcpyAsync is measured too).
__global__ void copyKernel(const uint4 *in, uint4 *out, int64_t count) {
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + stride < count; i += 2 * stride) {
    uint4 a = in[i], b = in[i + stride];
    out[i] = a;
    out[i + stride] = b;
  }
  for (; i < count; i += stride)
    out[i] = in[i];
}

int residentBlocks(const void *kernel, int threads) {
  int device = 0, sms = 0, perSM = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, kernel, threads, 0);
  return sms * (perSM > 0 ? perSM : 1);
}

/// DeviceSegmentedReduce::Sum of `segments` segments [begins[i], ends[i]).
template <typename OutT, typename InIt, typename BeginIt, typename EndIt>
int segmentedSum(InIt values, void *out, int64_t segments, BeginIt begins,
                 EndIt ends, cudaStream_t s) {
  return withTemp(
      [&](void *t, size_t &b) {
        return cub::DeviceSegmentedReduce::Sum(
            t, b, values, static_cast<OutT *>(out), segments, begins, ends, s);
      },
      s);
}

/// DeviceSegmentedReduce::Sum over segments of `seg` (the last may be
/// shorter), f32 out.
template <typename OutT = float, typename InIt>
int segmentedReduce(InIt values, void *out, int64_t n, int64_t seg,
                    void *stream) {
  int64_t segments = (n + seg - 1) / seg;
  auto begins = thrust::make_transform_iterator(
      thrust::counting_iterator<int64_t>(0), SegmentBegin{seg});
  auto ends = thrust::make_transform_iterator(
      thrust::counting_iterator<int64_t>(0), SegmentEnd{seg, n});
  return segmentedSum<OutT>(values, out, segments, begins, ends,
                            static_cast<cudaStream_t>(stream));
}

/// DeviceReduce::Sum of the whole array, f32 out.
template <typename OutT = float, typename InIt>
int reduceAll(InIt values, void *out, int64_t n, void *stream) {
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  return withTemp(
      [&](void *t, size_t &b) {
        return cub::DeviceReduce::Sum(t, b, values, static_cast<OutT *>(out), n,
                                      s);
      },
      s);
}

/// f16 and bf16 inputs read as f32, i8 inputs as i32 (the types tcuc
/// accumulates in).
auto halves(const void *in) {
  return thrust::make_transform_iterator(static_cast<const __half *>(in),
                                         HalfToFloat{});
}
auto bhalves(const void *in) {
  return thrust::make_transform_iterator(static_cast<const __nv_bfloat16 *>(in),
                                         BF16ToFloat{});
}
auto chars(const void *in) {
  return thrust::make_transform_iterator(static_cast<const int8_t *>(in),
                                         CharToInt{});
}

/// DeviceSegmentedReduce::Sum over k+1 int32 CSR offsets.
template <typename OutT, typename InIt>
int offsetsSum(InIt values, void *out, const void *offsets, int64_t k,
               void *stream) {
  const int *off = static_cast<const int *>(offsets);
  return segmentedSum<OutT>(values, out, k, off, off + 1,
                            static_cast<cudaStream_t>(stream));
}

/// The scan by key over int32 segment ids `keys`.
template <typename OutT, typename InIt>
int keysScan(InIt values, void *out, const void *keys, int64_t n, int inclusive,
             void *stream) {
  return scanKeys(static_cast<const int *>(keys), values,
                  static_cast<OutT *>(out), n,
                  static_cast<cudaStream_t>(stream), inclusive != 0);
}

} // namespace

extern "C" {

int cubb_segmented_reduce_f16_f32(const void *in, void *out, int64_t n,
                                  int64_t seg, void *stream) {
  return segmentedReduce(halves(in), out, n, seg, stream);
}

// The whole array through DeviceReduce would be the fair peer for one
// segment; DeviceSegmentedReduce with one segment is what a user of the
// segmented API gets, so both are offered.
int cubb_reduce_f16_f32(const void *in, void *out, int64_t n, void *stream) {
  return reduceAll(halves(in), out, n, stream);
}

int cubb_segmented_reduce_bf16_f32(const void *in, void *out, int64_t n,
                                   int64_t seg, void *stream) {
  return segmentedReduce(bhalves(in), out, n, seg, stream);
}

int cubb_reduce_bf16_f32(const void *in, void *out, int64_t n, void *stream) {
  return reduceAll(bhalves(in), out, n, stream);
}

int cubb_scan_f16_f32(const void *in, void *out, int64_t n, int64_t seg,
                      void *stream) {
  auto values = halves(in);
  return scanByKey(values, static_cast<float *>(out), n, seg,
                   static_cast<cudaStream_t>(stream));
}

// f16 in and out: CUB accumulates in the input type (__half), as a user of
// the f16 API gets.
int cubb_scan_f16_f16(const void *in, void *out, int64_t n, int64_t seg,
                      void *stream) {
  return scanByKey(static_cast<const __half *>(in), static_cast<__half *>(out),
                   n, seg, static_cast<cudaStream_t>(stream));
}

int cubb_scan_bf16_f32(const void *in, void *out, int64_t n, int64_t seg,
                       void *stream) {
  auto values = bhalves(in);
  return scanByKey(values, static_cast<float *>(out), n, seg,
                   static_cast<cudaStream_t>(stream));
}

// bf16 in and out: CUB accumulates in __nv_bfloat16, as f16 -> f16 does in
// __half.
int cubb_scan_bf16_bf16(const void *in, void *out, int64_t n, int64_t seg,
                        void *stream) {
  return scanByKey(static_cast<const __nv_bfloat16 *>(in),
                   static_cast<__nv_bfloat16 *>(out), n, seg,
                   static_cast<cudaStream_t>(stream));
}

int cubb_scan_i8_i32(const void *in, void *out, int64_t n, int64_t seg,
                     void *stream) {
  auto values = chars(in);
  return scanByKey(values, static_cast<int32_t *>(out), n, seg,
                   static_cast<cudaStream_t>(stream));
}

int cubb_segmented_reduce_f32_f32(const void *in, void *out, int64_t n,
                                  int64_t seg, void *stream) {
  return segmentedReduce(static_cast<const float *>(in), out, n, seg, stream);
}

int cubb_reduce_f32_f32(const void *in, void *out, int64_t n, void *stream) {
  return reduceAll(static_cast<const float *>(in), out, n, stream);
}

int cubb_scan_f32_f32(const void *in, void *out, int64_t n, int64_t seg,
                      void *stream) {
  return scanByKey(static_cast<const float *>(in), static_cast<float *>(out), n,
                   seg, static_cast<cudaStream_t>(stream));
}

// i8 sums in i32, as tcuc's i8 -> i32 reduce.
int cubb_segmented_reduce_i8_i32(const void *in, void *out, int64_t n,
                                 int64_t seg, void *stream) {
  return segmentedReduce<int32_t>(chars(in), out, n, seg, stream);
}

int cubb_reduce_i8_i32(const void *in, void *out, int64_t n, void *stream) {
  return reduceAll<int32_t>(chars(in), out, n, stream);
}

int cubb_exscan_f16_f32(const void *in, void *out, int64_t n, int64_t seg,
                        void *stream) {
  auto values = halves(in);
  return scanByKey(values, static_cast<float *>(out), n, seg,
                   static_cast<cudaStream_t>(stream), /*inclusive=*/false);
}

// Segments from k+1 int32 CSR offsets (bench/offsets.py): DeviceSegmentedReduce
// with begin = offsets, end = offsets + 1; the scans by key over segment ids
// the caller built (CUDA 13.0's CCCL has no DeviceSegmentedScan).
int cubb_segmented_reduce_offsets_f16_f32(const void *in, void *out,
                                          const void *offsets, int64_t k,
                                          void *stream) {
  return offsetsSum<float>(halves(in), out, offsets, k, stream);
}

int cubb_scan_by_keys_f16_f32(const void *in, void *out, const void *keys,
                              int64_t n, int inclusive, void *stream) {
  return keysScan<float>(halves(in), out, keys, n, inclusive, stream);
}

int cubb_segmented_reduce_offsets_f32_f32(const void *in, void *out,
                                          const void *offsets, int64_t k,
                                          void *stream) {
  return offsetsSum<float>(static_cast<const float *>(in), out, offsets, k,
                           stream);
}

int cubb_scan_by_keys_f32_f32(const void *in, void *out, const void *keys,
                              int64_t n, int inclusive, void *stream) {
  return keysScan<float>(static_cast<const float *>(in), out, keys, n,
                         inclusive, stream);
}

int cubb_segmented_reduce_offsets_i8_i32(const void *in, void *out,
                                         const void *offsets, int64_t k,
                                         void *stream) {
  return offsetsSum<int32_t>(chars(in), out, offsets, k, stream);
}

int cubb_scan_by_keys_i8_i32(const void *in, void *out, const void *keys,
                             int64_t n, int inclusive, void *stream) {
  return keysScan<int32_t>(chars(in), out, keys, n, inclusive, stream);
}

int cubb_read(const void *in, int64_t bytes, void *sink, void *stream) {
  static int grid = residentBlocks((const void *)readKernel, 256);
  readKernel<<<grid, 256, 0, static_cast<cudaStream_t>(stream)>>>(
      static_cast<const uint4 *>(in), bytes / 16,
      static_cast<unsigned *>(sink));
  return cudaGetLastError();
}

int cubb_copy_kernel(const void *in, void *out, int64_t bytes, void *stream) {
  static int grid = residentBlocks((const void *)copyKernel, 256);
  copyKernel<<<grid, 256, 0, static_cast<cudaStream_t>(stream)>>>(
      static_cast<const uint4 *>(in), static_cast<uint4 *>(out), bytes / 16);
  return cudaGetLastError();
}

int cubb_memcpy(const void *in, void *out, int64_t bytes, void *stream) {
  return cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice,
                         static_cast<cudaStream_t>(stream));
}

} // extern "C"
