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
    assert compiler.run(code, "", trust_bytecode=True).module == text
    folded = compiler.run(code, "canonicalize", trust_bytecode=True).module
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


FUZZ_BYTECODE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                             "Fuzz", "regressions", "compiler")
CAST = ("func.func @f(%x: tensor<2xf32>) -> tensor<2xbf16> {\n"
        "  %y = birsim.cast %x : tensor<2xf32> to tensor<2xbf16>\n"
        "  return %y : tensor<2xbf16>\n}\n")


def in_a_subprocess(code):
    """Runs `code` (with `compiler` and CAST imported) in a fresh Python, so
    that a crash or an abort fails this test, not the whole run."""
    prelude = "from birsim import compiler\nCAST = %r\n" % CAST
    return subprocess.run([sys.executable, "-c", prelude + code],
                          capture_output=True, text=True, timeout=120)


@needs_compiler
@pytest.mark.parametrize("pipeline, message", [
    ("func.func(birsim-to-llvm)",
     "pipeline 'birsim-to-llvm' cannot run nested on 'func.func'"),
    ("builtin.module(func.func(birsim-to-llvm))",
     "pipeline 'birsim-to-llvm' cannot run nested on 'func.func'"),
    ("gpu.module(birsim-to-llvm)",
     "pipeline 'birsim-to-llvm' cannot run nested on 'gpu.module'"),
    ("any(birsim-to-llvm)",
     "pipeline 'birsim-to-llvm' cannot run nested on 'any'"),
    ("func.func(sparsifier)",
     "pipeline 'sparsifier' cannot run nested on 'func.func': it adds pass "
     "'sparsification-and-bufferization', which runs on 'builtin.module'"),
    ("func.func(convert-birsim-to-llvm)",
     "restricted to 'builtin.module' on a PassManager intended to run on "
     "'func.func'"),
    ("nonesuch(canonicalize)", "'nonesuch' is not a registered operation"),
    # Pipelines in options, parsed later on an anchor the text does not show.
    ("inline{default-pipeline=sparsifier}",
     "pipeline 'sparsifier' in the options of 'inline' is refused: MLIR "
     "nests it on an op the text does not show, where its pass "
     "'sparsification-and-bufferization' may not run (it runs on "
     "'builtin.module' only)"),
    ("inline{default-pipeline=buffer-deallocation-pipeline{"
     "private-function-dynamic-ownership=true}}",
     "where its own options may make it add passes that run on one op only"),
    ("inline{op-pipelines=func.func(sparsifier)}",
     "pipeline 'sparsifier' in the options of 'inline'"),
    ("inline{default-pipeline=birsim-to-llvm}",
     "pipeline 'birsim-to-llvm' in the options of 'inline'"),
])
def test_a_pipeline_nested_on_an_op_its_passes_do_not_run_on_is_an_error(
        pipeline, message):
    # Before the check, MLIR aborted the process adding the passes.
    r = in_a_subprocess(
        "s = compiler.Session().parse(CAST)\nbefore = s.text()\n"
        "try:\n    s.run(%r)\nexcept compiler.CompilerError as e:\n"
        "    print(e)\nassert s.text() == before\nprint('kept')\n" % pipeline)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "<pipeline>: error: invalid pass pipeline" in r.stdout
    assert message in r.stdout and r.stdout.endswith("kept\n")


@needs_compiler
def test_a_pipeline_nested_deeper_than_the_limit_is_an_error():
    # MLIR's parser and pass manager recurse per anchor (30,000: SIGSEGV).
    r = in_a_subprocess(
        "s = compiler.Session().parse(CAST)\n"
        "try:\n    s.run('any(' * 30000 + 'cse' + ')' * 30000)\n"
        "except compiler.CompilerError as e:\n    print(e)\n")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "invalid pass pipeline: anchors nest deeper than 256" in r.stdout


@needs_compiler
def test_birsim_opt_refuses_the_same_pipelines():
    here = os.path.dirname(os.path.abspath(birsim.__file__))
    tool = os.path.join(here, "..", "..", "bin", "birsim-opt")
    if not os.path.exists(tool):
        pytest.skip("no birsim-opt beside this package")
    for pipeline, message in [
            ("builtin.module(func.func(birsim-to-llvm))",
             "cannot run nested on 'func.func'"),
            ("builtin.module(func.func(sparsifier))",
             "pipeline 'sparsifier' cannot run nested on 'func.func'"),
            ("builtin.module(nonesuch(cse))", "not a registered operation"),
            ("builtin.module(inline{default-pipeline=sparsifier})",
             "pipeline 'sparsifier' in the options of 'inline'"),
            ("builtin.module(" + "any(" * 300 + "cse" + ")" * 301,
             "anchors nest deeper than 256")]:
        r = subprocess.run([tool, "-", "--pass-pipeline=" + pipeline],
                           input=CAST, capture_output=True, text=True)
        assert r.returncode == 1 and message in r.stderr, r.stderr[-2000:]


@needs_compiler
def test_pipelines_nest_where_their_passes_run():
    s = compiler.Session().parse(CAST)
    s.run("builtin.module(func.func(canonicalize),cse)")
    s.run("func.func(any(canonicalize))")  # any: MLIR's meaning
    s.run("any(" * 255 + "cse" + ")" * 255)  # 256 deep with builtin.module
    s.run("inline{default-pipeline=canonicalize{max-iterations=2}}")
    s.run("inline{default-pipeline=buffer-deallocation-pipeline}")
    assert "llvm.call @birsim_cast" in s.run(
        "builtin.module(birsim-to-llvm)").text()


