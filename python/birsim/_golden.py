"""What a golden function needs: values as the device holds them
(round_trip) and distances in a format's own steps (ulp_distance)."""
from typing import (Any, Optional, Sequence, Union)

import numpy as np

from ._core import (ArrayLike, BfpFormat, Dtype, DtypeLike, _ROW, _TABLE,
                    _flag)
from ._casts import (_cast, _float32, cast, to_float32)
from ._bfp import (_bfp_pack_as, _bfp_unpack_as, _format, _is_bfp, _site,
                   _tile)


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
    matrix = _flag(matrix, "round_trip: matrix")
    if _is_bfp(to):
        shape = tuple(x.shape) if hasattr(x, "shape") else np.shape(x)
        return _bfp_unpack_as(
            _bfp_pack_as(x, to, tile, faces, matrix, transpose, src_dtype,
                         where),
            to, shape, tile, faces, matrix, transpose, where)
    if _site(where) != _site("host"):
        raise ValueError("round_trip: where=%r applies to the BFP formats, "
                         "not to dtype %r" % (where, to))
    return to_float32(_cast(("round_trip", "x", "to"), x, to, src_dtype,
                             fp8_config), to)


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
    matrix = _flag(matrix, "ulp_distance: matrix")
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
