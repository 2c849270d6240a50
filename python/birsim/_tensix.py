"""The Tensix FPU's elementwise ops and the packer's output
(docs/Semantics.md section 7): what mul_tiles, add_tiles and sub_tiles
write to Dest at a math fidelity, and what the packer writes to L1."""
from typing import (Any, Iterable, Optional, Tuple, Union)

import numpy as np

from . import _arrays
from ._core import (ArrayLike, _BFP_FORMAT_NAMES, _TABLE, _check, _input,
                    _flag, _lib, _name_number, _whole, bfp_formats)
from ._casts import _float32, _numbers_as_float32

_TABLES = ("arch", "op", "dest", "src", "fidelity")


def _tensix_names(table: int, numbers: Iterable[int]) -> Tuple[str, ...]:
    names = []
    for n in numbers:
        name = _lib.birsim_tensix_name(table, n)
        if not name:
            break
        names.append(name.decode())
    return tuple(names)


#: The rows of include/birsim/Core/Tensix.def, by number.
tensix_archs: Tuple[str, ...] = _tensix_names(0, range(16))
tensix_ops: Tuple[str, ...] = _tensix_names(1, range(16))
tensix_dests: Tuple[str, ...] = _tensix_names(2, range(16))
tensix_src_formats: Tuple[str, ...] = _tensix_names(3, range(16))
#: Fidelity names and their phase sets (bit p runs phase p).
tensix_fidelities = {_lib.birsim_tensix_name(4, p).decode(): p
                     for p in range(1, 16) if _lib.birsim_tensix_name(4, p)}

# Each Dest kind's storage dtype (birsim_tensix_dest_dtype).
_DEST_ROW = {name: _TABLE.rows[_lib.birsim_tensix_dest_dtype(number)]
             for number, name in enumerate(tensix_dests)}
# The unpacker's Src class of a float tile format; float32 is TF32 with a
# 32-bit Dest (tt-metal unpacks Float32 to Tf32 with fp32_dest_acc_en).
_SRC_OF_FORMAT = {"bfloat16": "bf16", "float16": "fp16", "tf32": "tf32",
                  "bf16": "bf16", "fp16": "fp16"}


def _phases(fidelity: Union[str, int, Iterable[int]], what: str) -> int:
    """A phase set from a fidelity name, a phase mask, or phase numbers."""
    if isinstance(fidelity, str):
        key = fidelity.lower()
        if key not in tensix_fidelities:
            raise ValueError("%s: unknown fidelity %r: expected one of %s, a "
                             "phase mask 1..15 or phase numbers 0..3"
                             % (what, fidelity, ", ".join(tensix_fidelities)))
        return tensix_fidelities[key]
    if isinstance(fidelity, (bool, np.bool_)):
        raise TypeError("%s: fidelity must be a name, a phase mask or phase "
                        "numbers, not %r" % (what, fidelity))
    if isinstance(fidelity, (int, np.integer)):
        mask = int(fidelity)
    else:
        try:
            phases = [_whole(p, what + ": phase") for p in fidelity]
        except TypeError:
            raise TypeError("%s: fidelity must be a name, a phase mask or "
                            "phase numbers, not %r" % (what, fidelity))
        if any(p > 3 for p in phases):
            raise ValueError("%s: phases are 0..3, got %s" % (what, phases))
        mask = sum(1 << p for p in set(phases))
    if not 1 <= mask <= 15:
        raise ValueError("%s: a phase set is a non-empty subset of phases "
                         "0..3 (mask 1..15), got %d" % (what, mask))
    return mask


def _values32(x: ArrayLike, what: str) -> np.ndarray:
    """Operand values as a contiguous float32 array: birsim dtypes
    converted exactly; Python numbers and float64 rounded as NumPy does."""
    if isinstance(x, (list, tuple, float, int)) or (
            isinstance(x, np.ndarray) and x.dtype == np.float64):
        return np.require(_numbers_as_float32(x, what), requirements="C")
    return np.require(_float32(x, None, what), requirements="C")


def _dest(dest: Union[str, int], what: str) -> str:
    return tensix_dests[_name_number(dest, tensix_dests, what + ": dest")]


