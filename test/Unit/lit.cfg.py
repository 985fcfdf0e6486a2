# -*- Python -*-
# Runs every GoogleTest binary under <build>/unittests as lit tests, one lit
# test per TEST(), so the suite's totals count C++ unit tests too.

import os

import lit.formats

config.name = "TCUC-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.tcuc_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
