# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "BIRSIM"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".c", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.birsim_obj_root, "test")
config.excludes = ["Unit", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%birsim_include", os.path.join(config.birsim_src_root, "include")))
config.substitutions.append(("%birsim_lib_dir", config.birsim_lib_dir))
config.substitutions.append(("%birsim_rt", os.path.join(config.birsim_lib_dir, "libbirsim_runtime.so")))
config.substitutions.append(("%birsim_plugin", os.path.join(config.birsim_lib_dir, "BirsimPlugin.so")))
config.substitutions.append(("%mlir_c_runner_utils", os.path.join(config.mlir_lib_dir, "libmlir_c_runner_utils.so")))
config.substitutions.append(("%mlir_runner_utils", os.path.join(config.mlir_lib_dir, "libmlir_runner_utils.so")))
config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))
config.substitutions.append(("%mlir_apfloat_wrappers", os.path.join(config.mlir_lib_dir, "libmlir_apfloat_wrappers.so")))
config.substitutions.append(("%cc", config.c_compiler))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%birsim_obj", config.birsim_obj_root))
config.substitutions.append(("%mlir_cmake_dir", os.path.join(config.mlir_lib_dir, "cmake", "mlir")))
config.substitutions.append(("%birsim_src", config.birsim_src_root))
config.substitutions.append(("%mlir_include", config.mlir_include_dir))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.birsim_tools_dir, config.llvm_tools_dir]
tools = ["birsim-opt", "birsim-lsp-server", "birsim-capi-test", "mlir-tblgen", "mlir-runner", "mlir-translate", "mlir-opt", "clang",
         "llvm-readelf", "llvm-nm",
         ToolSubst("%mlir_lib_dir", config.mlir_lib_dir, unresolved="ignore")]
llvm_config.add_tool_substitutions(tools, tool_dirs)


# Sanitizer builds: see test/lit_sanitizer.py.
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ""))
import lit_sanitizer
lit_sanitizer.configure(config, detect_leaks=0)

# The fuzz targets are also linked with libFuzzer (BIRSIM_BUILD_FUZZERS).
if config.birsim_build_fuzzers.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("fuzzers")

# The x86 vector paths' sources compile only for x86-64 (vocabulary-contract).
import platform
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")
