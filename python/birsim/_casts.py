"""Casts and accumulation: the BIR simulator's cast_copy_or_accumulate,
its collective reducer and cast engine, and tt-metal's FP8 conversions
(docs/Semantics.md sections 3, 4 and 6)."""
import ctypes
from typing import (Any, Optional, Tuple, Union)

import numpy as np

from . import _arrays, _types
from ._core import (ArrayLike, DtypeLike, _ALU_OP_TYPES, _MEMORY_REDUCTION_OPS,
                    _ROW, _TABLE, _check, _fp8_config, _input, _lib,
                    _name_number, _on_copy, _operand, _overlap_error,
                    _result_kind, _whole, tt_fp8_policies)


def _elementwise(fn, into, head, tail, what, dst, src, row, kind, out):
    """``dst op src`` by ``fn(*head, acc, src, *tail, count)`` (in place) or
    ``into(*head, out, dst, src, *tail, count)`` into a fresh array or
    `out`, by the rules of D33 and D34."""
    (d, caller_dst), (s, caller_src) = dst, src
    if d.shape != s.shape:
        raise ValueError("%s: shapes %s and %s differ"
                         % (what, caller_dst.shape, caller_src.shape))
    call = lambda target: fn(*head, target.ctypes.data,  # noqa: E731
                             s.ctypes.data, *tail, target.size)
    if out is None:
        return kind.give(_on_copy(d, call), row)
    o = _arrays.take_out(_TABLE, out, row, caller_dst.shape, what)
    if o is caller_dst and o.flags.c_contiguous and (
            caller_src is o or not np.shares_memory(o, caller_src)):
        _check(call(o))  # out=dst, the common case, without the checks below
        return out
    for caller in (caller_dst, caller_src):
        if (np.shares_memory(o, caller) and
                not _arrays.same_elements(o, caller)):
            raise _overlap_error(True)
    s_apart = not np.shares_memory(o, s) or _arrays.same_elements(o, s)
    if o.flags.c_contiguous and s_apart and _arrays.same_elements(
            o, caller_dst):
        _check(call(o))
    elif into is not None and o.flags.c_contiguous and s_apart:
        _check(into(*head, o.ctypes.data, d.ctypes.data, s.ctypes.data,
                    *tail, o.size))
    else:
        o[...] = _on_copy(d, call)
    return out


#: Roundings of the DMA's narrowing (Runtime.h's BIRSIM_ROUND_*).
roundings: Tuple[str, ...] = ("nearest_even", "stochastic")


def _narrowing(fp8_config, rounding, seed) -> Tuple[int, int, int]:
    """The runtime's (fp8_config, rounding, seed) of the DMA's narrowing;
    None is the default (saturate, nearest_even, 0)."""
    word = _whole(0 if seed is None else seed, "seed")
    if word >> 64:
        raise ValueError("seed: %#x is wider than 64 bits" % word)
    return (_fp8_config("saturate" if fp8_config is None else fp8_config),
            _name_number("nearest_even" if rounding is None else rounding,
                         roundings, "rounding"), word)


def _kernel_narrowing(fp8_config, rounding, seed, what: str) -> None:
    """The narrowing options where the simulator's kernel runs (no
    src_dtype): checked as the mixed form checks them, and refused where
    they would change the result, since the kernel has no FP8 config and
    rounds to nearest even."""
    if fp8_config is None and rounding is None and seed is None:
        return  # the common case: nothing to check
    _, mode, _ = _narrowing(fp8_config, rounding, seed)
    if fp8_config is not None:
        raise ValueError("%s: fp8_config applies to the DMA's mixed form "
                         "(src_dtype=...); without src_dtype the simulator's "
                         "kernel runs, which has none (docs/Semantics.md "
                         "section 3)" % what)
    if roundings[mode] != "nearest_even":
        raise ValueError("%s: rounding=%r applies to the DMA's mixed form "
                         "(src_dtype=...); without src_dtype the simulator's "
                         "kernel rounds to nearest even" % (what, rounding))