@needs_compiler
def test_arguments_are_checked_by_name():
    s = compiler.Session()
    with pytest.raises(TypeError, match="parse: name must be str, not int"):
        s.parse(CAST, name=5)
    with pytest.raises(ValueError, match="name contains an embedded null"):
        s.parse(CAST, name="a\0b")
    with pytest.raises(TypeError, match="trust_bytecode must be True or False"):
        s.parse(CAST, trust_bytecode=1)
    s.parse(CAST)
    # The C API takes a NUL-terminated pipeline: "canonicalize\0nonesuch"
    # ran canonicalize.
    with pytest.raises(ValueError, match="pipeline contains an embedded null"):
        s.run("canonicalize\0nonesuch")
    with pytest.raises(ValueError, match="pipeline contains an embedded null"):
        compiler.run(CAST, "canonicalize\0nonesuch")
    # compiler.run(module, None) ran nothing.
    with pytest.raises(TypeError, match="run: pipeline must be str, not NoneType"):
        compiler.run(CAST, None)
    assert compiler.run(CAST, "").module == s.text()  # "" runs no pass


@needs_compiler
@pytest.mark.parametrize("reproducer", [
    "bytecode-segv", "bytecode-double-free", "bytecode-smallvector-abort",
    "bytecode-hang"])
def test_bytecode_is_read_only_when_trusted(reproducer):
    # Each crashes or hangs MLIR 22's bytecode reader (mlir-opt-22 too).
    with open(os.path.join(FUZZ_BYTECODE, reproducer), "rb") as f:
        code = f.read()
    with pytest.raises(compiler.CompilerError,
                       match="MLIR bytecode is read only when trusted"):
        compiler.run(code, "")
    own = compiler.run(CAST, "", bytecode=True).module
    with pytest.raises(compiler.CompilerError, match="trust_bytecode=True"):
        compiler.Session().parse(own)
    assert compiler.run(own, "", trust_bytecode=True).module == \
        compiler.run(CAST, "").module


def nested_regions(depth):
    """A function whose body nests `depth` brackets deep ({ of the function,
    then scf.execute_region's)."""
    return ("func.func @f() {\n" + "  scf.execute_region {\n" * (depth - 1)
            + "  scf.yield\n  }\n" * (depth - 1) + "  return\n}\n")


@needs_compiler
def test_nesting_deeper_than_the_limit_is_an_error_before_parsing():
    s = compiler.Session().parse(nested_regions(256)).run("canonicalize")
    with pytest.raises(compiler.CompilerError,
                       match=r"deep\.mlir:257:22: error: nesting deeper than "
                             r"256 brackets"):
        compiler.run(nested_regions(257), "", name="deep.mlir")
    # Strings, comments and arrows do not nest.
    compiler.run('func.func private @g() -> () attributes {x.s = "%s"}\n'
                 "// %s\n" % ("[" * 300, "{" * 300), "")
    compiler.run("func.func private @h(%s) -> ()\n" % ", ".join(
        ["() -> ()"] * 300), "")
    assert s.text()
    # Upstream's parser overflowed the stack on these (SIGSEGV).
    r = in_a_subprocess(
        "for text in ['module attributes {x.a = %s%s} {}' % ('[' * 20000, "
        "']' * 20000), 'module {' * 5000 + '}' * 5000]:\n"
        "    try:\n        compiler.run(text, '')\n"
        "    except compiler.CompilerError as e:\n        print(e)\n")
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.count("nesting deeper than 256 brackets") == 2


@needs_compiler
def test_the_nesting_limit_fits_a_one_mebibyte_thread():
    # Parsing, passes and printing at the limit take under 1 MiB of stack.
    r = in_a_subprocess(
        "import threading\n"
        "text = %r\n"
        "def work():\n"
        "    s = compiler.Session().parse(text)\n"
        "    s.run('birsim-fidelity,canonicalize,cse').text()\n"
        "    s.bytecode()\n    print('ok')\n"
        "threading.stack_size(1 << 20)\n"
        "t = threading.Thread(target=work)\nt.start()\nt.join()\n"
        % nested_regions(256))
    assert r.returncode == 0 and r.stdout == "ok\n", r.stderr[-2000:]


@needs_compiler
def test_huge_tensor_types_are_verifier_errors_not_crashes():
    """Issue 64: a 2^62-element constant fed to a folder overwrote the stack
    of the Python process through compiler.run; now every birsim op's
    static shapes must fit in int64 bytes (D76), and a splat's folds and
    analyses stay bounded."""
    huge = ("func.func @f() -> tensor<4611686018427387904xbf16> {\n"
            "  %x = arith.constant dense<1.00244140625> : "
            "tensor<4611686018427387904xf32>\n"
            "  %r = birsim.dma_compute add %x {rounding = "
            "#birsim.rounding<stochastic>, seed = 7 : i64} : "
            "tensor<4611686018427387904xf32> -> "
            "tensor<4611686018427387904xbf16>\n"
            "  return %r : tensor<4611686018427387904xbf16>\n}\n")
    for pipeline in ("canonicalize", "birsim-fidelity"):
        with pytest.raises(compiler.CompilerError,
                           match="has more elements or bytes than int64"):
            compiler.run(huge, pipeline)
    splats = ("func.func @f() -> tensor<65536x65536xf32> {\n"
              "  %a = arith.constant dense<1.5> : tensor<65536x32xf32>\n"
              "  %b = arith.constant dense<1.25> : tensor<32x65536xf32>\n"
              "  %d = birsim.tensix_matmul %a, %b dest fp32 src bf16, bf16 : "
              "tensor<65536x32xf32>, tensor<32x65536xf32> -> "
              "tensor<65536x65536xf32>\n"
              "  return %d : tensor<65536x65536xf32>\n}\n")
    assert "dense<6.000000e+01> : tensor<65536x65536xf32>" in compiler.run(
        splats, "canonicalize").module