def _arch(arch: Union[str, int], what: str) -> int:
    return _name_number(arch, tensix_archs, what + ": arch")


def _dest_values(values: ArrayLike, dest: str, what: str):
    """(storage array, caller's kind) of Dest values of kind `dest`."""
    row = _DEST_ROW[dest]
    array, _, kind, _ = _input(values, row.number, what)
    return np.require(array, requirements="C"), kind


def _write_into(target: np.ndarray, call) -> np.ndarray:
    """call(address) on target's bytes: in place where target is
    C-contiguous, else on a contiguous copy written back after success (a
    strided target's other bytes, and target on an error, stay as they
    were). Returns the array the call wrote."""
    work = target if target.flags.c_contiguous else np.ascontiguousarray(target)
    _check(call(work.ctypes.data))
    if work is not target:
        target[...] = work
    return work


def _src_of(src_format: Optional[Union[str, int]], operand: Any, dest: str,
            what: str) -> int:
    """The Src class: named, or from the operands' element type."""
    if src_format is None:
        dt = getattr(operand, "dtype", None)
        name = str(dt).replace("torch.", "") if dt is not None else "float32"
        if name == "float32" or name not in _SRC_OF_FORMAT:
            name = "tf32" if dest == "fp32" else "bf16"
        src_format = _SRC_OF_FORMAT[name]
    elif isinstance(src_format, str) and src_format in _SRC_OF_FORMAT:
        src_format = _SRC_OF_FORMAT[src_format]
    return _name_number(src_format, tensix_src_formats, what + ": src_format")


def tensix_eltwise(a: ArrayLike, b: ArrayLike, op: Union[str, int] = "mul",
                   *, fidelity: Union[str, int, Iterable[int]] = "hifi4",
                   dest: Union[str, int] = "fp32",
                   src_format: Optional[Union[str, int]] = None,
                   arch: Union[str, int] = "wormhole",
                   out: Optional[ArrayLike] = None,
                   accumulate: bool = False) -> Any:
    """Dest after mul_tiles / add_tiles / sub_tiles on a (SrcA) and b (SrcB)
    (docs/Semantics.md section 7).

    Args: `a`, `b` values of one shape (read as float32, then into Src as
    the unpacker writes a Float32 tile in `src_format`); `op` "mul", "add"
    or "sub"; `fidelity` "lofi".."hifi4", a phase mask (bit p runs phase
    p) or phase numbers (add and sub: "lofi" only); `dest` "fp32", "bf16"
    or "fp16"; `src_format` "tf32", "bf16" or "fp16" (default: from the
    operands' type; float32 is TF32 with an fp32 Dest, else BF16); `arch`
    "wormhole" or "blackhole"; `out` an array of Dest's type to write;
    `accumulate` True adds into `out`'s values (the accumulate forms).
    Returns: Dest's values in a's kind: float32, bfloat16, or float16 bit
    patterns whose exponent 31 is finite (tensix_pack reads them); `out`
    when given.
    Raises: TypeError, ValueError (misuse); BirsimError (a setting the FPU
    rejects).

    tt-metal #12923 on Wormhole with a bf16 Dest:

    >>> d = birsim.tensix_eltwise(np.float32([1.3125]), np.float32([7.96875]),
    ...                           fidelity="hifi2", dest="bf16")
    >>> birsim.to_float32(d, "bfloat16")
    array([10.4375], dtype=float32)
    """
    what = "tensix_eltwise"
    number = _name_number(op, tensix_ops, what + ": op")
    dest_name = _dest(dest, what)
    src = _src_of(src_format, a, dest_name, what)
    phases = _phases(fidelity, what)
    kind = _arrays.take(_TABLE, a, what + ": a")[2]
    fa = _values32(a, what + ": a")
    fb = _values32(b, what + ": b")
    if fa.shape != fb.shape:
        raise ValueError("%s: shapes %s and %s differ"
                         % (what, fa.shape, fb.shape))
    row = _DEST_ROW[dest_name]
    accumulate = _flag(accumulate, what + ": accumulate")
    if accumulate and out is None:
        raise ValueError("%s: accumulate=True adds into out's values; pass "
                         "out" % what)
    target = _arrays.take_out(_TABLE, out, row, fa.shape, what)
    if target is None:
        target = np.zeros(fa.shape, _TABLE.storage(row))
    arch_number = _arch(arch, what)
    work = _write_into(target, lambda address: _lib.birsim_tensix_eltwise(
        arch_number, number, phases, tensix_dests.index(dest_name), src,
        fa.ctypes.data, fb.ctypes.data, fa.size, address,
        int(accumulate)))
    return out if out is not None else kind.give(work, row)


