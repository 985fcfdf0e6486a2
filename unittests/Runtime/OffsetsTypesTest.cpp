//===- OffsetsTypesTest.cpp - offsets kernels of every type, on a GPU -----===//
//
// Every type pair the offsets kernels come in (tcuc::offsetsKernels), reduce
// and both scans forward and reverse, over distributions with runs of several
// tiles, segments of one element and one segment across thousands of runs:
// against a float64 (int64) host reference. Inputs are quarter-integers, so
// every f32 sum is exact and must match bit for bit; 16-bit outputs must be the
// reference rounded once (round to nearest even). Then random f32 data,
// whose sums round: ten runs must give the same bits. Reverse scans of one
// segment size (constant and class kernels) too, the same way. Needs the
// offsets
// kernels (the full build compiles them; a runtime-only one reads
// $TCUC_CACHE_DIR); skips without a GPU.
//
//===----------------------------------------------------------------------===//

#include "tcuc/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace tcuc;

namespace {

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float floatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// f32 -> bf16, round to nearest even (finite values).
uint16_t toBF16(float f) {
  uint32_t u = bitsOf(f);
  u += 0x7fffu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}

float fromBF16(uint16_t h) { return floatOf(uint32_t(h) << 16); }

float fromF16(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  int exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  if (exp == 0)
    return (sign ? -1.0f : 1.0f) * std::ldexp(float(man), -24);
  return floatOf(sign | (uint32_t(exp - 15 + 127) << 23) |
                 (uint32_t(man) << 13));
}

/// f64 -> f16, round to nearest even (|x| < 65504).
uint16_t toF16(double x) {
  uint16_t sign = x < 0 ? 0x8000u : 0;
  double a = std::fabs(x);
  if (a < std::ldexp(1.0, -14)) // subnormal: multiples of 2^-24
    return sign | uint16_t(std::nearbyint(std::ldexp(a, 24)));
  int e;
  std::frexp(a, &e); // a = m 2^e, m in [0.5, 1)
  double step = std::ldexp(1.0, e - 11);
  double q = std::nearbyint(a / step) * step; // (nearbyint: ties to even)
  int qe;
  double qm = std::frexp(q, &qe);
  uint32_t man = uint32_t(std::ldexp(qm, 11)) & 0x3ffu;
  return sign | uint16_t(uint32_t(qe - 1 + 15) << 10) | uint16_t(man);
}

/// Segment lengths summing to exactly n.
std::vector<int64_t> offsetsOf(const std::string &dist, int64_t n,
                               std::mt19937 &rng) {
  std::vector<int64_t> off = {0};
  auto push = [&](int64_t len) {
    off.push_back(off.back() + std::min(len, n - off.back()));
  };
  while (off.back() < n) {
    if (dist == "ones")
      push(1);
    else if (dist == "uniform8")
      push(1 + rng() % 16);
    else if (dist == "pareto") // many tiny, a few of thousands and more
      push(int64_t(std::pow(double(rng() % 100000 + 1) / 100000.0, -1.3)));
    else if (dist == "halfempty")
      push(rng() % 2 ? 0 : 1 + rng() % 300);
    else if (dist == "hugeplus") { // one of n/2 among tiny ones
      if (off.size() == 20001)
        push(n / 2);
      else
        push(rng() % 4);
    }
  }
  return off;
}

struct Pair {
  DType in, out;
  const char *name;
};

int bytesOf(DType t) {
  return t == DType::F32 || t == DType::I32 ? 4 : t == DType::I8 ? 1 : 2;
}

/// The reference value `v` (exact) as the output type's bits, widened to
/// 32 bits for comparison.
/// The inputs q / 4 (q itself for i8) in `in`'s encoding: exact in every
/// input type.
std::vector<uint8_t> encodeQuarters(const std::vector<int> &q, DType in) {
  std::vector<uint8_t> host(q.size() * bytesOf(in));
  for (size_t i = 0; i < q.size(); ++i) {
    float x = in == DType::I8 ? float(q[i]) : float(q[i]) / 4;
    uint32_t bits = in == DType::F32   ? bitsOf(x)
                    : in == DType::I8  ? uint32_t(int8_t(q[i]))
                    : in == DType::F16 ? toF16(x)
                                       : toBF16(x);
    std::memcpy(host.data() + i * bytesOf(in), &bits, bytesOf(in));
  }
  return host;
}

uint32_t expectedBits(DType out, double v) {
  switch (out) {
  case DType::F32:
    return bitsOf(float(v));
  case DType::F16:
    return toF16(v);
  case DType::BF16:
    return toBF16(float(v)); // exact in f32 first (quarter-integers)
  default:
    return uint32_t(int32_t(int64_t(v)));
  }
}

uint32_t gotBits(DType out, const std::vector<uint8_t> &buf, int64_t i) {
  uint32_t v = 0;
  std::memcpy(&v, buf.data() + i * bytesOf(out), bytesOf(out));
  return v;
}

} // namespace

