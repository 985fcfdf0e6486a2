//===- GpuArchTest.cpp - which kernels each GPU runs ----------------------===//
//
// tcuc::kernelArchFor, and Runtime::deviceArch on GPUs of every compute
// capability through a fake driver (FakeCudaDriver.cpp): sm_80..sm_89 run
// sm_80 kernels, sm_90 and later sm_90 ones, older GPUs get an error that
// names them, and RuntimeOptions::kernelArch / $TCUC_KERNEL_ARCH pick an
// older architecture's kernels (docs/gpus.md).
//
//===----------------------------------------------------------------------===//

#include "tcuc/Runtime.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

using namespace tcuc;

namespace {

bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

/// deviceArch of a fresh runtime over a fake GPU of capability `cc`.
Status archOn(const char *cc, std::string &arch, const std::string &asked = "",
              const char *name = "NVIDIA GeForce RTX 3090",
              const char *environment = nullptr) {
  setenv("TCUC_FAKE_CC", cc, 1);
  // Hermetic: an environment a test does not give is unset.
  if (environment)
    setenv("TCUC_KERNEL_ARCH", environment, 1);
  else
    unsetenv("TCUC_KERNEL_ARCH");
  setenv("TCUC_FAKE_GPU", name, 1);
  RuntimeOptions o;
  o.driverPath = TCUC_TEST_FAKE_DRIVER;
  o.kernelLibrary = false;
  o.diskCache = false;
  o.kernelArch = asked;
  Runtime rt(o);
  arch.clear();
  Status s = rt.deviceArch(arch);
  unsetenv("TCUC_KERNEL_ARCH");
  return s;
}

TEST(GpuArch, KernelArchForEveryChip) {
  for (const char *chip : {"sm_80", "sm_86", "sm_87", "sm_89"})
    EXPECT_EQ(kernelArchFor(chip), "sm_80") << chip;
  for (const char *chip : {"sm_90", "sm_90a", "sm_100", "sm_100a", "sm_103",
                           "sm_110", "sm_120", "sm_121"})
    EXPECT_EQ(kernelArchFor(chip), "sm_90") << chip;
  std::string why;
  EXPECT_EQ(kernelArchFor("sm_75", &why), "");
  EXPECT_TRUE(contains(why, "sm_75 is older than tcuc supports")) << why;
  EXPECT_TRUE(contains(why, "sm_80 (Ampere) or newer")) << why;
  for (const char *bad : {"", "banana", "sm_", "80", "sm_90:h200", "SM_90"}) {
    why.clear();
    EXPECT_EQ(kernelArchFor(bad, &why), "") << bad;
    EXPECT_TRUE(contains(why, "is not a GPU architecture")) << why;
  }
  EXPECT_EQ(kernelTargetFor("sm_89:l40"), "sm_80:l40");
  EXPECT_EQ(kernelTargetFor("sm_90:h200"), "sm_90:h200");
  EXPECT_EQ(kernelTargetFor("sm_120"), "sm_90");
  EXPECT_EQ(kernelTargetFor("sm_70:v100", &why), "");
}

TEST(GpuArch, DeviceRunsItsArchitecturesKernels) {
  std::string arch;
  for (auto [cc, expected] : {std::pair{"80", "sm_80"},
                              {"86", "sm_80"},
                              {"89", "sm_80"},
                              {"90", "sm_90"},
                              {"100", "sm_90"},
                              {"120", "sm_90"}}) {
    Status s = archOn(cc, arch);
    ASSERT_TRUE(s.ok()) << cc << ": " << s.message();
    EXPECT_EQ(arch, expected) << cc;
  }
  // The device's own architecture, beside the kernels'.
  setenv("TCUC_FAKE_CC", "89", 1);
  RuntimeOptions o;
  o.driverPath = TCUC_TEST_FAKE_DRIVER;
  o.diskCache = false;
  Runtime rt(o);
  std::string chip;
  ASSERT_TRUE(rt.deviceChip(chip).ok());
  EXPECT_EQ(chip, "sm_89");
}

TEST(GpuArch, OlderGpuIsAClearError) {
  std::string arch;
  Status s = archOn("75", arch, "", "Tesla T4");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "GPU 'Tesla T4' (sm_75): sm_75 is older than tcuc supports: its "
            "kernels need mma.sync m16n8k16, sm_80 (Ampere) or newer");
}

TEST(GpuArch, AskedArchitecture) {
  std::string arch;
  // An H100 or H200 running what an Ampere or Ada GPU runs.
  Status s = archOn("90", arch, "sm_80");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(arch, "sm_80");
  ASSERT_TRUE(archOn("90", arch, "sm_86").ok());
  EXPECT_EQ(arch, "sm_80");
  // Newer than the device, or no architecture: errors.
  s = archOn("86", arch, "sm_90");
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.message(), "asks for sm_90 kernels, newer than GPU "
                                    "'NVIDIA GeForce RTX 3090' (sm_86) runs "
                                    "(sm_80)"))
      << s.message();
  s = archOn("90", arch, "sm_75");
  EXPECT_TRUE(contains(s.message(), "RuntimeOptions::kernelArch: sm_75 is "
                                    "older than tcuc supports"))
      << s.message();
  // The environment, where the option is empty.
  s = archOn("100", arch, "", "NVIDIA B200", "sm_80");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(arch, "sm_80");
  s = archOn("90", arch, "", "NVIDIA H100", "banana");
  EXPECT_TRUE(contains(s.message(), "TCUC_KERNEL_ARCH: 'banana' is not a GPU "
                                    "architecture"))
      << s.message();
}

} // namespace