def tensix_pack(dest_values: ArrayLike, to: Union[str, int], *,
                dest: Union[str, int] = "fp32",
                arch: Union[str, int] = "wormhole",
                accumulate_into: Optional[ArrayLike] = None) -> Any:
    """The packer's output of Dest values (docs/Semantics.md section 7):
    `to` "float32", "bfloat16" or "float16" as PACR converts them from
    `dest` ("fp32", "bf16", "fp16"; the values in that kind's type, or its
    bits); `accumulate_into` an array of `to`'s type already in L1, which
    Pack_L1_Acc adds into (in place; it is returned).

    >>> out = birsim.tensix_pack(np.float32([1.00390625, np.nan]), "bfloat16")
    >>> birsim.to_float32(out, "bfloat16").tolist()
    [1.0078125, inf]
    """
    what = "tensix_pack"
    dest_name = _dest(dest, what)
    values, kind = _dest_values(dest_values, dest_name, what + ": dest_values")
    row = _TABLE.resolve(to, what + ": to")
    target = _arrays.take_out(_TABLE, accumulate_into, row, values.shape,
                              what + ": accumulate_into")
    if target is None:
        target = np.empty(values.shape, _TABLE.storage(row))
    arch_number = _arch(arch, what)
    work = _write_into(target, lambda address: _lib.birsim_tensix_pack(
        arch_number, tensix_dests.index(dest_name), values.ctypes.data,
        values.size, row.number, address, int(accumulate_into is not None)))
    return accumulate_into if accumulate_into is not None else kind.give(
        work, row)


# The tile formats tensix_mul_tiles, tensix_matmul and tensix_useful_phases
# take, each with the Src class its values reach (float32: TF32 with an
# fp32 Dest, else BF16): float32, bfloat16, float16 and the "b" BFP formats,
# those with an fp32 exponent (ttsim's unpacker takes no "a" or MX format).
_TILE_FORMATS = {"float32": None, "bfloat16": "bf16", "float16": "fp16"}
_TILE_FORMATS.update((f.name, "bf16") for f in bfp_formats
                     if f.exponent == "fp32")
# ttnn's names of the BFP formats.
_TTNN_BFP = {"bfloat8_b": "bfp8_b", "bfloat4_b": "bfp4_b",
             "bfloat2_b": "bfp2_b"}


def _tile_format(fmt: Any, what: str) -> str:
    """A tile format's name in _TILE_FORMATS (ttnn's BFP names mapped)."""
    if not isinstance(fmt, str):
        raise TypeError("%s must be a tile format's name, not %s"
                        % (what, type(fmt).__name__))
    name = _TTNN_BFP.get(fmt, fmt)
    if name not in _TILE_FORMATS:
        bfp = [f for f in _TILE_FORMATS if f in _BFP_FORMAT_NAMES]
        raise ValueError("%s: %r is not a tile format the FPU takes: "
                         "float32, bfloat16, float16 or a \"b\" BFP format "
                         "(%s, or ttnn's %s)" % (what, fmt, ", ".join(bfp),
                                                 ", ".join(_TTNN_BFP)))
    return name


def _tile_src(x: ArrayLike, fmt: str, dest: str, what: str):
    """(float32 values as Src receives them, Src class) for a tile format."""
    from ._golden import round_trip
    name = _tile_format(fmt, what + "_format")
    if name in _BFP_FORMAT_NAMES:
        return round_trip(_values32(x, what), name, matrix=True), "bf16"
    if name == "float32":
        return _values32(x, what), "tf32" if dest == "fp32" else "bf16"
    return round_trip(_values32(x, what), name), _TILE_FORMATS[name]


