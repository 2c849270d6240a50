"""The Tensix SFPU (docs/Semantics.md section 9): SFPU programs as text,
and ttnn's unary ops whose LLK body is SFPU instructions, over Dest values
exactly as Tenstorrent's simulator ttsim computes them."""
from typing import Any, List, Tuple, Union

import numpy as np

from ._core import ArrayLike, BirsimError, _lib, _name_number, _rt
from ._tensix import _DEST_ROW, _arch, _dest, _dest_values, tensix_dests


def _op_names() -> Tuple[str, ...]:
    names: List[str] = []
    while True:
        name = _lib.birsim_tensix_sfpu_op_name(len(names))
        if not name:
            return tuple(names)
        names.append(name.decode())


#: The named ops (lib/Core/Tensix/SfpuOps.def), by number.
tensix_sfpu_ops: Tuple[str, ...] = _op_names()


class SfpuError(BirsimError, ValueError):
    """A program or an op the SFPU (as ttsim defines it) refuses, or a Dest
    kind the op's LLK body does not serve: a ValueError, as the argument is
    wrong, and a BirsimError with the runtime's ``status`` and ``message``
    (the line, the instruction and ttsim's reason)."""


def _run(what: str, x: ArrayLike, dest: Union[str, int], call) -> Any:
    """call(dest number, input address, count, output address) on x as
    Dest values of `dest`; the result in x's kind."""
    dest_name = _dest(dest, what)
    values, kind = _dest_values(x, dest_name, what + ": x")
    out = np.empty(values.shape, values.dtype)
    status = call(tensix_dests.index(dest_name), values.ctypes.data,
                  values.size, out.ctypes.data)
    if status:
        raise SfpuError(status, _rt.error())
    return kind.give(out, _DEST_ROW[dest_name])


def tensix_sfpu(x: ArrayLike, op: Union[str, int], *,
                dest: Union[str, int] = "bf16",
                arch: Union[str, int] = "wormhole") -> Any:
    """ttnn's unary op `op` (one of tensix_sfpu_ops: "exp", the accurate
    exp_tile; "exp_approx", exp_tile<true> without SFPLOADMACRO) on Dest
    values `x` of kind `dest` ("bf16", "fp16", "fp32"; the values in that
    kind's type, or its bits), as the LLK's instructions compute them on
    `arch` (exp(-1) is 0.369140625, one bf16 ULP above the correctly
    rounded 0.3671875). Refuses a Dest kind the op's LLK body does not
    serve (exp: bf16 and fp16) with SfpuError, a ValueError.

    >>> x = birsim.from_float32(np.float32([0.0, 1.0, -1.0]), "bfloat16")
    >>> birsim.to_float32(birsim.tensix_sfpu(x, "exp"), "bfloat16").tolist()
    [1.0, 2.71875, 0.369140625]
    """
    what = "tensix_sfpu"
    number = _name_number(op, tensix_sfpu_ops, what + ": op")
    arch_number = _arch(arch, what)
    return _run(what, x, dest, lambda kind, src, n, dst:
                _lib.birsim_tensix_sfpu(arch_number, number, kind, src, n,
                                        dst))


def tensix_sfpu_run(program: str, x: ArrayLike, *,
                    dest: Union[str, int] = "bf16",
                    arch: Union[str, int] = "wormhole") -> Any:
    """Runs an SFPU program (docs/Python.md, "SFPU programs"; the text
    birsim_tensix_sfpu_run takes: an optional "init:" section run once, a
    "body:" section run per group of 32 elements, one TTI_ instruction per
    line with its operands) over Dest values `x` of kind `dest`. A program
    ttsim would refuse raises SfpuError, a ValueError naming the line and
    the reason; nothing is returned half done.

    >>> birsim.tensix_sfpu_run("SFPLOAD 0, 3, 0, 0\\nSFPMAD 0, 0, 9, 1, 0\\n"
    ...                        "SFPSTORE 1, 3, 0, 0", np.float32([3.0]),
    ...                        dest="fp32").tolist()
    [9.0]
    """
    what = "tensix_sfpu_run"
    if not isinstance(program, str):
        raise TypeError("%s: program must be a str of SFPU instructions, "
                        "not %s" % (what, type(program).__name__))
    if "\0" in program:
        raise ValueError("%s: program has an embedded null character" % what)
    text = program.encode("utf-8")
    arch_number = _arch(arch, what)
    return _run(what, x, dest, lambda kind, src, n, dst:
                _lib.birsim_tensix_sfpu_run(arch_number, text, kind, src, n,
                                            dst))
