//===- rowsum_main.cpp - runs tcu-to-ptx{host-launch}'s host code --------===//
//
// The host side of test/Integration/GPU/host-launch.test: calls the C
// interfaces of @rowsum (tensor<64x1000xf16> -> tensor<64xf32>),
// @rowsum_dyn (tensor<?x1000xf16> -> tensor<?xf32>) and @rowsum_init (the
// same added to a given init, in place) and @rowsum_generic (a
// linalg.generic), lowered through the
// GPU pipeline with host-launch and linked with libtcuc_mgpu.so, on device
// buffers, and checks each row's sum (small integers: exact). Prints PASS
// and exits 0, FAIL and exits 1, or the reason it cannot run and exits 2.
//
//===----------------------------------------------------------------------===//

#include "tcuc/Runtime.h"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {
template <int R> struct MemRef {
  void *allocated, *aligned;
  int64_t offset, sizes[R], strides[R];
};
} // namespace

extern "C" void _mlir_ciface_rowsum(MemRef<1> *result, MemRef<2> *in);
extern "C" void _mlir_ciface_rowsum_dyn(MemRef<1> *result, MemRef<2> *in);
extern "C" void _mlir_ciface_rowsum_generic(MemRef<1> *result, MemRef<2> *in);
extern "C" void _mlir_ciface_rowsum_init(MemRef<1> *result, MemRef<2> *in,
                                         MemRef<1> *init);

/// The f16 bits of a small integer (exact).
static uint16_t half(int v) {
  if (v == 0)
    return 0;
  unsigned a = v < 0 ? -v : v, e = 0;
  while ((2u << e) <= a)
    ++e;
  unsigned mantissa = (a - (1u << e)) << (10 - e);
  return uint16_t((v < 0 ? 0x8000 : 0) | ((e + 15) << 10) | mantissa);
}

/// Row r's init, where the function takes one (@rowsum_init adds to it).
static float initOf(int64_t r) { return float(r % 100) - 50; }

static int check(const char *name, void (*fn)(MemRef<1> *, MemRef<2> *),
                 void (*withInit)(MemRef<1> *, MemRef<2> *, MemRef<1> *),
                 int64_t rows) {
  const int64_t cols = 1000;
  std::vector<uint16_t> host(rows * cols);
  std::vector<double> want(rows, 0.0);
  for (int64_t i = 0; i < rows * cols; ++i) {
    int v = int((i * 7919) % 17) - 8;
    host[i] = half(v);
    want[i / cols] += v;
  }
  void *in = nullptr;
  tcuc::Status s = tcuc::deviceAlloc(host.size() * 2, in);
  if (s)
    s = tcuc::copyToDevice(in, host.data(), host.size() * 2);
  if (!s) {
    std::fprintf(stderr, "rowsum_main: cannot run: %s\n", s.message().c_str());
    return 2;
  }
  MemRef<2> arg{in, in, 0, {rows, cols}, {cols, 1}};
  MemRef<1> out{};
  if (withInit) {
    std::vector<float> inits(rows);
    for (int64_t r = 0; r < rows; ++r) {
      inits[r] = initOf(r);
      want[r] += inits[r];
    }
    void *init = nullptr;
    if (!tcuc::deviceAlloc(rows * 4, init) ||
        !tcuc::copyToDevice(init, inits.data(), rows * 4))
      return 2;
    MemRef<1> initArg{init, init, 0, {rows}, {1}};
    withInit(&out, &arg, &initArg);
  } else {
    fn(&out, &arg);
  }
  std::vector<float> got(rows);
  if (out.sizes[0] != rows ||
      !tcuc::copyToHost(got.data(), out.aligned, rows * 4)) {
    std::printf("%s: FAIL (result of %lld rows)\n", name,
                (long long)out.sizes[0]);
    return 1;
  }
  int bad = 0;
  for (int64_t r = 0; r < rows; ++r)
    if (double(got[r]) != want[r] && bad++ < 3)
      std::printf("%s: row %lld: %g, expected %g\n", name, (long long)r,
                  double(got[r]), want[r]);
  std::printf("%s: %s (%lld rows)\n", name, bad ? "FAIL" : "PASS",
              (long long)rows);
  (void)tcuc::deviceFree(in);
  return bad ? 1 : 0;
}

int main() {
  int rc = check("rowsum", _mlir_ciface_rowsum, nullptr, 64);
  for (int64_t rows : {1, 3, 64, 10007})
    if (rc == 0)
      rc = check("rowsum_dyn", _mlir_ciface_rowsum_dyn, nullptr, rows);
  if (rc == 0)
    rc = check("rowsum_generic", _mlir_ciface_rowsum_generic, nullptr, 777);
  for (int64_t rows : {5, 1000})
    if (rc == 0)
      rc = check("rowsum_init", nullptr, _mlir_ciface_rowsum_init, rows);
  return rc;
}