def tensix_mul_tiles(in0: ArrayLike, in1: ArrayLike,
                     fidelity: Union[str, int, Iterable[int]], *,
                     in0_format: str = "bfloat16",
                     in1_format: str = "bfloat16",
                     dest: Union[str, int] = "fp32",
                     out_format: str = "bfloat16",
                     arch: Union[str, int] = "wormhole") -> Any:
    """mul_tiles' output in one call: in0 and in1 stored as tiles of their
    formats (float32, bfloat16, float16, or a "b" BFP format, by birsim's
    name or ttnn's (bfp8_b or bfloat8_b), through the
    host packer and the device unpacker), in0 in SrcA, one ELWMUL per phase
    of `fidelity` into a zeroed `dest`, then packed to `out_format`
    (float32, bfloat16 or float16). Returns the output in in0's kind.

    PR #35077's 508 x 748 at LoFi:

    >>> birsim.tensix_mul_tiles(np.float32([508.0]), np.float32([748.0]),
    ...                         "lofi", dest="bf16", out_format="float32")
    array([368640.], dtype=float32)
    """
    what = "tensix_mul_tiles"
    dest_name = _dest(dest, what)
    phases = _phases(fidelity, what)
    out_row = _TABLE.resolve(out_format, what + ": out_format")
    a, src_a = _tile_src(in0, in0_format, dest_name, what + ": in0")
    b, src_b = _tile_src(in1, in1_format, dest_name, what + ": in1")
    if np.shape(a) != np.shape(b):
        raise ValueError("%s: in0 and in1 have shapes %s and %s; mul_tiles "
                         "multiplies elementwise" % (what, np.shape(a),
                                                     np.shape(b)))
    if (src_a == "fp16") != (src_b == "fp16"):
        raise ValueError("%s: float16 tiles need float16 on both operands "
                         "(got %s and %s)" % (what, in0_format, in1_format))
    # A bf16 operand's values are exact in TF32: one class serves both.
    src = "tf32" if "tf32" in (src_a, src_b) else src_a
    kind = _arrays.take(_TABLE, in0, what + ": in0")[2]
    values = tensix_eltwise(np.asarray(a, np.float32),
                            np.asarray(b, np.float32), "mul",
                            fidelity=phases, dest=dest_name, src_format=src,
                            arch=arch)
    packed = tensix_pack(values, out_row, dest=dest_name, arch=arch)
    return kind.give(np.asarray(packed), out_row)


def tensix_matmul(in0: ArrayLike, in1: ArrayLike, *,
                  fidelity: Union[str, int, Iterable[int]] = "hifi4",
                  dest: Union[str, int] = "fp32",
                  in0_format: str = "bfloat16", in1_format: str = "bfloat16",
                  out_format: str = "bfloat16",
                  arch: Union[str, int] = "wormhole") -> Any:
    """matmul_tiles' output as the packer writes it (docs/Semantics.md
    section 7, "MVMUL" and "matmul_tiles"): in0 (M x K, the activations) in
    SrcB, in1 (K x N, the weights) in SrcA, each stored as tiles of its
    format (float32, bfloat16, float16, or a "b" BFP format by birsim's name
    or ttnn's, through the host packer and the device unpacker as a ttnn
    weight reaches Src); per K tile the phases of `fidelity` ascending into
    a zeroed `dest`, then packed to `out_format`. M, K and N are multiples
    of 32. Returns an M x N array in in0's kind.

    The golden a ttnn matmul test can assert with 0 ULP. Section 7's
    realignment example, bf16 activations and bfp4-valued weights:

    >>> in0 = np.zeros((32, 32), np.float32); in1 = np.zeros_like(in0)
    >>> in0[0, [0, 1, 16]] = [14.5, -14.5625, -0.00341796875]
    >>> in1[[0, 1, 16], 0] = [1, 1, 1.75]
    >>> for f in ("hifi4", (0, 2)):
    ...     out = birsim.tensix_matmul(in0, in1, fidelity=f, dest="bf16",
    ...                                out_format="bfloat16")
    ...     print(hex(int(out.view(np.uint16)[0, 0])))
    0xbd8d
    0xbd8c
    """
    what = "tensix_matmul"
    dest_name = _dest(dest, what)
    out_row = _TABLE.resolve(out_format, what + ": out_format")
    a, src_a = _tile_src(in0, in0_format, dest_name, what + ": in0")
    b, src_b = _tile_src(in1, in1_format, dest_name, what + ": in1")
    a = np.require(a, np.float32, "C")
    b = np.require(b, np.float32, "C")
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise ValueError("%s: in0 must be M x K and in1 K x N, got shapes "
                         "%s and %s" % (what, a.shape, b.shape))
    m, k = a.shape
    n = b.shape[1]
    if m % 32 or k % 32 or n % 32:
        raise ValueError("%s: M, K and N must be multiples of 32 "
                         "(matmul_tiles runs on 32x32 tiles), got %d x %d x "
                         "%d" % (what, m, k, n))
    if (src_a == "fp16") != (src_b == "fp16"):
        raise ValueError("%s: float16 tiles need float16 on both operands "
                         "(got %s and %s)" % (what, in0_format, in1_format))
    phases = _phases(fidelity, what)
    kind = _arrays.take(_TABLE, in0, what + ": in0")[2]
    row = _DEST_ROW[dest_name]
    values = np.zeros((m, n), _TABLE.storage(row))
    arch_number = _arch(arch, what)
    _check(_lib.birsim_tensix_matmul(
        arch_number, phases, tensix_dests.index(dest_name),
        tensix_src_formats.index(src_a), tensix_src_formats.index(src_b),
        a.ctypes.data, b.ctypes.data, m, k, n, values.ctypes.data, 0))
    packed = tensix_pack(values, out_row, dest=dest_name, arch=arch)
    return kind.give(np.asarray(packed), out_row)


