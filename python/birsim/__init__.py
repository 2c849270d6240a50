"""birsim from Python: the BIR simulator's numerics and tt-metal's BFP
conversion, exact, over libbirsim_runtime.so.0 (docs/Python.md).

Arrays are NumPy arrays, lists, ml_dtypes arrays or CPU torch tensors;
results come back in the caller's kind. Element types NumPy lacks
(bfloat16, the fp8 formats) also travel as their bits in uint16 / uint8
arrays. Every table comes from the runtime. Misuse raises TypeError,
ValueError or IndexError before any call; what the runtime rejects raises
``BirsimError`` with its status and message; either way nothing is written.

>>> import numpy as np, birsim
>>> birsim.to_float32(birsim.from_float32([1.0, 1000.0], "float8_e4m3"), "float8_e4m3")
array([  1., 240.], dtype=float32)
"""
import contextlib
import ctypes
from typing import (Any, Dict, Iterator, Optional, Sequence, Tuple, TypeGuard,
                    Union, cast as _cast_type)

import numpy as np
import numpy.typing as npt

from . import _arrays, _runtime, _types

__all__ = [
    "BirsimError", "Dtype", "BfpFormat", "FidelityCounts", "__version__",
    "accumulate", "active_isa", "alu_op_to_memory_reduction", "bfp_formats",
    "bfp_assign_mixed", "bfp_device_diff", "bfp_mixed_codes",
    "bfp_pack", "bfp_pack_matrix", "bfp_pack_mixed", "bfp_unpack",
    "bfp_unpack_matrix", "bfp_unpack_mixed", "cast",
    "collective_reduce", "dtype_of", "dtypes", "fidelity", "from_float32",
    "round_trip", "scatter_accumulate", "set_num_threads", "storage_type",
    "to_float32", "tt_fp8_decode", "tt_fp8_encode", "tt_fp8_policies",
    "ulp_distance",
]

_rt = _runtime.Runtime(_runtime.find_library(__file__))
_lib = _rt.lib

__version__: str = _lib.birsim_version().decode()

from ._runtime import BfpFormat, Dtype  # noqa: E402 (the tables' rows)
#: The bir::Dtype table (docs/Semantics.md section 1), by number.
dtypes: Tuple[Dtype, ...] = tuple(_rt.dtypes())
#: The BFP formats (docs/Semantics.md section 5), by number.
bfp_formats: Tuple[BfpFormat, ...] = tuple(_rt.bfp_formats())
_BFP_FORMAT_NAMES = [f.name for f in bfp_formats]
_TABLE = _types.Table(dtypes)
_ROW = _TABLE.by_name
_MEMORY_REDUCTION_OPS = _rt.names("memory_reduction_op")
_ALU_OP_TYPES = _rt.names("alu_op_type")
_FP8_FLAGS = _rt.fp8_config_flags()
_FIDELITY_FIELDS = _rt.fidelity_layout()
_BFP_FLAGS = _rt.bfp_flags()
_BFP_SITES = _rt.names("bfp_site")
#: tt-metal's FP8 E4M3 conversions (docs/Semantics.md section 6), by number.
tt_fp8_policies: Tuple[str, ...] = tuple(_rt.names("tt_fp8_policy"))


def _bfp_flags(**chosen: bool) -> int:
    """The runtime's flag bits of the chosen BFP flags (BfpFlags.def)."""
    return sum(_BFP_FLAGS[name] for name, on in chosen.items() if on)

DtypeLike = Union[str, int, Dtype, np.dtype, type, Any]
#: NumPy arrays, lists, ml_dtypes arrays, CPU torch tensors (through
#: their __array__), bytes.
ArrayLike = Union[npt.ArrayLike, bytes, bytearray, memoryview]


class BirsimError(RuntimeError):
    """An error of the runtime: ``status`` (a BIRSIM_E* code) and
    ``message`` (birsim_last_error())."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def _check(status: int) -> None:
    if status:
        raise BirsimError(status, _rt.error())


def _overlap_error(exact_allowed: bool) -> BirsimError:
    """The runtime's aliasing error (docs/Decisions.md D18), produced by the
    runtime's own check on scratch memory this package owns."""
    scratch = np.zeros(16, np.uint8)
    p = scratch.ctypes.data
    if exact_allowed:  # elementwise calls: a partial overlap
        status = _lib.birsim_accumulate(0, p, p + 1, _ROW["uint8"].number, 2)
    else:  # scatter: any overlap of the destination with a source
        status = _lib.birsim_scatter_accumulate(
            0, p, 8, p, p + 8, 1, _ROW["uint8"].number)
    return BirsimError(status, _rt.error())


def set_num_threads(n: int) -> int:
    """Threads for large calls (0: the default); returns the previous
    setting. Results never depend on it.

    >>> previous = birsim.set_num_threads(2); _ = birsim.set_num_threads(previous)
    """
    n = _whole(n, "set_num_threads: n")
    return _lib.birsim_set_num_threads(n)


def active_isa() -> str:
    """The vector path in use: "portable", "avx2" or "avx512".

    >>> birsim.active_isa() in ("portable", "avx2", "avx512")
    True
    """
    return _lib.birsim_active_isa().decode()


