# -*- Python -*-
"""Sanitizer builds. utils/test.sh --sanitize (ASan + UBSan): uninstrumented
hosts that load birsim's instrumented libraries (mlir-runner, mlir-opt,
python) get the shared ASan runtime preloaded. utils/test.sh --tsan: the
threaded tests, TSan's runtime linked statically into birsim's executables.
Any report fails the test. Suppressions: test/{asan,ubsan,tsan}-suppressions.txt."""
import os
import subprocess


def configure(config, detect_leaks):
    here = os.path.dirname(os.path.abspath(__file__))
    if config.birsim_sanitizer == "thread":
        config.environment["TSAN_OPTIONS"] = (
            "halt_on_error=1:second_deadlock_stack=1:suppressions=" +
            os.path.join(here, "tsan-suppressions.txt"))
        add_cc_flags(config, "-fsanitize=thread")
        # The unit tests that start threads (utils/test.sh --tsan).
        config.environment["GTEST_FILTER"] = "*Thread*"
        config.available_features.add("tsan")
        return
    if not config.birsim_sanitizer:
        return
    runtime = subprocess.check_output(
        [config.c_compiler, "-print-file-name=libclang_rt.asan-x86_64.so"],
        text=True).strip()
    config.environment["LD_PRELOAD"] = runtime
    config.environment["ASAN_OPTIONS"] = (
        "detect_leaks=%d:abort_on_error=1:verify_asan_link_order=0:"
        "suppressions=%s" % (detect_leaks,
                             os.path.join(here, "asan-suppressions.txt")))
    config.environment["UBSAN_OPTIONS"] = (
        "halt_on_error=1:print_stacktrace=1:suppressions=" +
        os.path.join(here, "ubsan-suppressions.txt"))
    add_cc_flags(config, "-fsanitize=address,undefined -shared-libsan")
    config.available_features.add("sanitizer")


def add_cc_flags(config, flags):
    """C programs built by the tests link the instrumented runtime library."""
    config.substitutions = [
        (key, value + " " + flags if key == "%cc" else value)
        for key, value in config.substitutions]