def _significant_bits(fmt: str, what: str) -> int:
    """The significant bits (hidden bit included) a tile format's values
    keep in Src as the device unpacker decodes them: a BFP format's
    (birsim_bfp_significant_bits), else its Src class's with an fp32 Dest
    (birsim_tensix_src_bits; float32 reaches Src as TF32)."""
    name = _tile_format(fmt, what)
    if name in _BFP_FORMAT_NAMES:
        return _lib.birsim_bfp_significant_bits(_BFP_FORMAT_NAMES.index(name))
    src = _TILE_FORMATS[name] or "tf32"
    return _lib.birsim_tensix_src_bits(tensix_src_formats.index(src))


def tensix_useful_phases(fidelity: Union[str, int, Iterable[int]],
                         in0_format: str, in1_format: str, *,
                         op: str = "matmul") -> Tuple[int, ...]:
    """The phases of `fidelity` whose products can be non-zero for in0 and
    in1 stored in these formats (tensix_matmul's and tensix_mul_tiles' tile
    formats, the one list all three take; the slice rule of docs/Semantics.md
    section 7, "Fidelity phases"), as phase numbers for the `fidelity`
    argument of tensix_matmul and tensix_mul_tiles. `op` "matmul" (in0 in
    SrcB) or "mul" (mul_tiles: in0 in SrcA). Dropping the other phases is
    exact for mul_tiles while no product's exponent passes Dest's largest
    (|in0 x in1| below 2^129 for an fp32 or bf16 Dest: past it a zero
    phase realigns the saturated Dest, so 0x7F55 x 0x6440 in bf16 gives
    Inf at phases (0, 1) and +0 at HiFi4); a matmul's dropped MVMULs still
    realign Dest, so a cancelling sum can change.

    >>> birsim.tensix_useful_phases("hifi4", "bfloat16", "bfloat4_b")
    (0, 2)
    """
    what = "tensix_useful_phases"
    phases = _phases(fidelity, what)
    bits = [_significant_bits(fmt, "%s: %s" % (what, name))
            for fmt, name in ((in0_format, "in0_format"),
                              (in1_format, "in1_format"))]
    if not isinstance(op, str) or op not in ("matmul", "mul"):
        raise ValueError("%s: op must be \"matmul\" or \"mul\", not %r"
                         % (what, op))
    if op == "matmul":
        useful = _lib.birsim_tensix_useful_phases(phases, bits[0], bits[1])
    else:
        useful = _lib.birsim_tensix_useful_phases(phases, bits[1], bits[0])
    return tuple(p for p in range(4) if useful >> p & 1)