TEST(Gpu, OffsetsEveryTypeAgainstFloat64) {
  Runtime rt;
  std::string arch;
  if (Status gpu = rt.deviceArch(arch); !gpu)
    GTEST_SKIP() << "no GPU: " << gpu.message();
  const Pair pairs[] = {{DType::F16, DType::F32, "f16->f32"},
                        {DType::F16, DType::F16, "f16->f16"},
                        {DType::BF16, DType::F32, "bf16->f32"},
                        {DType::BF16, DType::BF16, "bf16->bf16"},
                        {DType::F32, DType::F32, "f32->f32"},
                        {DType::I8, DType::I32, "i8->i32"}};
  KernelSpec probe = KernelSpec::reduce(1, DType::F32, DType::F32);
  probe.offsetBits = 64;
  const Kernel *k = nullptr;
  if (Status s = rt.getKernelFor(probe, k); !s)
    GTEST_SKIP() << "no offsets kernel: " << s.message();

  // 3 tiles a run (n / 256 / 8192 rounded up), one partial tile at the end.
  const int64_t n = (int64_t(1) << 22) + 777;
  std::mt19937 rng(47);
  std::vector<int> q(n); // quarters: x = q / 4, q in [-8, 8]
  for (int &v : q)
    v = int(rng() % 17) - 8;
  void *dIn = nullptr, *dOut = nullptr, *dOff = nullptr;
  ASSERT_TRUE(rt.deviceAlloc(n * 4, dIn).ok());
  ASSERT_TRUE(rt.deviceAlloc(n * 4, dOut).ok());

  for (const Pair &p : pairs) {
    std::vector<uint8_t> host = encodeQuarters(q, p.in);
    ASSERT_TRUE(rt.copyToDevice(dIn, host.data(), host.size()).ok());
    auto value = [&](int64_t i) {
      return p.in == DType::I8 ? double(q[i]) : double(q[i]) / 4;
    };
    int distIndex = 0;
    for (std::string dist :
         {"ones", "uniform8", "pareto", "halfempty", "hugeplus"}) {
      std::vector<int64_t> off = offsetsOf(dist, n, rng);
      int64_t segs = int64_t(off.size()) - 1;
      int bits = ++distIndex % 2 ? 64 : 32;
      std::vector<int32_t> off32(off.begin(), off.end());
      size_t offBytes = off.size() * (bits / 8);
      ASSERT_TRUE(rt.deviceAlloc(offBytes, dOff).ok());
      ASSERT_TRUE(rt.copyToDevice(dOff,
                                  bits == 32 ? static_cast<void *>(off32.data())
                                             : static_cast<void *>(off.data()),
                                  offBytes)
                      .ok());
      // reduce, inclusive, exclusive, inclusive reverse, exclusive reverse
      for (int mode = 0; mode < 5; ++mode) {
        SCOPED_TRACE(std::string(p.name) + " " + dist + " i" +
                     std::to_string(bits) + " mode " + std::to_string(mode));
        ASSERT_TRUE(rt.deviceMemset(dOut, 0xff, n * 4).ok());
        bool inclusive = mode % 2 == 1, reverse = mode >= 3;
        Status s =
            mode == 0
                ? rt.reduceOffsets(dIn, dOut, dOff, segs, bits, p.in, p.out)
                : rt.scanOffsets(dIn, dOut, dOff, segs, bits, p.in, p.out,
                                 ScanMode{inclusive, reverse});
        ASSERT_TRUE(s.ok()) << s.message();
        int64_t count = mode == 0 ? segs : n;
        std::vector<uint8_t> got(count * bytesOf(p.out));
        ASSERT_TRUE(rt.synchronize(nullptr).ok());
        ASSERT_TRUE(rt.copyToHost(got.data(), dOut, got.size()).ok());
        int64_t bad = 0, firstBad = -1;
        auto check = [&](int64_t i, double want) {
          if (gotBits(p.out, got, i) != expectedBits(p.out, want)) {
            if (firstBad < 0)
              firstBad = i;
            ++bad;
          }
        };
        for (int64_t seg = 0; seg < segs; ++seg) {
          double acc = 0;
          int64_t len = off[seg + 1] - off[seg];
          for (int64_t j = 0; j < len; ++j) {
            // A reverse scan walks its segment from the end.
            int64_t i = reverse ? off[seg + 1] - 1 - j : off[seg] + j;
            if (mode != 0 && !inclusive)
              check(i, acc);
            acc += value(i);
            if (mode != 0 && inclusive)
              check(i, acc);
          }
          if (mode == 0)
            check(seg, acc);
        }
        EXPECT_EQ(bad, 0) << "first at " << firstBad;
      }
      ASSERT_TRUE(rt.deviceFree(dOff).ok());
    }
  }
  for (void *ptr : {dIn, dOut})
    EXPECT_TRUE(rt.deviceFree(ptr).ok());
}

