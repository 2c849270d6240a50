# -*- Python -*-
"""Sanitizer builds (utils/test.sh --sanitize): uninstrumented hosts that
load birsim's instrumented libraries (mlir-runner, mlir-opt, python) get the
shared ASan runtime preloaded; any report fails the test. Suppressions:
test/sanitizer-suppressions.txt."""
import os
import subprocess


def configure(config, detect_leaks):
    if not config.birsim_sanitizer:
        return
    runtime = subprocess.check_output(
        [config.c_compiler, "-print-file-name=libclang_rt.asan-x86_64.so"],
        text=True).strip()
    suppressions = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "sanitizer-suppressions.txt")
    config.environment["LD_PRELOAD"] = runtime
    config.environment["ASAN_OPTIONS"] = (
        "detect_leaks=%d:abort_on_error=1:verify_asan_link_order=0" % detect_leaks)
    config.environment["UBSAN_OPTIONS"] = (
        "halt_on_error=1:print_stacktrace=1:suppressions=" + suppressions)
    config.available_features.add("sanitizer")
