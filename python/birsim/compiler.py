"""birsim's compiler from Python, without a subprocess (docs/Python.md "The
compiler"): MLIR text or bytecode in, a pass pipeline given as text, the
module and its diagnostics (--birsim-fidelity's remarks among them) out,
over include/birsim-c/Compiler.h's session in libbirsim_compiler.so.0,
loaded with ctypes as IREE loads its compiler (Debian ships no MLIR Python
bindings). The full build installs that library (it needs MLIR 22); a pip
install of the runtime alone does not, and importing this module there
raises ImportError saying so.

>>> from birsim import compiler
>>> result = compiler.run('''
... func.func @f() -> tensor<2xbf16> {
...   %x = arith.constant dense<[1.0, 3.0e38]> : tensor<2xf32>
...   %y = birsim.cast %x : tensor<2xf32> to tensor<2xbf16>
...   return %y : tensor<2xbf16>
... }''', "birsim-fidelity,canonicalize")
>>> "dense<[1.000000e+00, 3.004060e+38]> : tensor<2xbf16>" in result.module
True
>>> [str(r) for r in result.remarks]
["<input>:4:8: remark: cast 'f32' to 'bf16': of 2 values, 1 inexact (first at index 1)"]
"""
import ctypes as _c
from typing import List, NamedTuple, Tuple, Union

from . import _runtime

LIBRARY = "libbirsim_compiler.so.0"

try:
    _PATH = _runtime.find_library(__file__, LIBRARY, "BIRSIM_COMPILER")
    _lib = _c.CDLL(_PATH)
except OSError as e:
    raise ImportError(
        "birsim.compiler needs %s, which birsim's full build installs "
        "(utils/build.sh, with MLIR 22: build/lib, or `cmake --install`); "
        "this birsim (a pip install of the runtime alone, or a build "
        "without it) lacks it: %s" % (LIBRARY, e), name=__name__) from None

#: The library's exports by name, their ctypes signatures from its own
#: table (birsim-c/CompilerFunctions.def).
functions = _runtime.bind(_lib, _PATH, "birsimCompilerFunctionCount",
                          "birsimCompilerFunctionInfo")

#: The compiler library's version: the package's own.
__version__: str = _lib.birsimCompilerVersion().decode()


class Diagnostic(NamedTuple):
    """One diagnostic: "error", "warning", "note" or "remark", where (as
    mlir-opt prints it: "file:line:col") and what."""
    severity: str
    location: str
    message: str

    def __str__(self) -> str:
        return "%s: %s: %s" % (self.location, self.severity, self.message)


class CompilerError(ValueError):
    """A module that does not parse or verify, a pipeline that does not
    parse, or a pass that fails; `.diagnostics` holds the call's own
    diagnostics, the errors among them in the message."""

    def __init__(self, what: str, diagnostics: Tuple[Diagnostic, ...]):
        errors = [str(d) for d in diagnostics if d.severity == "error"]
        super().__init__("%s:\n%s" % (what, "\n".join(errors or
                                                      map(str, diagnostics))))
        self.diagnostics = diagnostics


class Result(NamedTuple):
    """`run`'s result: the module (str, or bytes when bytecode was asked
    for) and the diagnostics of parsing and running, in order."""
    module: Union[str, bytes]
    diagnostics: Tuple[Diagnostic, ...]

    @property
    def remarks(self) -> List[Diagnostic]:
        """The remarks (--birsim-fidelity's, --birsim-tensix-useful-phases')."""
        return [d for d in self.diagnostics if d.severity == "remark"]


def _c_string(call: str, argument: str, value: str) -> bytes:
    """`value` as the NUL-terminated UTF-8 the C API takes: a str without
    NUL (a NUL would end it early, as os functions refuse)."""
    if not isinstance(value, str):
        raise TypeError("%s: %s must be str, not %s"
                        % (call, argument, type(value).__name__))
    if "\0" in value:
        raise ValueError("%s: %s contains an embedded null character, which "
                         "would end it early in the C API" % (call, argument))
    return value.encode()