def accumulate(op: Union[str, int], dst: ArrayLike, src: ArrayLike,
               dtype: Optional[DtypeLike] = None, *,
               out: Optional[ArrayLike] = None,
               src_dtype: Optional[DtypeLike] = None,
               fp8_config: Optional[Union[str, int]] = None,
               rounding: Optional[Union[str, int]] = None,
               seed: Optional[int] = None) -> Any:
    """cast_copy_or_accumulate over arrays: ``dst op src`` elementwise with
    the simulator's numerics (docs/Semantics.md section 3).

    Args: `op` "copy", "add", "min" or "max"; `dst`, `src` arrays of one
    shape and of `dtype` (default: dst's own type); `out` an array of that
    shape and type, which may be `dst` (in place), never partly overlapping
    an operand.
    With `src_dtype` (even dst's own), the DMA's mixed form
    (docs/Semantics.md section 8): `src` of `src_dtype`, both widened to
    float32, `op` there, the result narrowed into dst's dtype under
    `fp8_config` (default "saturate"), to "nearest_even" (the default) or
    "stochastic"ally from `seed` (default 0). Without `src_dtype` those
    options are checked and, but for rounding="nearest_even", refused: the
    simulator's kernel has no FP8 config and rounds to nearest even.
    Returns: a new array in dst's kind, or `out`.
    Raises: TypeError, ValueError (misuse); BirsimError (the simulator
    rejects the op on the dtype, or `out` partly overlaps an operand).

    E4M3 240 + 240 is +Inf on the simulator (its reduce path does not
    saturate):

    >>> birsim.accumulate("add", np.uint8([0x77]), np.uint8([0x77]), "float8e4")
    array([120], dtype=uint8)

    Trainium3's bf16 PSUM accumulation of a float32 matmul result:

    >>> birsim.accumulate("add", np.uint16([0x3F80]), np.float32([3 * 2**-9]), "bfloat16", src_dtype="float32")
    array([16257], dtype=uint16)
    """
    return _accumulate(("accumulate", "dst", "src"), op, dst, src, dtype, out,
                       src_dtype, fp8_config, rounding, seed)


def _accumulate(names: Tuple[str, str, str], op, dst, src, dtype, out,
                src_dtype, fp8_config, rounding, seed) -> Any:
    """accumulate, its errors naming (the call, dst, src) as `names` does
    (psum_accumulate's are psum and matmul)."""
    what, dst_name, src_name = names
    number = _name_number(op, _MEMORY_REDUCTION_OPS, what + ": op")
    d, row, kind, caller_dst = _input(dst, dtype,
                                      "%s: %s" % (what, dst_name))
    if src_dtype is not None:
        s_mixed, srow, _, caller_src = _input(src, src_dtype, "%s: %s"
                                              % (what, src_name))
        config, mode, word = _narrowing(fp8_config, rounding, seed)

        def mixed(number, target, source, count):
            return _lib.birsim_accumulate_mixed(
                number, target, row.number, source, srow.number, count,
                config, mode, word)
        return _elementwise(mixed, None, (number,), (), what,
                            (d, caller_dst), (s_mixed, caller_src), row, kind,
                            out)
    _kernel_narrowing(fp8_config, rounding, seed, what)
    s = _operand(src, row, "%s: %s" % (what, src_name))
    return _elementwise(_lib.birsim_accumulate, _lib.birsim_accumulate_into,
                        (number,), (row.number,), what,
                        (d, caller_dst), s, row, kind, out)


def collective_reduce(op: Union[str, int], acc: ArrayLike, x: ArrayLike, *,
                      out: Optional[ArrayLike] = None) -> Any:
    """The collective reducer on float32 arrays (docs/Semantics.md section
    3): `op` "add", "max" or "min"; `acc` and `x` float32 of one shape;
    `out` as in accumulate. Returns a new array or `out`.

    >>> birsim.collective_reduce("max", np.float32([1, 5]), np.float32([3, 2]))
    array([3., 5.], dtype=float32)
    """
    alu = _name_number(op, _ALU_OP_TYPES, "collective_reduce: op")
    row = _ROW["float32"]
    a, _, kind, caller_acc = _input(acc, row, "collective_reduce: acc")
    s = _operand(x, row, "collective_reduce: x")
    return _elementwise(_lib.birsim_collective_reduce, None, (alu,), (),
                        "collective_reduce", (a, caller_acc), s, row, kind,
                        out)


