"""BFP and MX tiles: tt-metal's host packer and unpacker, the Tensix
packer's and unpacker's sites, per-tile mixed BFP and the device diff
(docs/Semantics.md section 5)."""
import ctypes
from typing import (Any, Optional, Sequence, Tuple, TypeGuard, Union)

import numpy as np

from . import _arrays
from ._core import (ArrayLike, BfpFormat, DtypeLike, _BFP_FORMAT_NAMES,
                    _BFP_SITES, _ROW, _TABLE, _bfp_flags, _check, _input, _lib,
                    _name_number, _real, _rt, _whole, bfp_formats)


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


#: The DRAM page alignments (bytes) the runtime's page flags select.
_PAGE_FLAGS = _rt.bfp_page_flags()


def _page(page: Any) -> int:
    """A DRAM page alignment: 0 (none) or one a page flag selects (32 for
    Wormhole, 64 for Blackhole)."""
    rule = "0 or %s (the DRAM alignment)" % " or ".join(
        map(str, sorted(_PAGE_FLAGS)))
    if isinstance(page, (bool, np.bool_)) or not isinstance(
            page, (int, np.integer)):
        raise TypeError("page must be %s, not %r" % (rule, page))
    if page != 0 and int(page) not in _PAGE_FLAGS:
        raise ValueError("page must be %s, not %r" % (rule, page))
    return int(page)


def _page_flags(page: int) -> int:
    return _PAGE_FLAGS.get(page, 0)


def _tile_bytes(fmt: BfpFormat, tile: Tuple[int, int], page: int = 0) -> int:
    """The packer's tile stride (its bytes, rounded up to `page`); the
    runtime's error (BirsimError) for a shape it rejects."""
    n = ctypes.c_size_t()
    _check(_lib.birsim_bfp_page_bytes_checked(fmt.number, tile[0], tile[1],
                                              page, ctypes.byref(n)))
    return n.value


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
    """The packed code bytes the runtime takes, from per-tile codes of shape
    (rows/32, cols/32), numbers or bfp_mixed_codes' names (packed by the
    runtime, which checks each), or from the packed bytes themselves (a 1-D
    uint8 array)."""
    tiles = (rows // 32) * (cols // 32)
    array = np.asarray(codes)
    if array.ndim == 1 and array.dtype == np.uint8:
        if array.size != _lib.birsim_bfp_mixed_code_bytes(tiles):
            raise ValueError("%s: %d code bytes for %d tiles (%d)"
                             % (what, array.size, tiles,
                                _lib.birsim_bfp_mixed_code_bytes(tiles)))
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
    if array.dtype.kind not in "iu" or ((array < 0) |
                                        (array >= len(bfp_mixed_codes))).any():
        raise ValueError("%s: codes are 0-%d (%s)" % (
            what, len(bfp_mixed_codes) - 1,
            ", ".join("%d %s" % c for c in enumerate(bfp_mixed_codes))))
    each = np.ascontiguousarray(array, dtype=np.uint8).ravel()
    packed = np.empty(_lib.birsim_bfp_mixed_code_bytes(tiles), np.uint8)
    _check(_lib.birsim_bfp_mixed_pack_codes(each.ctypes.data, tiles,
                                            packed.ctypes.data))
    return packed


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
    if not isinstance(metric, str) or metric not in _MIXED_METRICS:
        raise ValueError("bfp_assign_mixed: metric must be one of %s, not %r"
                         % (sorted(_MIXED_METRICS), metric))
    bound = _real(bound, "bfp_assign_mixed: bound")
    zero_bound = _real(zero_bound, "bfp_assign_mixed: zero_bound")
    if isinstance(formats, str):
        formats = (formats,)
    if not hasattr(formats, "__iter__"):
        raise TypeError("bfp_assign_mixed: formats must be format names "
                        "(some of %s), not %r" % (bfp_mixed_codes, formats))
    formats = tuple(formats)
    unknown = [f for f in formats
               if not isinstance(f, str) or f not in bfp_mixed_codes]
    if unknown or not formats:
        raise ValueError("bfp_assign_mixed: formats are some of %s, not %r"
                         % (bfp_mixed_codes, tuple(formats)))
    mask = sum(1 << bfp_mixed_codes.index(f) for f in set(formats))
    array, row, _, _ = _input(m, src_dtype, "bfp_assign_mixed: m")
    rows, cols, tiles = _matrix(array.shape, (32, 32), "bfp_assign_mixed")
    packed_codes = np.zeros(_lib.birsim_bfp_mixed_code_bytes(tiles), np.uint8)
    _check(_lib.birsim_bfp_assign_mixed(
        _MIXED_METRICS[metric], bound, zero_bound, mask,
        row.number, array.ctypes.data, rows, cols,
        _bfp_flags(transpose=transpose), packed_codes.ctypes.data))
    each = np.empty((rows // 32, cols // 32), np.uint8)
    _check(_lib.birsim_bfp_mixed_unpack_codes(packed_codes.ctypes.data, tiles,
                                              each.ctypes.data))
    return each


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
