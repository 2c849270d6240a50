# -*- Python -*-
# The GoogleTest binaries: each TEST counts as one lit test.
import os

import lit.formats

config.name = "BIRSIM-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.birsim_obj_root, "test", "Unit")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")


# Sanitizer builds: see test/lit_sanitizer.py.
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lit_sanitizer
lit_sanitizer.configure(config, detect_leaks=1)
