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
config.excludes = ["Unit", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

import sys

config.substitutions.append(("%tcuc_src_root", config.tcuc_src_root))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(
    ("%tcuc", os.path.join(config.tcuc_tools_dir, "tcuc")))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.tcuc_tools_dir, config.llvm_tools_dir]
tools = ["tcuc-opt", "tcuc"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