// Reverse scans of one segment size, every type pair: per-size kernels
// (the default strategy at sizes where n is no multiple of the size, each
// variant the cost model picks) and class kernels (odd 16-bit sizes), at
// n shorter than a segment too; quarter-integers, so bit-exact.
TEST(Gpu, ReverseScansEveryTypeAgainstFloat64) {
  Runtime rt;
  std::string arch;
  if (Status gpu = rt.deviceArch(arch); !gpu)
    GTEST_SKIP() << "no GPU: " << gpu.message();
  KernelSpec probe =
      KernelSpec::scan(100, DType::F32, DType::F32, ScanMode{true, true});
  const Kernel *k = nullptr;
  if (Status s = rt.getKernelFor(probe, k); !s)
    GTEST_SKIP() << "no reverse scan kernel: " << s.message();
  const Pair pairs[] = {{DType::F16, DType::F32, "f16->f32"},
                        {DType::F16, DType::F16, "f16->f16"},
                        {DType::BF16, DType::F32, "bf16->f32"},
                        {DType::F32, DType::F32, "f32->f32"},
                        {DType::I8, DType::I32, "i8->i32"}};
  const int64_t maxN = 1000003;
  std::mt19937 rng(48);
  std::vector<int> q(maxN);
  for (int &v : q)
    v = int(rng() % 17) - 8;
  void *dIn = nullptr, *dOut = nullptr;
  ASSERT_TRUE(rt.deviceAlloc(maxN * 4, dIn).ok());
  ASSERT_TRUE(rt.deviceAlloc(maxN * 4, dOut).ok());
  for (const Pair &p : pairs) {
    std::vector<uint8_t> host = encodeQuarters(q, p.in);
    ASSERT_TRUE(rt.copyToDevice(dIn, host.data(), host.size()).ok());
    auto value = [&](int64_t i) {
      return p.in == DType::I8 ? double(q[i]) : double(q[i]) / 4;
    };
    for (auto [segment, n] : {std::pair<int64_t, int64_t>{1, 1000},
                              {10, maxN},
                              {16, maxN},
                              {100, maxN},
                              {3000, maxN},
                              {4097, maxN},
                              {100, 10},
                              {16, 1},
                              {(int64_t(1) << 20) + 1, maxN}}) {
      for (bool inclusive : {true, false}) {
        SCOPED_TRACE(std::string(p.name) + " segment " +
                     std::to_string(segment) + " n " + std::to_string(n) +
                     (inclusive ? " inclusive" : " exclusive"));
        ASSERT_TRUE(rt.deviceMemset(dOut, 0xff, maxN * 4).ok());
        Status s = rt.scan(dIn, dOut, n, segment, p.in, p.out,
                           ScanMode{inclusive, /*reverse=*/true});
        ASSERT_TRUE(s.ok()) << s.message();
        ASSERT_TRUE(rt.synchronize(nullptr).ok());
        std::vector<uint8_t> got(n * bytesOf(p.out));
        ASSERT_TRUE(rt.copyToHost(got.data(), dOut, got.size()).ok());
        int64_t bad = 0, firstBad = -1;
        for (int64_t end = n; end > 0;) {
          int64_t begin = (end - 1) / segment * segment;
          double acc = 0;
          for (int64_t i = end - 1; i >= begin; --i) {
            double before = acc;
            acc += value(i);
            double want = inclusive ? acc : before;
            if (gotBits(p.out, got, i) != expectedBits(p.out, want)) {
              if (firstBad < 0)
                firstBad = i;
              ++bad;
            }
          }
          end = begin;
        }
        EXPECT_EQ(bad, 0) << "first at " << firstBad;
      }
    }
  }
  for (void *ptr : {dIn, dOut})
    EXPECT_TRUE(rt.deviceFree(ptr).ok());
}

