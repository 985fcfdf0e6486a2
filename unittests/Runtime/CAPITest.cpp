//===- CAPITest.cpp - the C interface (tcuc.h) ----------------------------===//
//
// What needs no GPU: names, arguments and error messages. (bench/ runs the
// GPU path through ctypes.)
//
//===----------------------------------------------------------------------===//

#include "tcuc/tcuc.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <string>

namespace {

std::string lastError() { return tcuc_last_error(); }

TEST(CAPI, BadNamesAreErrors) {
  EXPECT_EQ(
      tcuc_prepare("sum", 16, "f16", "f32", 1, nullptr, 0, nullptr, nullptr),
      -1);
  EXPECT_NE(lastError().find("op must be \"reduce\" or \"scan\""),
            std::string::npos)
      << lastError();
  EXPECT_EQ(tcuc_reduce(nullptr, nullptr, 10, 16, "q7", "f32", nullptr, ""),
            -1);
  EXPECT_EQ(lastError(), "unknown input type \"q7\"");
  EXPECT_EQ(
      tcuc_scan(nullptr, nullptr, 10, 16, "f16", nullptr, 1, nullptr, nullptr),
      -1);
  EXPECT_EQ(lastError(), "unknown output type \"\"");
  EXPECT_EQ(tcuc_prepare("scan", 0, "f16", "f32", 1, "", 0, nullptr, nullptr),
            -1);
  EXPECT_EQ(lastError(), "segment size must be >= 1, got 0");
}

// The reverse entry points: flags checked first, then as tcuc_scan.
TEST(CAPI, ScanFlags) {
  EXPECT_EQ(
      tcuc_scan_ex(nullptr, nullptr, 10, 16, "f16", "f32", 4, nullptr, nullptr),
      -1);
  EXPECT_NE(lastError().find("scan flags must be TCUC_SCAN_EXCLUSIVE (1) "
                             "and/or TCUC_SCAN_REVERSE (2), got 4"),
            std::string::npos)
      << lastError();
  EXPECT_EQ(tcuc_scan_offsets_ex(nullptr, nullptr, nullptr, 1, "i64", "f16",
                                 "f32", -1, nullptr),
            -1);
  EXPECT_NE(lastError().find("got -1"), std::string::npos) << lastError();
  EXPECT_EQ(tcuc_prepare_ex("reduce", 16, "f16", "f32", TCUC_SCAN_REVERSE,
                            nullptr, 0, nullptr, nullptr),
            -1);
  EXPECT_EQ(lastError(), "TCUC_SCAN_REVERSE applies to \"scan\" only");
  // Good flags reach the argument checks.
  EXPECT_EQ(tcuc_scan_ex(nullptr, nullptr, 10, 16, "f16", "f32",
                         TCUC_SCAN_EXCLUSIVE | TCUC_SCAN_REVERSE, nullptr,
                         nullptr),
            -1);
  EXPECT_EQ(lastError(), "input pointer is null");
  EXPECT_EQ(tcuc_scan_offsets_ex(nullptr, nullptr, nullptr, 1, "i64", "f16",
                                 "f32", TCUC_SCAN_REVERSE, nullptr),
            -1);
  EXPECT_NE(lastError().find("pointer is null"), std::string::npos)
      << lastError();
  EXPECT_EQ(tcuc_scan_ex(nullptr, nullptr, 0, 16, "f16", "f32",
                         TCUC_SCAN_REVERSE, nullptr, nullptr),
            0);
}

TEST(CAPI, ArgumentsAreCheckedBeforeTheGPU) {
  EXPECT_EQ(
      tcuc_reduce(nullptr, nullptr, 10, 16, "f16", "f32", nullptr, nullptr),
      -1);
  EXPECT_EQ(lastError(), "input pointer is null");
  EXPECT_EQ(
      tcuc_scan(nullptr, nullptr, -1, 16, "i8", "i32", 1, nullptr, nullptr),
      -1);
  EXPECT_NE(lastError().find("element count must be >= 0"), std::string::npos)
      << lastError();
  void *in = reinterpret_cast<void *>(0x1000);
  void *out = reinterpret_cast<void *>(0x2000);
  EXPECT_EQ(
      tcuc_scan(in, out, INT64_MAX, 16, "f16", "f32", 1, nullptr, nullptr), -1);
  EXPECT_NE(lastError().find("exceeds the largest supported"),
            std::string::npos)
      << lastError();
  // n == 0 is a no-op that succeeds and clears the message.
  EXPECT_EQ(
      tcuc_reduce(nullptr, nullptr, 0, 16, "f16", "f32", nullptr, nullptr), 0);
  EXPECT_EQ(lastError(), "");
}

// Bad decays fail before any GPU work (non-null fake pointers pass the
// argument checks, so the decay's is what answers).
TEST(CAPI, PerSegmentDecaysAreChecked) {
  void *in = reinterpret_cast<void *>(0x1000);
  void *out = reinterpret_cast<void *>(0x2000);
  EXPECT_EQ(tcuc_scan_segment_decays(in, out, 10, 5, "f16", "f32", 0, nullptr,
                                     nullptr),
            -1);
  EXPECT_NE(std::string(tcuc_last_error()).find("decays pointer is null"),
            std::string::npos)
      << tcuc_last_error();
  const float *decays = reinterpret_cast<const float *>(0x3000);
  EXPECT_EQ(
      tcuc_scan_segment_decays(in, out, 10, 5, "i8", "i32", 0, decays, nullptr),
      -1);
  EXPECT_NE(std::string(tcuc_last_error()).find("f16, bf16 or f32 input"),
            std::string::npos)
      << tcuc_last_error();
  EXPECT_EQ(tcuc_scan_offsets_segment_decays(in, out, nullptr, 1, "i64", "f32",
                                             "f32", 0, nullptr, nullptr),
            -1);
  EXPECT_NE(std::string(tcuc_last_error()).find("pointer is null"),
            std::string::npos)
      << tcuc_last_error();
}

TEST(CAPI, DecayedScansCheckTheDecay) {
  void *in = reinterpret_cast<void *>(0x1000);
  void *out = reinterpret_cast<void *>(0x2000);
  EXPECT_EQ(tcuc_scan_decayed(in, out, 10, 5, "f16", "f32", 0, 1.5, nullptr),
            -1);
  EXPECT_NE(std::string(tcuc_last_error()).find("must lie in [-1, 1]"),
            std::string::npos)
      << tcuc_last_error();
  EXPECT_EQ(tcuc_scan_decayed(in, out, 10, 5, "i8", "i32", 0, 0.5, nullptr),
            -1);
  EXPECT_NE(std::string(tcuc_last_error()).find("f16, bf16 or f32"),
            std::string::npos)
      << tcuc_last_error();
  EXPECT_EQ(tcuc_scan_decayed(in, out, 10, 5, "f32", "f32", 8, 0.5, nullptr),
            -1);
  EXPECT_NE(std::string(tcuc_last_error()).find("scan flags"),
            std::string::npos);
  EXPECT_EQ(tcuc_scan_offsets_decayed(in, out, nullptr, 1, "i64", "f32", "f32",
                                      0, NAN, nullptr),
            -1);
  EXPECT_NE(std::string(tcuc_last_error()).find("pointer is null"),
            std::string::npos)
      << tcuc_last_error();
  // Nothing to do is a success whatever the decay.
  EXPECT_EQ(tcuc_scan_decayed(nullptr, nullptr, 0, 5, "f16", "f32",
                              TCUC_SCAN_REVERSE, 0.5, nullptr),
            0);
}

} // namespace

// The offsets calls name a bad offset type, and check host offsets.
TEST(CAPI, OffsetsTypeAndValidation) {
  int64_t offsets[2] = {0, 4};
  char in[8] = {}, out[8] = {};
  EXPECT_NE(
      tcuc_reduce_offsets(in, out, offsets, 1, "i16", "f16", "f32", nullptr),
      0);
  EXPECT_NE(std::string(tcuc_last_error()).find("offset_type must be"),
            std::string::npos);
  EXPECT_NE(
      tcuc_scan_offsets(in, out, offsets, 1, "i64", "f64", "f32", 1, nullptr),
      0);
  int64_t bad[3] = {0, 5, 3};
  EXPECT_NE(tcuc_validate_offsets(bad, 2, "i64", 9), 0);
  EXPECT_NE(
      std::string(tcuc_last_error()).find("offsets[2] = 3 < offsets[1] = 5"),
      std::string::npos);
  int32_t good[3] = {0, 0, 3};
  EXPECT_EQ(tcuc_validate_offsets(good, 2, "i32", 3), 0);
  EXPECT_NE(tcuc_validate_offsets(good, 2, "i32", 4), 0); // last != n
}
