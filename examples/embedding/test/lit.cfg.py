# lit configuration of the embedding example's tests.
import os

import lit.formats

config.name = "tcuc-embedding-example"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.embed_obj_root, "test")

# embed-opt first, then FileCheck and mlir-runner from LLVM.
config.environment["PATH"] = os.pathsep.join(
    [config.embed_tools_dir, config.llvm_tools_dir,
     config.environment.get("PATH", "")])
config.substitutions.append(("%runner_libs", ",".join(
    os.path.join(config.llvm_lib_dir, lib)
    for lib in ("libmlir_c_runner_utils.so", "libmlir_runner_utils.so"))))