TEST(Gpu, OffsetsBitwiseDeterministic) {
  Runtime rt;
  std::string arch;
  if (Status gpu = rt.deviceArch(arch); !gpu)
    GTEST_SKIP() << "no GPU: " << gpu.message();
  KernelSpec probe = KernelSpec::reduce(1, DType::F32, DType::F32);
  probe.offsetBits = 64;
  const Kernel *k = nullptr;
  if (Status s = rt.getKernelFor(probe, k); !s)
    GTEST_SKIP() << "no offsets kernel: " << s.message();
  const int64_t n = (int64_t(1) << 23) + 5;
  std::mt19937 rng(49);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> x(n);
  for (float &v : x)
    v = u(rng);
  void *dIn = nullptr, *dOut = nullptr, *dOff = nullptr;
  ASSERT_TRUE(rt.deviceAlloc(n * 4, dIn).ok());
  ASSERT_TRUE(rt.deviceAlloc(n * 4, dOut).ok());
  ASSERT_TRUE(rt.copyToDevice(dIn, x.data(), n * 4).ok());
  for (std::string dist : {"uniform8", "hugeplus"}) {
    std::vector<int64_t> off = offsetsOf(dist, n, rng);
    int64_t segs = int64_t(off.size()) - 1;
    ASSERT_TRUE(rt.deviceAlloc(off.size() * 8, dOff).ok());
    ASSERT_TRUE(rt.copyToDevice(dOff, off.data(), off.size() * 8).ok());
    for (int mode = 0; mode < 2; ++mode) {
      SCOPED_TRACE(dist + (mode ? " scan" : " reduce"));
      int64_t count = mode ? n : segs;
      std::vector<float> first, again(count);
      for (int run = 0; run < 10; ++run) {
        Status s = mode ? rt.scanOffsets(dIn, dOut, dOff, segs, 64, DType::F32,
                                         DType::F32, true)
                        : rt.reduceOffsets(dIn, dOut, dOff, segs, 64,
                                           DType::F32, DType::F32);
        ASSERT_TRUE(s.ok()) << s.message();
        ASSERT_TRUE(rt.synchronize(nullptr).ok());
        ASSERT_TRUE(rt.copyToHost(again.data(), dOut, count * 4).ok());
        if (run == 0) {
          first = again;
          // Not a constant answer: the longest segment's sum tracks a
          // float64 reference.
          int64_t longest = 0;
          for (int64_t seg = 1; seg < segs; ++seg)
            if (off[seg + 1] - off[seg] > off[longest + 1] - off[longest])
              longest = seg;
          double acc = 0;
          for (int64_t i = off[longest]; i < off[longest + 1]; ++i)
            acc += x[i];
          float got = mode ? first[off[longest + 1] - 1] : first[longest];
          EXPECT_NEAR(got, acc, 1e-3 * (1 + std::fabs(acc)));
        } else {
          EXPECT_EQ(std::memcmp(first.data(), again.data(), count * 4), 0)
              << "run " << run << " differs";
        }
      }
    }
    ASSERT_TRUE(rt.deviceFree(dOff).ok());
  }
  for (void *ptr : {dIn, dOut})
    EXPECT_TRUE(rt.deviceFree(ptr).ok());
}