def scatter_accumulate(op: Union[str, int], dst: ArrayLike, src: ArrayLike,
                       indices: ArrayLike, dtype: Optional[DtypeLike] = None,
                       *, out: Optional[ArrayLike] = None,
                       src_dtype: Optional[DtypeLike] = None,
                       fp8_config: Optional[Union[str, int]] = None,
                       rounding: Optional[Union[str, int]] = None,
                       seed: Optional[int] = None) -> Any:
    """``dst.flat[indices[i]] = dst.flat[indices[i]] op src[i]`` in order,
    with the simulator's numerics; every index is checked before anything
    is written.

    Args: `indices` integers, one per element of `src`; `out` may be `dst`
    and must not overlap `src` or `indices`; the rest as in accumulate,
    `src_dtype` (the DMA's mixed form, each element narrowing in order)
    included.
    Raises: IndexError (indices that are not integers), TypeError,
    ValueError; BirsimError (an index outside dst, the op on the dtype,
    an overlapping `out`).

    >>> birsim.scatter_accumulate("add", np.zeros(3, np.float32), np.float32([1, 2]), [2, 2])
    array([0., 0., 3.], dtype=float32)
    """
    number = _name_number(op, _MEMORY_REDUCTION_OPS, "scatter_accumulate: op")
    d, row, kind, caller_dst = _input(dst, dtype, "scatter_accumulate: dst")
    if src_dtype is None:
        _kernel_narrowing(fp8_config, rounding, seed, "scatter_accumulate")
        s, caller_src = _operand(src, row, "scatter_accumulate: src")
    else:
        s, srow, _, caller_src = _input(src, src_dtype,
                                        "scatter_accumulate: src")
        config, mode, word = _narrowing(fp8_config, rounding, seed)
    idx_array, _, _ = _arrays.take(_TABLE, indices, "scatter_accumulate: indices")
    if idx_array.dtype.kind not in "iu":
        raise IndexError("scatter_accumulate: indices must be integers, not "
                         "%s" % idx_array.dtype)
    if idx_array.dtype.kind == "u" and idx_array.size and \
            idx_array.max() > np.iinfo(np.int64).max:
        raise IndexError("scatter_accumulate: index %d is outside any array"
                         % idx_array.max())
    idx = np.ascontiguousarray(idx_array, dtype=np.int64).reshape(-1)
    if idx.size != s.size:
        raise ValueError("scatter_accumulate: %d indices for %d source "
                         "elements" % (idx.size, s.size))
    o = _arrays.take_out(_TABLE, out, row, caller_dst.shape,
                         "scatter_accumulate")
    if src_dtype is None:
        call = lambda target: _lib.birsim_scatter_accumulate(  # noqa: E731
            number, target.ctypes.data, target.size, s.ctypes.data,
            idx.ctypes.data, idx.size, row.number)
    else:
        call = lambda target: _lib.birsim_scatter_accumulate_mixed(  # noqa: E731
            number, target.ctypes.data, target.size, row.number,
            s.ctypes.data, srow.number, idx.ctypes.data, idx.size, config,
            mode, word)
    if o is None:
        return kind.give(_on_copy(d, call), row)
    if (np.shares_memory(o, caller_src) or np.shares_memory(o, idx_array) or
            (np.shares_memory(o, caller_dst) and
             not _arrays.same_elements(o, caller_dst))):
        raise _overlap_error(False)
    if o.flags.c_contiguous and _arrays.same_elements(o, caller_dst):
        _check(call(o))
    else:
        o[...] = _on_copy(d, call)
    return out


def alu_op_to_memory_reduction(alu_op: Union[str, int]) -> str:
    """AluOpType2MemoryReduction: "bypass" -> "copy", "add" -> "add"; the
    simulator's error (BirsimError) for the others, min and max included.

    >>> birsim.alu_op_to_memory_reduction("bypass")
    'copy'
    """
    result = ctypes.c_int()
    _check(_lib.birsim_alu_op_to_memory_reduction(
        _name_number(alu_op, _ALU_OP_TYPES, "alu_op_to_memory_reduction"),
        ctypes.byref(result)))
    return _MEMORY_REDUCTION_OPS[result.value]


def cast(x: ArrayLike, dtype: DtypeLike, *,
         src_dtype: Optional[DtypeLike] = None,
         fp8_config: Union[str, int] = "saturate") -> Any:
    """The cast engine (docs/Semantics.md section 4): `x` (of `src_dtype`,
    default its own type) to `dtype` through fp32, with the FP8 config
    ("none", "saturate", "nan_suppress", "saturate|nan_suppress", or the
    config word). Returns an array of x's shape, in x's kind: torch tensors
    of the target's torch dtype where torch has one, else the bits.

    >>> birsim.cast(np.float32([1.0, 448.0, 1000.0]), "float8_e4m3fn").tolist()
    [56, 126, 126]
    """
    return _cast(("cast", "x", "dtype"), x, dtype, src_dtype, fp8_config)


def _cast(names: Tuple[str, str, str], x: ArrayLike, dtype: DtypeLike,
          src_dtype: Optional[DtypeLike], fp8_config: Union[str, int]) -> Any:
    """cast, its errors naming (the call, x, dtype) as `names` does."""
    what, x_name, dtype_name = names
    src, src_row, kind, _ = _input(x, src_dtype, "%s: %s" % (what, x_name))
    dst = _TABLE.resolve(dtype, "%s: %s" % (what, dtype_name))
    config = _fp8_config(fp8_config)
    result = np.empty(src.shape, dtype=_TABLE.storage(dst))
    _check(_lib.birsim_cast(src_row.number, src.ctypes.data, dst.number,
                            result.ctypes.data, src.size, config))
    return _result_kind(kind, dtype, dst).give(result, dst)


