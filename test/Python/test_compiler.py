"""birsim.compiler (docs/Python.md "The compiler"): the embedding session
over libbirsim_compiler.so.0 against birsim-opt on the same files (folding
an importer's weights, --birsim-fidelity's remarks, lowering), bytecode in
and out, and its errors; and, wherever the library is missing (the pip
install of the runtime alone), the ImportError that says so."""
import doctest
import os
import re
import subprocess
import sys

import pytest

import birsim

try:
    from birsim import compiler
except ImportError as e:
    compiler, MISSING = None, e

needs_compiler = pytest.mark.skipif(
    compiler is None, reason="no libbirsim_compiler.so.0 (runtime only)")
EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "..", "..", "examples")


def test_without_the_library_the_import_says_what_is_missing():
    env = dict(os.environ, BIRSIM_COMPILER="/nonexistent/libbirsim_compiler.so.0")
    r = subprocess.run([sys.executable, "-c", "import birsim.compiler"],
                       env=env, capture_output=True, text=True)
    assert r.returncode != 0
    assert "ImportError: birsim.compiler needs libbirsim_compiler.so.0" in r.stderr
    assert "runtime alone" in r.stderr
    import birsim as still_there  # the rest of the package is unaffected
    assert still_there.from_float32([1.0], "bfloat16").tolist() == [0x3F80]


@pytest.mark.skipif(compiler is not None, reason="the compiler is installed")
def test_the_runtime_only_package_lacks_the_compiler():
    assert "libbirsim_compiler.so.0" in str(MISSING)


def birsim_opt(*args):
    """The build tree's birsim-opt (build/python/birsim -> build/bin), or skip."""
    here = os.path.dirname(os.path.abspath(birsim.__file__))
    tool = os.path.join(here, "..", "..", "bin", "birsim-opt")
    if not os.path.exists(tool):
        pytest.skip("no birsim-opt beside this package")
    return subprocess.run([tool, *args], capture_output=True, text=True,
                          check=True)


@needs_compiler
def test_docstring_examples_run():
    failures, tried = doctest.testmod(compiler,
                                      extraglobs={"compiler": compiler})
    assert failures == 0 and tried >= 6


@needs_compiler
def test_version_is_the_packages():
    assert compiler.__version__ == birsim.__version__


@needs_compiler
@pytest.mark.parametrize("example, pipeline, flags", [
    ("importer-model.mlir", "convert-to-birsim,canonicalize",
     ["--convert-to-birsim", "-canonicalize"]),
    ("embedding-bag.mlir", "canonicalize", ["-canonicalize"]),
    ("embedding-bag.mlir", "birsim-to-llvm", ["--birsim-to-llvm"]),
])
def test_the_same_module_as_birsim_opt(example, pipeline, flags):
    path = os.path.join(EXAMPLES, example)
    with open(path) as f:
        result = compiler.run(f.read(), pipeline, name=path)
    # mlir-opt ends its output with one more newline.
    assert result.module == birsim_opt(path, *flags).stdout[:-1]
    if pipeline == "birsim-to-llvm":  # no birsim op is left
        assert not re.search(r"^\s*(%\S+ = )?birsim\.", result.module, re.M)
        assert "llvm.call @birsim_" in result.module


@needs_compiler
def test_fidelity_remarks_are_birsim_opts():
    path = os.path.join(EXAMPLES, "embedding-bag.mlir")
    with open(path) as f:
        result = compiler.run(f.read(), "birsim-fidelity", name=path)
    opt = birsim_opt(path, "--birsim-fidelity", "-o", os.devnull)
    expected = [line for line in opt.stderr.splitlines() if ": remark: " in line]
    assert [str(r) for r in result.remarks] == expected and expected


@needs_compiler
def test_bytecode_in_and_out():
    text = compiler.run(open(os.path.join(EXAMPLES, "importer-model.mlir")).read(),
                        "convert-to-birsim").module
    code = compiler.run(text, "", bytecode=True).module
    assert isinstance(code, bytes) and code[:4] == b"ML\xefR"
    assert compiler.run(code, "").module == text
    folded = compiler.run(code, "canonicalize").module
    assert folded == compiler.run(text, "canonicalize").module


@needs_compiler
def test_errors_name_the_place_and_keep_the_module():
    with pytest.raises(compiler.CompilerError, match=r"w\.mlir:1:\d+: error") as e:
        compiler.run("func.func @f(", "canonicalize", name="w.mlir")
    assert e.value.diagnostics[0].severity == "error"
    assert isinstance(e.value, ValueError)
    s = compiler.Session().parse(
        "func.func @f(%x: tensor<2xf32>) -> tensor<2xbf16> {\n"
        "  %y = birsim.cast %x : tensor<2xf32> to tensor<2xbf16>\n"
        "  return %y : tensor<2xbf16>\n}\n", "m.mlir")
    before = s.text()
    with pytest.raises(compiler.CompilerError, match="no-such-pass"):
        s.run("no-such-pass")
    with pytest.raises(compiler.CompilerError) as e:
        s.run("birsim-verify-lowered")  # nothing is lowered yet
    assert str(e.value).splitlines()[1:] == [
        "m.mlir:1:1: error: 'func.func' was not lowered to the LLVM dialect,"
        " so the module cannot run"]
    assert s.text() == before
    with pytest.raises(TypeError, match="pipeline must be str"):
        s.run(None)
    with pytest.raises(TypeError, match="module must be str or bytes"):
        s.parse(3)
    with pytest.raises(compiler.CompilerError, match="does not parse"):
        compiler.run(b"\x00\x01", "")
