# -*- Python -*-
# The GoogleTest binaries: each TEST counts as one lit test.
import os

import lit.formats

config.name = "BIRSIM-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.birsim_obj_root, "test", "Unit")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
