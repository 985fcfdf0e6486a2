# -*- Python -*-
# lit configuration for the tcuc regression tests (test/).

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TCUC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tcuc_obj_root, "test")
# Unit/ has its own configuration (GoogleTest format).
config.excludes = ["Unit", "Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

import sys

config.substitutions.append(("%tcuc_src_root", config.tcuc_src_root))
config.substitutions.append(("%tcuc_obj_root", config.tcuc_obj_root))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(
    ("%tcuc", os.path.join(config.tcuc_tools_dir, "tcuc")))

# mlir-runner's support libraries (printMemref*), beside the LLVM tools.
_mlir_lib_dir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
config.substitutions.append(("%mlir_runner_libs", ",".join(
    os.path.join(_mlir_lib_dir, lib)
    for lib in ("libmlir_c_runner_utils.so", "libmlir_runner_utils.so"))))

# Building an outside project (test/Examples): lit itself, and this build's
# ccache and lld so that it builds as fast.
config.substitutions.append(("%lit", config.lit or "lit"))
# A sanitizer build (scripts/sanitize.sh) installs instrumented libraries: the
# example must be compiled and linked by the same compiler with the same
# -fsanitize.
_example_args = []
if config.cxx_launcher:
    _example_args.append("-DCMAKE_CXX_COMPILER_LAUNCHER=" + config.cxx_launcher)
_link_flags = []
if config.have_lld in ("1", "ON", "TRUE"):
    _link_flags.append("-fuse-ld=lld")
if config.sanitizers:
    _fsan = "-fsanitize=" + ",".join(
        s.lower() for s in config.sanitizers.split(";") if s)
    _example_args += ["-DCMAKE_CXX_COMPILER=" + config.cxx_compiler,
                      "-DCMAKE_CXX_FLAGS=" + _fsan]
    _link_flags.append(_fsan)
if _link_flags:
    _example_args.append(
        "'-DCMAKE_EXE_LINKER_FLAGS=" + " ".join(_link_flags) + "'")
config.substitutions.append(("%example_cmake_args", " ".join(_example_args)))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# The libFuzzer target exists in fuzzer builds (scripts/sanitize.sh asan):
# test/Fuzz runs the inputs it once crashed on through it.
_fuzzer = os.path.join(config.tcuc_tools_dir, "tcuc-opt-fuzzer")
if os.access(_fuzzer, os.X_OK):
    config.available_features.add("fuzzer")
    config.substitutions.append(("%fuzz_target", _fuzzer))

# CPU kernels compile in every test (tcuc run caches them on disk per user
# otherwise, and a test's "kernel compiled" would depend on the ones before);
# test/Driver/cpu-cache.test turns the cache on in a directory of its own.
config.environment["TCUC_CPU_CACHE"] = "0"

tool_dirs = [config.tcuc_tools_dir, config.llvm_tools_dir]
tools = ["tcuc-opt", "tcuc", "tcuc-jit-latency", "mlir-runner",
         "mlir-translate", "llc"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The host C++ compiler, for tests that link a small host program.
config.substitutions.append(("%host_cxx", config.cxx_compiler))

# ptxas (CUDA toolkit) assembles generated PTX when present; a CUDA GPU runs
# the GPU integration tests. Neither is needed for the rest.
import shutil
import subprocess

ptxas = shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas"
    if os.access("/usr/local/cuda/bin/ptxas", os.X_OK) else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
# The Python package (python/): built into <build>/python when pybind11 was
# found; test/Python runs its pytest suites with the interpreter it was built
# for, where that interpreter has pytest and NumPy (scripts/setup.sh installs
# them).
if config.tcuc_python and os.path.isdir(
        os.path.join(config.tcuc_obj_root, "python", "tcuc")):
    try:
        if subprocess.run([config.tcuc_python, "-c",
                           "import pytest, numpy"], capture_output=True,
                          timeout=120).returncode == 0:
            config.available_features.add("python-package")
            config.substitutions.append(("%pkg_python",
                                         config.tcuc_python))
            config.environment["PYTHONPATH"] = os.path.join(
                config.tcuc_obj_root, "python")
            # Packages installed with `pip install --user` live under HOME.
            for var in ("HOME", "PYTHONUSERBASE"):
                if var in os.environ:
                    config.environment[var] = os.environ[var]
    except (OSError, subprocess.TimeoutExpired):
        pass

try:
    if subprocess.run(["nvidia-smi", "-L"], capture_output=True,
                      timeout=30).returncode == 0:
        config.available_features.add("cuda-gpu")
except (OSError, subprocess.TimeoutExpired):
    pass
