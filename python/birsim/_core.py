"""The runtime, its tables and what every call shares: element types,
the checks of arguments and the runtime's errors (docs/Python.md)."""
from typing import (Any, Optional, Sequence, Tuple, Union, cast as _cast_type)

import numpy as np
import numpy.typing as npt

from . import _arrays, _runtime, _types


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


def _flag(value: Any, what: str) -> bool:
    """A boolean argument: True or False (NumPy's too), or 1 or 0; nothing
    else is taken for one (a string or an array would always be true)."""
    if isinstance(value, (bool, np.bool_)) or (
            isinstance(value, (int, np.integer)) and value in (0, 1)):
        return bool(value)
    raise TypeError("%s must be True or False, not %r" % (what, value))


def _bfp_flags(**chosen: bool) -> int:
    """The runtime's flag bits of the chosen BFP flags (BfpFlags.def)."""
    return sum(_BFP_FLAGS[name] for name, on in chosen.items()
               if _flag(on, name))

#: A bir::Dtype by name, number or row, a NumPy or ml_dtypes dtype or
#: scalar type, or (not typed here: torch is optional) a torch dtype.
DtypeLike = Union[int, Dtype, npt.DTypeLike]
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
    """The runtime's aliasing error (docs/Decisions.md D18) for an overlap
    the package found: the elementwise rule's (`exact_allowed`) or the
    scatter's."""
    return BirsimError(_lib.birsim_overlap_error(int(exact_allowed)),
                       _rt.error())


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
    return _TABLE.resolve(spec, "dtype_of: spec")


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


def _real(value: Any, what: str) -> float:
    """A real-number argument (not a bool) as a float."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        raise TypeError("%s must be a number, not %r" % (what, value))
    return float(value)


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
        if _TABLE.of_extension(dt) is row:
            return _arrays.Kind(_TABLE, dtype=dt)
    return kind