def to_float32(bits: ArrayLike, dtype: Optional[DtypeLike] = None) -> Any:
    """Values of `dtype` (bits of a format NumPy lacks, or typed arrays) to
    float32, exactly.

    >>> birsim.to_float32(np.uint16([0x3F80, 0xC040]), "bfloat16")
    array([ 1., -3.], dtype=float32)
    """
    return _cast(("to_float32", "bits", "dtype"), bits, "float32", dtype,
                 "saturate")


def from_float32(x: ArrayLike, dtype: DtypeLike, *,
                 fp8_config: Union[str, int] = "saturate") -> Any:
    """Values converted to float32 (as NumPy would), then rounded to
    `dtype` by the cast engine: the bits of a format NumPy lacks.

    >>> birsim.from_float32([1.0, -3.0], "bfloat16")
    array([16256, 49216], dtype=uint16)
    """
    if _types.is_tensor(x):
        x = x.float()
    else:
        x = _numbers_as_float32(x, "from_float32: x")
    return _cast(("from_float32", "x", "dtype"), x, dtype, "float32",
                 fp8_config)


def _numbers_as_float32(x: Any, what: str) -> np.ndarray:
    """Numbers as float32, rounded as NumPy rounds them; TypeError naming
    `what` for what is not numbers."""
    try:
        array = np.asarray(x)
        if array.dtype.kind in "SUmM":  # "1.5" would parse: not a number
            raise TypeError("a %s array" % array.dtype)
        return array.astype(np.float32, copy=False)  # ml_dtypes' types too
    except (TypeError, ValueError) as e:
        raise TypeError("%s must be numbers: %s" % (what, e)) from None


def tt_fp8_encode(x: ArrayLike, policy: Union[str, int] = "ttmetal_host"
                  ) -> Any:
    """x's values (as float32) to FP8 E4M3 codes under one of tt-metal's
    conversions (docs/Semantics.md section 6): "ttmetal_host" (tt-metal's
    host float8_e4m3, largest 240), "ocp_e4m3fn" (torch.float8_e4m3fn,
    ttnn's golden, largest 448) or "blackhole_packer" (the Blackhole
    packer's Lf8 from an fp32 Dest). Returns uint8 codes of x's shape, in
    x's kind.

    >>> birsim.tt_fp8_encode(np.float32([1.0, 300.0]), "ttmetal_host").tolist()
    [56, 119]
    """
    number = _name_number(policy, tt_fp8_policies, "tt_fp8_encode: policy")
    _, _, kind, _ = _input(x, None, "tt_fp8_encode: x")
    values = _float32(x, None, "tt_fp8_encode: x")
    codes = np.empty(values.shape, np.uint8)
    _check(_lib.birsim_tt_fp8_encode(number, values.ctypes.data, values.size,
                                      codes.ctypes.data))
    return kind.give(codes, _ROW["uint8"])


def tt_fp8_decode(codes: ArrayLike, policy: Union[str, int] = "ttmetal_host"
                  ) -> Any:
    """FP8 E4M3 codes (uint8) to float32 values as `policy` reads them
    (tt_fp8_encode's policies; "blackhole_packer" decodes as the
    Blackhole unpacker, 0x7F being 511.75).

    >>> birsim.tt_fp8_decode(np.uint8([0x38, 0x7F]), "blackhole_packer").tolist()
    [1.0, 511.75]
    """
    number = _name_number(policy, tt_fp8_policies, "tt_fp8_decode: policy")
    array, row, kind, _ = _input(codes, None, "tt_fp8_decode: codes")
    if array.dtype != np.uint8:
        raise TypeError("tt_fp8_decode: codes must be uint8, not %s"
                        % array.dtype)
    values = np.empty(array.shape, np.float32)
    _check(_lib.birsim_tt_fp8_decode(number, array.ctypes.data, array.size,
                                      values.ctypes.data))
    return kind.give(values, _ROW["float32"])


def _float32(x: ArrayLike, dtype: Optional[DtypeLike], what: str) -> np.ndarray:
    """Values as a float32 NumPy array: float32 arrays as they are, values
    of another birsim dtype (typed, or bits named by `dtype`) converted."""
    array, row, _, _ = _input(x, dtype, what)
    if row.number != _ROW["float32"].number:
        array = cast(array, "float32", src_dtype=row)
    return array
