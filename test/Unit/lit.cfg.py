# -*- Python -*-
# The GoogleTest binaries: each TEST counts as one lit test.
import os

import lit.formats

config.name = "BIRSIM-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.birsim_obj_root, "test", "Unit")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")

# Sanitizer builds (utils/test.sh --sanitize): uninstrumented hosts that load
# birsim's instrumented libraries get the shared ASan runtime preloaded; any
# report fails the test. Suppressions: test/sanitizer-suppressions.txt.
if config.birsim_sanitizer:
    import subprocess
    runtime = subprocess.check_output(
        [config.c_compiler, "-print-file-name=libclang_rt.asan-x86_64.so"],
        text=True).strip()
    config.environment["LD_PRELOAD"] = runtime
    suppressions = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../sanitizer-suppressions.txt")
    config.environment["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=1:verify_asan_link_order=0"
    config.environment["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1:suppressions=" + suppressions
    config.available_features.add("sanitizer")
