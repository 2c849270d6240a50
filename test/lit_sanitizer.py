# -*- Python -*-
"""Sanitizer builds (utils/test.sh --sanitize): uninstrumented hosts that
load birsim's instrumented libraries (mlir-runner, mlir-opt, python) get the
shared ASan runtime preloaded; any report fails the test. Suppressions:
test/asan-suppressions.txt and test/ubsan-suppressions.txt."""
import os
import subprocess


def configure(config, detect_leaks):
    if not config.birsim_sanitizer:
        return
    runtime = subprocess.check_output(
        [config.c_compiler, "-print-file-name=libclang_rt.asan-x86_64.so"],
        text=True).strip()
    here = os.path.dirname(os.path.abspath(__file__))
    config.environment["LD_PRELOAD"] = runtime
    config.environment["ASAN_OPTIONS"] = (
        "detect_leaks=%d:abort_on_error=1:verify_asan_link_order=0:"
        "suppressions=%s" % (detect_leaks,
                             os.path.join(here, "asan-suppressions.txt")))
    config.environment["UBSAN_OPTIONS"] = (
        "halt_on_error=1:print_stacktrace=1:suppressions=" +
        os.path.join(here, "ubsan-suppressions.txt"))
    # C programs built by the tests link the instrumented runtime library.
    config.substitutions = [
        (key, value + " -fsanitize=address,undefined -shared-libsan"
         if key == "%cc" else value) for key, value in config.substitutions]
    config.available_features.add("sanitizer")