class Session:
    """A compiler session: its own MLIR context with birsim and the upstream
    dialects, holding one module; `parse`, then `run` pipelines, then `text`
    or `bytecode`. Every call raises CompilerError on failure, leaving the
    module as it was.

    >>> s = compiler.Session().parse("func.func @g() { return }")
    >>> print(s.run("canonicalize").text().strip())
    module {
      func.func @g() {
        return
      }
    }
    """

    def __init__(self) -> None:
        self._s = _lib.birsimCompilerSessionCreate()
        if not self._s:
            raise MemoryError("birsimCompilerSessionCreate failed")

    def __del__(self) -> None:
        if getattr(self, "_s", None):
            _lib.birsimCompilerSessionDestroy(self._s)
            self._s = None

    def parse(self, module: Union[str, bytes], name: str = "<input>", *,
              trust_bytecode: bool = False) -> "Session":
        """Parses MLIR text (str or bytes) or bytecode (bytes) and verifies
        it; the diagnostics start afresh. Bytecode is read only with
        `trust_bytecode=True`: MLIR 22's bytecode reader is not safe on
        malformed bytecode, so pass only bytecode you wrote (`bytecode()`).
        Text nested deeper than 256 brackets is refused before parsing
        (MLIR's parser would overflow the stack)."""
        if isinstance(module, str):
            module = module.encode()
        if not isinstance(module, (bytes, bytearray, memoryview)):
            raise TypeError("parse: module must be str or bytes, not %s"
                            % type(module).__name__)
        encoded_name = _c_string("parse", "name", name)
        if not isinstance(trust_bytecode, bool):
            raise TypeError("parse: trust_bytecode must be True or False, "
                            "not %s" % type(trust_bytecode).__name__)
        data = bytes(module)
        _lib.birsimCompilerTrustBytecode(self._s, int(trust_bytecode))
        if _lib.birsimCompilerParse(self._s, data, len(data), encoded_name):
            raise CompilerError("birsim.compiler: %s does not parse" % name,
                                self.diagnostics)
        return self

    def run(self, pipeline: str) -> "Session":
        """Runs a pass pipeline on the module: "convert-to-birsim,canonicalize",
        or anchored, "builtin.module(...)", as mlir-opt's --pass-pipeline.
        A pipeline nested on an op its passes do not run on, or on an op
        MLIR does not know, is a CompilerError before anything runs."""
        encoded = _c_string("run", "pipeline", pipeline)
        before = _lib.birsimCompilerDiagnosticCount(self._s)
        if _lib.birsimCompilerRun(self._s, encoded):
            raise CompilerError("birsim.compiler: pipeline %r failed"
                                % pipeline, self.diagnostics[before:])
        return self

    def _print(self, bytecode: bool) -> bytes:
        data, size = _c.c_void_p(), _c.c_size_t()
        if _lib.birsimCompilerPrint(self._s, int(bytecode), _c.byref(data),
                                    _c.byref(size)):
            raise CompilerError("birsim.compiler: no module to print",
                                self.diagnostics)
        return _c.string_at(data.value or 0, size.value)

    def text(self) -> str:
        """The module as mlir-opt prints it."""
        return self._print(False).decode()

    def bytecode(self) -> bytes:
        """The module as MLIR bytecode."""
        return self._print(True)

    @property
    def diagnostics(self) -> Tuple[Diagnostic, ...]:
        """Every diagnostic since the last parse, in order."""
        out = []
        severity, loc, msg = _c.c_int(), _c.c_char_p(), _c.c_char_p()
        for i in range(_lib.birsimCompilerDiagnosticCount(self._s)):
            if _lib.birsimCompilerDiagnostic(self._s, i, _c.byref(severity),
                                             _c.byref(loc), _c.byref(msg)) == 0:
                name = _lib.birsimCompilerSeverityName(severity.value)
                out.append(Diagnostic(name.decode(),
                                      (loc.value or b"").decode(),
                                      (msg.value or b"").decode()))
        return tuple(out)


def run(module: Union[str, bytes], pipeline: str, *,
        bytecode: bool = False, name: str = "<input>",
        trust_bytecode: bool = False) -> Result:
    """Parses `module` (MLIR text, or bytecode with `trust_bytecode=True`:
    Session.parse), runs `pipeline` on it ("" runs no pass) and returns the
    module (text, or bytecode when asked) and the diagnostics;
    CompilerError (a ValueError) when it does not parse or a pass fails."""
    _c_string("run", "pipeline", pipeline)  # before parsing anything
    s = Session().parse(module, name, trust_bytecode=trust_bytecode)
    s.run(pipeline)
    return Result(s.bytecode() if bytecode else s.text(), s.diagnostics)


__all__ = ["CompilerError", "Diagnostic", "Result", "Session", "run",
           "__version__"]