def dtype_of(spec: DtypeLike) -> Dtype:
    """The bir::Dtype row a spec names: its name (``"float8e4"``), number,
    MLIR spelling (``"f8E4M3"``), ml_dtypes / PyTorch name
    (``"float8_e4m3"``), a NumPy dtype or scalar type, an ml_dtypes type or
    a torch dtype. TypeError when it names none.

    >>> birsim.dtype_of("float8_e4m3").name, birsim.dtype_of(np.float16).name
    ('float8e4', 'float16')
    """
    return _TABLE.resolve(spec)


def storage_type(dtype: DtypeLike) -> np.dtype:
    """The NumPy dtype arrays of `dtype` are held in: its own where NumPy has
    it, else its bits in the unsigned integer of its width.

    >>> birsim.storage_type("bfloat16")
    dtype('uint16')
    """
    return _TABLE.storage(_TABLE.resolve(dtype))


def _whole(value: Any, what: str, low: int = 0) -> int:
    """An integer argument (not a bool), at least `low`."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, np.integer)):
        raise TypeError("%s must be an integer, not %r" % (what, value))
    if int(value) < low:
        raise ValueError("%s must be at least %d, got %d"
                         % (what, low, int(value)))
    return int(value)


def _name_number(value: Any, names: Sequence[str], what: str) -> int:
    """An enumeration value by name or number (the runtime's table)."""
    if isinstance(value, str):
        if value not in names:
            raise ValueError("%s: unknown %r: expected one of %s"
                             % (what, value, ", ".join(names)))
        return names.index(value)
    number = _whole(value, what)
    if number >= len(names):
        raise ValueError("%s: no value numbered %d (0..%d)"
                         % (what, number, len(names) - 1))
    return number


def _input(x: ArrayLike, dtype: Optional[DtypeLike], what: str):
    """(storage array, row, caller's kind) for an input; the row from
    `dtype`, else from the array's own type."""
    array, is_row, kind = _arrays.take(_TABLE, x, what)
    if dtype is not None:
        row = _TABLE.resolve(dtype, what + ": dtype")
    elif is_row is None:
        raise TypeError("%s: NumPy type %s has no bir::Dtype; name one with "
                        "dtype= (one of %s)" % (what, array.dtype,
                                                 _TABLE.names()))
    else:
        row = is_row
    return _arrays.as_row(_TABLE, array, is_row, row, what), row, kind, array


def _operand(x: ArrayLike, row: Dtype, what: str):
    """(storage array, caller's array) for a second operand of `row`."""
    array, is_row, _ = _arrays.take(_TABLE, x, what)
    return _arrays.as_row(_TABLE, array, is_row, row, what), array


def _on_copy(d: np.ndarray, call) -> np.ndarray:
    """`call` on a fresh copy of `d`, which it returns: the result for a
    caller without `out`, or for an `out` the runtime cannot write."""
    result = np.array(d, copy=True)
    _check(call(result))
    return result


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


def accumulate(op: Union[str, int], dst: ArrayLike, src: ArrayLike,
               dtype: Optional[DtypeLike] = None, *,
               out: Optional[ArrayLike] = None) -> Any:
    """cast_copy_or_accumulate over arrays: ``dst op src`` elementwise with
    the simulator's numerics (docs/Semantics.md section 3).

    Args: `op` "copy", "add", "min" or "max"; `dst`, `src` arrays of one
    shape and of `dtype` (default: dst's own type); `out` an array of that
    shape and type, which may be `dst` (in place), never partly overlapping
    an operand.
    Returns: a new array in dst's kind, or `out`.
    Raises: TypeError, ValueError (misuse); BirsimError (the simulator
    rejects the op on the dtype, or `out` partly overlaps an operand).

    E4M3 240 + 240 is +Inf on the simulator (its reduce path does not
    saturate):

    >>> birsim.accumulate("add", np.uint8([0x77]), np.uint8([0x77]), "float8e4")
    array([120], dtype=uint8)
    """
    number = _name_number(op, _MEMORY_REDUCTION_OPS, "accumulate: op")
    d, row, kind, caller_dst = _input(dst, dtype, "accumulate: dst")
    s = _operand(src, row, "accumulate: src")
    return _elementwise(_lib.birsim_accumulate, _lib.birsim_accumulate_into,
                        (number,), (row.number,), "accumulate",
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
                       *, out: Optional[ArrayLike] = None) -> Any:
    """``dst.flat[indices[i]] = dst.flat[indices[i]] op src[i]`` in order,
    with the simulator's numerics; every index is checked before anything
    is written.

    Args: `indices` integers, one per element of `src`; `out` may be `dst`
    and must not overlap `src` or `indices`; the rest as in accumulate.
    Raises: IndexError (indices that are not integers), TypeError,
    ValueError; BirsimError (an index outside dst, the op on the dtype,
    an overlapping `out`).

    >>> birsim.scatter_accumulate("add", np.zeros(3, np.float32), np.float32([1, 2]), [2, 2])
    array([0., 0., 3.], dtype=float32)
    """
    number = _name_number(op, _MEMORY_REDUCTION_OPS, "scatter_accumulate: op")
    d, row, kind, caller_dst = _input(dst, dtype, "scatter_accumulate: dst")
    s, caller_src = _operand(src, row, "scatter_accumulate: src")
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
    call = lambda target: _lib.birsim_scatter_accumulate(  # noqa: E731
        number, target.ctypes.data, target.size, s.ctypes.data, idx.ctypes.data,
        idx.size, row.number)
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


def _fp8_config(config: Union[str, int]) -> int:
    if not isinstance(config, str):
        word = _whole(config, "fp8_config")
        if word >> 32:
            raise ValueError("fp8_config: %#x is wider than the 32-bit "
                             "config word" % word)
        return word
    bits = 0
    for flag in filter(None, (f.strip() for f in config.split("|"))):
        if flag == "none":
            continue
        if flag not in _FP8_FLAGS:
            raise ValueError("fp8_config: unknown %r: expected none, %s or a "
                             "combination joined by |"
                             % (config, ", ".join(_FP8_FLAGS)))
        bits |= _FP8_FLAGS[flag]
    return bits


def _result_kind(kind, dtype: DtypeLike, row: Dtype):
    """The kind a cast result takes: the caller's, and the ml_dtypes type
    named as the target where one was."""
    if not kind.torch and not isinstance(dtype, (str, int)):
        try:
            dt = np.dtype(_cast_type(Any, dtype))
        except TypeError:
            return kind
        if dt.kind == "V" and _TABLE.of_numpy(dt) is row:
            return _arrays.Kind(_TABLE, dtype=dt)
    return kind


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
    src, src_row, kind, _ = _input(x, src_dtype, "cast: x")
    dst = _TABLE.resolve(dtype, "cast: dtype")
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
    return cast(bits, "float32", src_dtype=dtype)


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
        x = np.asarray(x).astype(np.float32, copy=False)
    return cast(x, dtype, src_dtype="float32", fp8_config=fp8_config)


def _format(fmt: Union[str, int, BfpFormat]) -> BfpFormat:
    if isinstance(fmt, BfpFormat):
        return bfp_formats[fmt.number]
    return bfp_formats[_name_number(fmt, _BFP_FORMAT_NAMES, "BFP format")]


def _tile(tile: Any) -> Tuple[int, int]:
    """(rows, cols) of a tile: two positive integers."""
    if isinstance(tile, str) or not hasattr(tile, "__len__") or len(tile) != 2:
        raise TypeError("tile must be (rows, cols), two integers, not %r"
                        % (tile,))
    return (_whole(tile[0], "tile rows", 1), _whole(tile[1], "tile cols", 1))


def _page(page: Any) -> int:
    """A DRAM page alignment: 0 (none), 32 (Wormhole) or 64 (Blackhole)."""
    if page not in (0, 32, 64) or isinstance(page, bool):
        raise ValueError("page must be 0, 32 or 64 (the DRAM alignment), "
                         "not %r" % (page,))
    return int(page)


def _page_flags(page: int) -> int:
    return _bfp_flags(page32=page == 32, page64=page == 64)


def _tile_bytes(fmt: BfpFormat, tile: Tuple[int, int], page: int = 0) -> int:
    """The packer's tile stride (its bytes, rounded up to `page`); the
    runtime's error for a shape it rejects."""
    n = _lib.birsim_bfp_page_bytes(fmt.number, tile[0], tile[1], page)
    if n == 0:  # an empty call reports why (BIRSIM_ETILE_SHAPE)
        _check(_lib.birsim_bfp_unpack(fmt.number, None, 0, tile[0], tile[1],
                                      0, None))
    return n


def _site(where: Union[str, int]) -> int:
    """A BFP site's number: "host", "fp32_dest", "fp32_dest_e8m6",
    "bf16_dest", "bf16_dest_e8m6" or "fp16_dest" (BfpSites.def)."""
    return _name_number(where, _BFP_SITES, "where")


def _packed(packed: ArrayLike, what: str):
    array, is_row, kind = _arrays.take(_TABLE, packed, what)
    return _arrays.as_row(_TABLE, array, is_row, _ROW["uint8"], what), kind


def bfp_pack(x: ArrayLike, format: Union[str, int], *,
             tile: Sequence[int] = (32, 32), faces: bool = False,
             src_dtype: Optional[DtypeLike] = None,
             where: Union[str, int] = "host", page: int = 0,
             exp_search: bool = False) -> Any:
    """tt-metal's pack_as_bfp_tiles (docs/Semantics.md section 5): x's
    values, whole tiles of `tile` (rows, cols), row-major inside or
    (`faces`) in face order, packed in `format` ("bfp8_b", "bfp4_b",
    "bfp2_b" or an "a" form, or an MX format: "mxfp8_e5m2", "mxfp8_e4m3",
    "mxfp6_e3m2", "mxfp6_e2m3", "mxfp4", "mxint8", "mxint4", "mxint2", at
    the host, every tile shape but 1x16). Inputs: float32, bfloat16 (a torch tensor,
    or its bits with src_dtype="bfloat16"), int8, uint8, uint16, int32,
    uint32. Returns uint8 of shape (tiles, packed tile bytes). `where` a
    Tensix packer path ("fp32_dest", "fp32_dest_e8m6", "bf16_dest",
    "bf16_dest_e8m6", "fp16_dest") gives the device's bytes from a Dest
    of that path's type (docs/Semantics.md section 5, the device's bytes).

    >>> birsim.bfp_pack(np.ones((32, 32), np.float32), "bfp8_b").shape
    (1, 1088)
    >>> p = birsim.bfp_pack(np.full((32, 32), 1.375, np.float32), "bfp4_b",
    ...                     where="fp32_dest")
    >>> hex(p[0, 64])
    '0x55'
    """
    fmt, shape, page = _format(format), _tile(tile), _page(page)
    array, row, kind, _ = _input(x, src_dtype, "bfp_pack: x")
    tile_bytes, values = _tile_bytes(fmt, shape, page), shape[0] * shape[1]
    if array.size % values:
        raise ValueError("bfp_pack: %d values are not whole %dx%d tiles"
                         % (array.size, shape[0], shape[1]))
    result = np.empty((array.size // values, tile_bytes), np.uint8)
    _check(_lib.birsim_bfp_pack_at(_site(where), fmt.number, row.number,
                                   array.ctypes.data, result.shape[0],
                                   shape[0], shape[1],
                                   _bfp_flags(faces=faces,
                                              exp_search=exp_search)
                                   | _page_flags(page),
                                   result.ctypes.data))
    return kind.give(result, _ROW["uint8"])


def bfp_unpack(packed: ArrayLike, format: Union[str, int],
               tile_count: Optional[int] = None, *,
               tile: Sequence[int] = (32, 32), faces: bool = False,
               where: Union[str, int] = "host", page: int = 0) -> Any:
    """tt-metal's unpack_bfp*_tiles_into_float_vec: `packed` (uint8, or
    bytes) holding exactly `tile_count` tiles (default: as many as it
    holds) to float32 of shape (tile_count, rows, cols); at a device site
    (`where`), as the Tensix unpacker decodes them.

    >>> p = birsim.bfp_pack(np.ones((32, 32), np.float32), "bfp8_b")
    >>> float(birsim.bfp_unpack(p, "bfp8_b").sum())
    1024.0
    """
    fmt, shape, page = _format(format), _tile(tile), _page(page)
    array, kind = _packed(packed, "bfp_unpack: packed")
    tile_bytes = _tile_bytes(fmt, shape, page)
    count = (array.size // tile_bytes if tile_count is None else
             _whole(tile_count, "bfp_unpack: tile_count"))
    if array.size != count * tile_bytes:
        raise ValueError("bfp_unpack: %d bytes are not %d %s tiles of %d"
                         % (array.size, count, fmt.name, tile_bytes))
    result = np.empty((count,) + shape, np.float32)
    _check(_lib.birsim_bfp_unpack_at(_site(where), fmt.number,
                                     array.ctypes.data, count, shape[0],
                                     shape[1],
                                     _bfp_flags(faces=faces) | _page_flags(page),
                                     result.ctypes.data))
    return kind.give(result, _ROW["float32"])


def _matrix(shape: Sequence[int], tile: Tuple[int, int], what: str):
    """(rows, cols, tiles) of a matrix, leading dimensions folded into rows."""
    if len(shape) < 2:
        raise ValueError("%s: a matrix has rank 2 or more, got shape %s"
                         % (what, tuple(shape)))
    dims = [_whole(d, what + ": shape") for d in shape]
    cols = dims[-1]
    rows = int(np.prod(dims[:-1], dtype=np.int64))
    if rows % tile[0] or cols % tile[1]:
        raise ValueError("%s: a %dx%d matrix is not whole %dx%d tiles"
                         % (what, rows, cols, tile[0], tile[1]))
    return rows, cols, (rows // tile[0]) * (cols // tile[1])


def bfp_pack_matrix(m: ArrayLike, format: Union[str, int], *,
                    tile: Sequence[int] = (32, 32), transpose: bool = False,
                    src_dtype: Optional[DtypeLike] = None,
                    where: Union[str, int] = "host", page: int = 0,
                    exp_search: bool = False) -> Any:
    """A row-major matrix (leading dimensions folded into rows) tilized and
    packed in one pass, as ttnn's from_torch(x, bfloat8_b); `transpose`:
    ttnn's transposed tilize. Inputs as bfp_pack. Returns uint8 of shape
    (tiles, packed tile bytes), tiles in row-major tile order.

    >>> birsim.bfp_pack_matrix(np.ones((64, 32), np.float32), "bfp4_b").shape
    (2, 576)
    """
    fmt, shape, page = _format(format), _tile(tile), _page(page)
    array, row, kind, _ = _input(m, src_dtype, "bfp_pack_matrix: m")
    rows, cols, tiles = _matrix(array.shape, shape, "bfp_pack_matrix")
    result = np.empty((tiles, _tile_bytes(fmt, shape, page)), np.uint8)
    _check(_lib.birsim_bfp_pack_matrix_at(
        _site(where), fmt.number, row.number, array.ctypes.data, rows, cols,
        shape[0],
        shape[1],
        _bfp_flags(transpose=transpose, exp_search=exp_search)
        | _page_flags(page), result.ctypes.data))
    return kind.give(result, _ROW["uint8"])


def bfp_unpack_matrix(packed: ArrayLike, format: Union[str, int],
                      shape: Sequence[int], *, tile: Sequence[int] = (32, 32),
                      transpose: bool = False,
                      where: Union[str, int] = "host", page: int = 0) -> Any:
    """The inverse of bfp_pack_matrix: float32 of `shape`.

    >>> p = birsim.bfp_pack_matrix(np.ones((64, 32), np.float32), "bfp4_b")
    >>> birsim.bfp_unpack_matrix(p, "bfp4_b", (64, 32)).shape
    (64, 32)
    """
    fmt, tile_shape, page = _format(format), _tile(tile), _page(page)
    if isinstance(shape, (int, np.integer)) or not hasattr(shape, "__len__"):
        raise TypeError("bfp_unpack_matrix: shape must be a sequence of "
                        "integers, not %r" % (shape,))
    array, kind = _packed(packed, "bfp_unpack_matrix: packed")
    rows, cols, tiles = _matrix(shape, tile_shape, "bfp_unpack_matrix")
    if array.size != tiles * _tile_bytes(fmt, tile_shape, page):
        raise ValueError("bfp_unpack_matrix: %d bytes are not the %d %s tiles "
                         "of a %dx%d matrix" % (array.size, tiles, fmt.name,
                                                 rows, cols))
    result = np.empty(tuple(int(d) for d in shape), np.float32)
    _check(_lib.birsim_bfp_unpack_matrix_at(
        _site(where), fmt.number, array.ctypes.data, rows, cols,
        tile_shape[0], tile_shape[1],
        _bfp_flags(transpose=transpose) | _page_flags(page),
        result.ctypes.data))
    return kind.give(result, _ROW["float32"])


#: The per-tile codes of mixed BFP, by number (the runtime's table).
bfp_mixed_codes: Tuple[str, ...] = tuple(_rt.names("bfp_mixed_code"))
_MIXED_METRICS = {name: n for n, name in
                  enumerate(_rt.names("bfp_mixed_metric"))}


def _mixed_codes(codes: ArrayLike, rows: int, cols: int, what: str):
    """Packed code bytes (2 bits a tile, low bits first) from per-tile codes
    of shape (rows/32, cols/32), values 0-3 or bfp_mixed_codes' names, or
    from the packed bytes themselves (a 1-D uint8 array)."""
    tiles = (rows // 32) * (cols // 32)
    array = np.asarray(codes)
    if array.ndim == 1 and array.dtype == np.uint8:
        if array.size != (tiles + 3) // 4:
            raise ValueError("%s: %d code bytes for %d tiles (4 a byte)"
                             % (what, array.size, tiles))
        return np.ascontiguousarray(array)
    if array.shape != (rows // 32, cols // 32):
        raise ValueError("%s: per-tile codes of shape %s for a %dx%d matrix, "
                         "expected %s" % (what, array.shape, rows, cols,
                                          (rows // 32, cols // 32)))
    if array.dtype.kind in "US":
        bad = set(array.ravel().tolist()) - set(bfp_mixed_codes)
        if bad:
            raise ValueError("%s: unknown codes %s: expected %s"
                             % (what, sorted(bad), bfp_mixed_codes))
        array = np.vectorize(bfp_mixed_codes.index, otypes=[np.int64])(array)
    if array.dtype.kind not in "iu" or ((array < 0) | (array > 3)).any():
        raise ValueError("%s: codes are 0-3 (%s)" % (what, ", ".join(
            "%d %s" % c for c in enumerate(bfp_mixed_codes))))
    flat = np.zeros((tiles + 3) // 4 * 4, np.uint8)
    flat[:tiles] = array.ravel()
    return (flat[0::4] | flat[1::4] << 2 | flat[2::4] << 4
            | flat[3::4] << 6).astype(np.uint8)


def bfp_pack_mixed(m: ArrayLike, codes: ArrayLike, *, transpose: bool = False,
                   src_dtype: Optional[DtypeLike] = None) -> Any:
    """Per-tile mixed BFP (DeepSeek-V3's compressed tensors, docs/Semantics.md
    section 5): a matrix (leading dimensions folded into rows, both multiples
    of 32) in 32x32 tiles, each packed as bfp_pack_matrix packs it in the
    format of its code (`codes`: per-tile codes of shape (rows/32, cols/32),
    0-3 or "bfp8_b", "bfp4_b", "bfp2_b", "bfp0", or the packed code bytes),
    back to back; bfp0 tiles store nothing. Returns a 1-D uint8 array.

    >>> m = np.ones((32, 64), np.float32)
    >>> birsim.bfp_pack_mixed(m, [["bfp4_b", "bfp0"]]).size
    576
    """
    array, row, kind, _ = _input(m, src_dtype, "bfp_pack_mixed: m")
    rows, cols, _ = _matrix(array.shape, (32, 32), "bfp_pack_mixed")
    packed_codes = _mixed_codes(codes, rows, cols, "bfp_pack_mixed")
    result = np.empty(_lib.birsim_bfp_mixed_bytes(packed_codes.ctypes.data,
                                                  rows, cols), np.uint8)
    _check(_lib.birsim_bfp_pack_mixed(
        row.number, array.ctypes.data, rows, cols,
        _bfp_flags(transpose=transpose), packed_codes.ctypes.data,
        result.ctypes.data))
    return kind.give(result, _ROW["uint8"])


def bfp_unpack_mixed(packed: ArrayLike, codes: ArrayLike,
                     shape: Sequence[int], *, transpose: bool = False) -> Any:
    """The inverse of bfp_pack_mixed: float32 of `shape`, +0 in bfp0 tiles.

    >>> m = np.ones((32, 64), np.float32)
    >>> p = birsim.bfp_pack_mixed(m, [[0, 3]])
    >>> float(birsim.bfp_unpack_mixed(p, [[0, 3]], m.shape).sum())
    1024.0
    """
    if isinstance(shape, (int, np.integer)) or not hasattr(shape, "__len__"):
        raise TypeError("bfp_unpack_mixed: shape must be a sequence of "
                        "integers, not %r" % (shape,))
    array, kind = _packed(packed, "bfp_unpack_mixed: packed")
    rows, cols, _ = _matrix(shape, (32, 32), "bfp_unpack_mixed")
    packed_codes = _mixed_codes(codes, rows, cols, "bfp_unpack_mixed")
    want = _lib.birsim_bfp_mixed_bytes(packed_codes.ctypes.data, rows, cols)
    if array.size != want:
        raise ValueError("bfp_unpack_mixed: %d bytes, the codes give %d"
                         % (array.size, want))
    result = np.empty(tuple(int(d) for d in shape), np.float32)
    _check(_lib.birsim_bfp_unpack_mixed(
        array.ctypes.data, rows, cols, _bfp_flags(transpose=transpose),
        packed_codes.ctypes.data, result.ctypes.data))
    return kind.give(result, _ROW["float32"])


def bfp_assign_mixed(m: ArrayLike, metric: str = "pcc", bound: float = 0.999,
                     *, formats: Sequence[str] = ("bfp8_b", "bfp4_b"),
                     zero_bound: float = 0.01, transpose: bool = False,
                     src_dtype: Optional[DtypeLike] = None) -> np.ndarray:
    """DeepSeek's CompressedTensorAssigner, computed exactly: per 32x32
    tile, the cheapest of `formats` (bfp0, bfp2_b, bfp4_b, bfp8_b in that
    order) whose pack and unpack meets `bound` under `metric` ("max_abs",
    "mean_abs": at most; "pcc": Pearson correlation at least), bfp0 judged
    by mean absolute error against `zero_bound`; else the costliest of
    `formats`. Returns the codes, uint8 of shape (rows/32, cols/32), as
    bfp_pack_mixed takes them.

    >>> m = np.zeros((32, 64), np.float32); m[:, :32] = 1.5
    >>> birsim.bfp_assign_mixed(m, formats=("bfp8_b", "bfp0")).tolist()
    [[0, 3]]
    """
    if metric not in _MIXED_METRICS:
        raise ValueError("bfp_assign_mixed: metric must be one of %s, not %r"
                         % (sorted(_MIXED_METRICS), metric))
    if isinstance(formats, str):
        formats = (formats,)
    unknown = [f for f in formats if f not in bfp_mixed_codes]
    if unknown or not formats:
        raise ValueError("bfp_assign_mixed: formats are some of %s, not %r"
                         % (bfp_mixed_codes, tuple(formats)))
    mask = sum(1 << bfp_mixed_codes.index(f) for f in set(formats))
    array, row, _, _ = _input(m, src_dtype, "bfp_assign_mixed: m")
    rows, cols, tiles = _matrix(array.shape, (32, 32), "bfp_assign_mixed")
    packed_codes = np.zeros((tiles + 3) // 4, np.uint8)
    _check(_lib.birsim_bfp_assign_mixed(
        _MIXED_METRICS[metric], float(bound), float(zero_bound), mask,
        row.number, array.ctypes.data, rows, cols,
        _bfp_flags(transpose=transpose), packed_codes.ctypes.data))
    each = np.stack([(packed_codes >> s) & 3 for s in (0, 2, 4, 6)], axis=1)
    return each.ravel()[:tiles].reshape(rows // 32, cols // 32).astype(np.uint8)


def _is_bfp(name: Any) -> TypeGuard[Union[str, BfpFormat]]:
    return isinstance(name, BfpFormat) or (isinstance(name, str) and
                                           name in _BFP_FORMAT_NAMES)


def _bfp_pack_as(x, fmt, tile, faces, matrix, transpose, src_dtype=None,
                 where="host"):
    """bfp_pack, or with `matrix` or `transpose` bfp_pack_matrix."""
    if matrix or transpose:
        return bfp_pack_matrix(x, fmt, tile=tile, transpose=transpose,
                               src_dtype=src_dtype, where=where)
    return bfp_pack(x, fmt, tile=tile, faces=faces, src_dtype=src_dtype,
                    where=where)


def _bfp_unpack_as(packed, fmt, shape, tile, faces, matrix, transpose,
                   where="host"):
    """The inverse of _bfp_pack_as: float32 values of `shape`."""
    if matrix or transpose:
        return bfp_unpack_matrix(packed, fmt, shape, tile=tile,
                                 transpose=transpose, where=where)
    return bfp_unpack(packed, fmt, tile=tile, faces=faces,
                      where=where).reshape(shape)


def bfp_device_diff(x: ArrayLike, format: Union[str, int],
                    where: Union[str, int], *, tile: Sequence[int] = (32, 32),
                    faces: bool = False,
                    src_dtype: Optional[DtypeLike] = None) -> Tuple[Any, int]:
    """Which of x's elements the Tensix packer at `where` gives another
    value than tt-metal's host packer (each side decoded by its own
    unpacker; NaN against NaN equal): (a boolean array of x's shape, their
    count). x holds whole tiles of the Dest's type, as bfp_pack takes them.

    >>> x = np.full((32, 32), 1.375, np.float32)
    >>> mask, count = birsim.bfp_device_diff(x, "bfp4_b", "fp32_dest")
    >>> count, bool(mask[0, 0])
    (1024, True)
    """
    fmt, shape = _format(format), _tile(tile)
    array, row, kind, _ = _input(x, src_dtype, "bfp_device_diff: x")
    values = shape[0] * shape[1]
    if array.size % values:
        raise ValueError("bfp_device_diff: %d values are not whole %dx%d "
                         "tiles" % (array.size, shape[0], shape[1]))
    mask = np.zeros(array.shape, np.uint8)
    count = ctypes.c_uint64()
    _check(_lib.birsim_bfp_device_diff(
        _site(where), fmt.number, row.number, array.ctypes.data,
        array.size // values, shape[0], shape[1], _bfp_flags(faces=faces),
        mask.ctypes.data, ctypes.byref(count)))
    return kind.give(mask.view(np.bool_), _ROW["uint8"]), count.value


def round_trip(x: ArrayLike, to: Union[str, int, DtypeLike], *,
               fp8_config: Union[str, int] = "saturate",
               src_dtype: Optional[DtypeLike] = None,
               tile: Sequence[int] = (32, 32), faces: bool = False,
               matrix: bool = False, transpose: bool = False,
               where: Union[str, int] = "host") -> Any:
    """float32 values of x as the simulator holds them after a cast to `to`
    (a dtype) and back, or as tt-metal's host holds them after a BFP pack
    in `to` (a BFP format name) and unpack, with bfp_pack's `tile` and
    `faces` or (`matrix`, `transpose`) bfp_pack_matrix's tilize; `where` a
    device site, as the Tensix packer and unpacker hold them. The one call
    a golden function needs; x's shape and kind.

    >>> birsim.round_trip(np.float32([1.0, 0.1, 1000.0]), "float8_e4m3").tolist()
    [1.0, 0.1015625, 240.0]
    """
    if _is_bfp(to):
        shape = tuple(x.shape) if hasattr(x, "shape") else np.shape(x)
        return _bfp_unpack_as(
            _bfp_pack_as(x, to, tile, faces, matrix, transpose, src_dtype,
                         where),
            to, shape, tile, faces, matrix, transpose, where)
    if _site(where) != _site("host"):
        raise ValueError("round_trip: where=%r applies to the BFP formats, "
                         "not to dtype %r" % (where, to))
    return to_float32(cast(x, to, src_dtype=src_dtype, fp8_config=fp8_config),
                      to)


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


def _float_ordinals(values: np.ndarray, row: Dtype, what: str) -> np.ndarray:
    """Each float32 value's place among `row`'s values (-0 and +0 share 0);
    ValueError for a value that is not one of them."""
    stored = cast(values, row, fp8_config="none")
    back = to_float32(stored, row)
    nan = np.isnan(values)
    wrong = ~nan & (back.view(np.uint32) != values.view(np.uint32))
    if wrong.any():
        i = np.flatnonzero(wrong)[0]
        raise ValueError("ulp_distance: %s[%d] = %r is not a %s value; "
                         "round_trip it first" % (what, i,
                                                  float(values.flat[i]),
                                                  row.name))
    width = 8 * row.bytes
    wide = stored.view("u%d" % row.bytes).astype(np.int64)
    if row.exponent_bits + row.mantissa_bits < width:  # a sign bit
        magnitude = wide & ((1 << (width - 1)) - 1)
        return np.where(wide >> (width - 1) != 0, -magnitude, magnitude)
    return wide


def _bfp_ulps(a: np.ndarray, fmt: BfpFormat, tile, faces, matrix, transpose):
    """Each element's ULP under its block's shared exponent in a's host
    packing: the runtime unpacks a's exponents with every datum's magnitude
    at its hidden bit, 2^(E - bias), and the ULP is that / 2^(M-1)."""
    shape = _tile(tile)
    packed = _bfp_pack_as(a, fmt, shape, faces, matrix, transpose)
    datum_bytes = shape[0] * shape[1] * fmt.datum_bits // 8
    datum = 1 << (fmt.mantissa_bits - 1)
    byte = 0
    for slot in range(8 // fmt.datum_bits):
        byte |= datum << (slot * fmt.datum_bits)
    probe = np.array(packed, copy=True)
    probe[:, probe.shape[1] - datum_bytes:] = byte
    scale = _bfp_unpack_as(probe, fmt, a.shape, shape, faces, matrix,
                           transpose)
    bias = _ROW["float32" if fmt.exponent == "fp32" else "float16"].bias
    smallest = 2.0 ** (-bias)  # a zero exponent byte, which decodes to 0
    scale = np.where(scale == 0, smallest, scale.astype(np.float64))
    return scale / 2.0 ** (fmt.mantissa_bits - 1)


def ulp_distance(a: ArrayLike, b: ArrayLike,
                 dtype: Union[str, int, DtypeLike], *,
                 src_dtype: Optional[DtypeLike] = None,
                 tile: Sequence[int] = (32, 32), faces: bool = False,
                 matrix: bool = False, transpose: bool = False) -> np.ndarray:
    """Elementwise distance between `a` and `b` in units in the last place
    of `dtype` (docs/Decisions.md D35).

    For a float dtype, `a` and `b` must be values of it (float32 arrays, or
    arrays of the dtype itself, or its bits named by `src_dtype`): the
    result is the int64 count of `dtype` values between them (-0 and +0
    are one value, Inf is one past the largest finite, two NaNs are 0
    apart; a NaN against a number is a ValueError). For a BFP format, the
    ULP of each element is that of its block's shared exponent when `a` is
    packed by the host (with bfp_pack's or bfp_pack_matrix's options), and
    the result is float64 |a - b| / ULP, one rounding. The MX formats are
    a ValueError.

    >>> birsim.ulp_distance(np.float32([1.0, -0.0]), np.float32([1.0078125, 0.0]), "bfloat16")
    array([1, 0])
    """
    fmt = _format(dtype) if _is_bfp(dtype) else None
    if fmt is not None and fmt.exponent == "e8m0":
        raise ValueError("ulp_distance: %s is an MX format, whose elements "
                         "have ULPs of their own exponents, not one per block"
                         % fmt.name)
    if fmt is None:
        row = _TABLE.resolve(dtype, "ulp_distance: dtype")
        if row.kind not in ("float", "float32"):
            raise ValueError("ulp_distance: %s is not a float dtype"
                             % row.name)
    a32 = _float32(a, src_dtype, "ulp_distance: a")
    b32 = _float32(b, src_dtype, "ulp_distance: b")
    if a32.shape != b32.shape:
        raise ValueError("ulp_distance: shapes %s and %s differ"
                         % (a32.shape, b32.shape))
    if fmt is not None:
        ulps = _bfp_ulps(a32, fmt, tile, faces, matrix, transpose)
        return np.abs(a32.astype(np.float64) / ulps -
                      b32.astype(np.float64) / ulps)
    nan_a, nan_b = np.isnan(a32), np.isnan(b32)
    if (nan_a != nan_b).any():
        i = np.flatnonzero(nan_a != nan_b)[0]
        raise ValueError("ulp_distance: element %d is a NaN against a number"
                         % i)
    ordinals_a = _float_ordinals(a32, row, "a")
    ordinals_b = _float_ordinals(b32, row, "b")
    return np.where(nan_a, 0, np.abs(ordinals_a - ordinals_b))


def _counter_values() -> Dict[str, Dict[str, int]]:
    raw = (ctypes.c_uint64 * len(_FIDELITY_FIELDS))()
    _check(_lib.birsim_fidelity_counters_sized(raw, ctypes.sizeof(raw)))
    values: Dict[str, Dict[str, int]] = {}
    for (family, key), v in zip(_FIDELITY_FIELDS, raw):
        values.setdefault(family, {})[key] = int(v)
    return values


class FidelityCounts:
    """The run-time counters since the context's entry (docs/Fidelity.md):
    ``counts[family][key]``, ``elements`` included."""

    def __init__(self) -> None:
        self._start = _counter_values()
        self._end: Optional[Dict[str, Dict[str, int]]] = None

    @property
    def counts(self) -> Dict[str, Dict[str, int]]:
        now = self._end if self._end is not None else _counter_values()
        return {f: {k: now[f][k] - self._start[f][k] for k in keys}
                for f, keys in now.items()}

    def __getitem__(self, family: str) -> Dict[str, int]:
        return self.counts[family]


@contextlib.contextmanager
def fidelity(*, where: Union[str, int] = "fp32_dest"
             ) -> Iterator[FidelityCounts]:
    """Counts what the simulator's numerics do to values inside the block:
    enables the run-time counters, yields a FidelityCounts whose counts are
    the difference since entry (nested contexts work), and restores the
    previous enable state. The counters are process-wide: calls from other
    threads inside the block count too.

    `where` is the device site bfp_pack's device_differs compares host
    packs with ("fp32_dest", "fp32_dest_e8m6", "bf16_dest",
    "bf16_dest_e8m6"; docs/Fidelity.md), restored on exit.

    >>> with birsim.fidelity() as f:
    ...     _ = birsim.cast(np.float32([1000.0]), "float8e4")
    >>> f["cast"]["saturated"]
    1
    """
    site = _site(where)
    previous_site = _lib.birsim_fidelity_device_site()
    if _lib.birsim_fidelity_set_device_site(site):
        raise ValueError("fidelity: where=%r: %s" % (where, _rt.error()))
    previous = _lib.birsim_fidelity_enabled()
    _lib.birsim_fidelity_enable(1)
    counts = FidelityCounts()
    try:
        yield counts
    finally:
        counts._end = _counter_values()
        _lib.birsim_fidelity_enable(previous)
        _lib.birsim_fidelity_set_device_site(previous_site)
