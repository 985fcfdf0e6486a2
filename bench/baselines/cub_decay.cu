// cub_decay.cu - the CUB baseline of bench/decay.py: decayed scans, the
// first-order linear recurrence h_i = a*h_{i-1} + x_i restarting at each
// segment's head, as a shared library with a C interface for ctypes.
// bench/decay.py builds it on the GPU machine:
//   nvcc -O3 -arch=native -shared -Xcompiler -fPIC -o DIR/libcub_decay.so
//
// The recurrence is a scan over pairs (a, h) with the associative operator
//   (a1, h1) . (a2, h2) = (a1*a2, a2*h1 + h2)
// (the h of the result is h2 carried over the earlier pair's h, decayed by
// a2; the a is the product of the decays it spans). Each input x becomes
// (a, float(x)) through a transform iterator, each output pair writes its h
// through a transform output iterator, and the segments are keys i / S from
// a counting iterator, so no buffer beyond CUB's temporary storage is used:
// DeviceScan::InclusiveScanByKey, or DeviceScan::InclusiveScan for the
// whole array (seg 0 or seg >= n). f32 math throughout.
//
// Every function enqueues on `stream` and returns a cudaError_t (0 = ok);
// cubd_error_string names it. Temporary storage is a grow-only buffer,
// allocated by the first (warm-up) call of a shape and reused after.

#include <cub/device/device_scan.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

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

struct Pair {
  float a, h;
};

struct Combine {
  __host__ __device__ Pair operator()(const Pair &l, const Pair &r) const {
    return Pair{l.a * r.a, r.a * l.h + r.h};
  }
};

__host__ __device__ inline float toFloat(float x) { return x; }
__host__ __device__ inline float toFloat(__half x) { return __half2float(x); }
__host__ __device__ inline float toFloat(__nv_bfloat16 x) {
  return __bfloat162float(x);
}

/// x -> (a, float(x)).
template <typename T> struct ToPair {
  float a;
  __host__ __device__ Pair operator()(T x) const { return Pair{a, toFloat(x)}; }
};

/// (a, h) -> h: what is stored.
struct TakeH {
  __host__ __device__ float operator()(const Pair &p) const { return p.h; }
};

struct SegmentKey {
  int64_t seg;
  __host__ __device__ int64_t operator()(int64_t i) const { return i / seg; }
};

template <typename T>
int decayScan(const void *in, void *out, int64_t n, int64_t seg, float a,
              void *stream) {
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  auto values = thrust::make_transform_iterator(static_cast<const T *>(in),
                                                ToPair<T>{a});
  auto outH =
      thrust::make_transform_output_iterator(static_cast<float *>(out), TakeH{});
  if (n <= 0)
    return cudaSuccess;
  if (seg <= 0 || seg >= n)
    return withTemp(
        [&](void *t, size_t &b) {
          return cub::DeviceScan::InclusiveScan(t, b, values, outH, Combine{},
                                                n, s);
        },
        s);
  auto keys = thrust::make_transform_iterator(
      thrust::counting_iterator<int64_t>(0), SegmentKey{seg});
  return withTemp(
      [&](void *t, size_t &b) {
        return cub::DeviceScan::InclusiveScanByKey(
            t, b, keys, values, outH, Combine{}, n, cuda::std::equal_to<>{}, s);
      },
      s);
}

} // namespace

extern "C" {

// in: n values of the named type; out: n floats; seg: the segment size (0:
// the whole array; the last segment may be shorter); a: the decay.
int cubd_decay_scan_f16_f32(const void *in, void *out, int64_t n, int64_t seg,
                            float a, void *stream) {
  return decayScan<__half>(in, out, n, seg, a, stream);
}

int cubd_decay_scan_bf16_f32(const void *in, void *out, int64_t n, int64_t seg,
                             float a, void *stream) {
  return decayScan<__nv_bfloat16>(in, out, n, seg, a, stream);
}

int cubd_decay_scan_f32_f32(const void *in, void *out, int64_t n, int64_t seg,
                            float a, void *stream) {
  return decayScan<float>(in, out, n, seg, a, stream);
}

const char *cubd_error_string(int e) {
  return cudaGetErrorString(static_cast<cudaError_t>(e));
}

} // extern "C"
