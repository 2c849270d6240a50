"""The DMA engine's arithmetic across dtypes (docs/Semantics.md section 8)
in the call shapes NKI kernel tests use: neuron_dtypes' static_cast,
nrtpy's tensor_cast and tensor_compute, nki.isa.dma_compute, a validator of
nki-library's CustomValidator shape and an allreduce body for a
SimDistRunner-style emulation. No Neuron package is imported."""
import ctypes
from typing import (Any, List, Optional, Sequence, Union)

import numpy as np

from . import _arrays, _types
from ._casts import (_accumulate, _cast, _narrowing, accumulate, cast,
                     collective_reduce, scatter_accumulate)
from ._core import (ArrayLike, BirsimError, Dtype, DtypeLike,
                    _MEMORY_REDUCTION_OPS, _TABLE, _check, _flag, _fp8_config,
                    _input, _lib, _name_number,
                    _overlap_error, _whole)

def nki_dtype_name(dtype: DtypeLike) -> Optional[str]:
    """NKI's name of a dtype the DMA computes on, else None.

    >>> birsim.nki_dtype_name("float8e4")
    'float8_e4m3'
    """
    name = _lib.birsim_nki_dtype_name(_TABLE.resolve(dtype).number)
    return name.decode() if name else None


def static_cast(array: ArrayLike, dtype: DtypeLike, *,
                fp8_config: Union[str, int] = "saturate") -> Any:
    """``neuron_dtypes.static_cast(array, dtype)``'s call: `array` cast to
    `dtype` by the cast engine, through float32 as the DMA converts
    (docs/Semantics.md sections 4 and 8), with the FP8 config named.
    Returns the array in `dtype` where NumPy, ml_dtypes or torch has it
    (an ml_dtypes dtype or a torch tensor in, the same out), else its bits.

    An int32 above 2^24 into bfloat16 rounds twice, as the device's does:

    >>> birsim.static_cast(np.int32([16842753]), "bfloat16")
    array([19328], dtype=uint16)
    """
    return _cast(("static_cast", "array", "dtype"), array, dtype, None,
                 fp8_config)


def psum_accumulate(psum: ArrayLike, matmul: ArrayLike, *,
                    rounding: Union[str, int] = "nearest_even", seed: int = 0,
                    out: Optional[ArrayLike] = None) -> Any:
    """Trainium3's bf16 PSUM accumulation (docs/Semantics.md section 8):
    the bfloat16 `psum` widened, the float32 matmul result `matmul` added in
    float32, the sum rounded into bfloat16, to nearest even or
    stochastically from `seed`. ``accumulate("add", psum, matmul,
    "bfloat16", src_dtype="float32")``; `out` as there (``out=psum``: in
    place, as the device writes).

    >>> birsim.psum_accumulate(np.uint16([0x3F80, 0x3F80]), np.float32([2**-8, 3 * 2**-9]))
    array([16256, 16257], dtype=uint16)
    """
    return _accumulate(("psum_accumulate", "psum", "matmul"), "add", psum,
                       matmul, "bfloat16", out, "float32", None, rounding,
                       seed)


def _destination(dst: ArrayLike, dtype: Optional[DtypeLike], what: str):
    """(flat writable storage view of dst, its row): `dst`'s own type
    names the row, or `dtype` where dst holds bits."""
    array, is_row, _ = _arrays.take(_TABLE, dst, what)
    row = _TABLE.resolve(dtype, what + ": dtype") if dtype is not None \
        else is_row
    if row is None:
        raise TypeError("%s: NumPy type %s has no bir::Dtype; name one with "
                        "dst_dtype=" % (what, array.dtype))
    view = _arrays.take_out(_TABLE, dst, row, array.shape, what)
    if not view.flags.c_contiguous:
        raise ValueError("%s: dst must be C-contiguous, as birsim writes "
                         "into it" % what)
    return view.reshape(-1), row


def _count(n: Optional[int], sizes: Sequence[int], what: str) -> int:
    if n is None:
        if len(set(sizes)) != 1:
            raise ValueError("%s: sizes %s differ; pass n" % (what, list(sizes)))
        return sizes[0]
    count = _whole(n, what + ": n")
    if count > min(sizes):
        raise ValueError("%s: n = %d exceeds a tensor of %d elements"
                         % (what, count, min(sizes)))
    return count


def _list_of(items: Any, what: str, rule: str) -> List[Any]:
    """`items` as a list: a list, tuple or other iterable of them, never
    one array (whose rows would be taken as the items) or one string."""
    if (isinstance(items, (np.ndarray, bytes, bytearray, memoryview, str))
            or _types.is_tensor(items) or not hasattr(items, "__iter__")):
        raise TypeError("%s must be %s, not %s"
                        % (what, rule, type(items).__name__))
    return list(items)


def _sources(srcs: Sequence[ArrayLike], dtypes, what: str):
    srcs = _list_of(srcs, what + ": srcs", "a list of 1 to 16 tensors")
    if not srcs:
        raise ValueError("%s: srcs is empty; the DMA combines 1 to 16 "
                         "sources" % what)
    if dtypes is None:
        dtypes = [None] * len(srcs)
    dtypes = _list_of(dtypes, what + ": src_dtypes",
                      "a list of dtypes (or None), one per source")
    if len(dtypes) != len(srcs):
        raise ValueError("%s: %d src_dtypes for %d sources"
                         % (what, len(dtypes), len(srcs)))
    taken = [_input(s, d, "%s: srcs[%d]" % (what, i))
             for i, (s, d) in enumerate(zip(srcs, dtypes))]
    return [(t[0].reshape(-1), t[1], t[3]) for t in taken]


def tensor_compute(op: Union[str, int], srcs: Sequence[ArrayLike],
                   dst: ArrayLike, n: Optional[int] = None, *,
                   src_dtypes: Optional[Sequence[Optional[DtypeLike]]] = None,
                   dst_dtype: Optional[DtypeLike] = None,
                   fp8_config: Union[str, int] = "saturate",
                   rounding: Union[str, int] = "nearest_even",
                   seed: int = 0) -> Any:
    """``nrtpy.tensor_compute(op, srcs, dst, n)``'s call: the first `n`
    elements (default: all) of 1 to 16 sources, each widened to float32,
    combined in order by `op` ("add", "min" or "max", any case) with the
    fp32 core, narrowed into `dst`'s dtype and written into `dst`
    (docs/Semantics.md section 8). Sources and `dst` are NumPy, ml_dtypes
    or CPU torch arrays of any DMA dtype; `dst` may be a source. Returns
    `dst`.

    >>> acc = np.zeros(2, np.float16)
    >>> birsim.tensor_compute("ADD", [np.float32([1, 2]), np.int32([3, 4])], acc)
    array([4., 6.], dtype=float16)
    """
    number = _name_number(op.lower() if isinstance(op, str) else op,
                          _MEMORY_REDUCTION_OPS, "tensor_compute: op")
    taken = _sources(srcs, src_dtypes, "tensor_compute")
    out, row = _destination(dst, dst_dtype, "tensor_compute: dst")
    count = _count(n, [t[0].size for t in taken], "tensor_compute")
    if count > out.size:
        raise ValueError("tensor_compute: %d elements do not fit dst's %d"
                         % (count, out.size))
    config, mode, word = _narrowing(fp8_config, rounding, seed)
    pointers = (ctypes.c_void_p * max(1, len(taken)))(
        *[t[0].ctypes.data for t in taken])
    numbers = (ctypes.c_int * max(1, len(taken)))(*[t[1].number for t in taken])
    for array, _, caller in taken:
        if np.shares_memory(out, caller) and not (
                out.ctypes.data == array.ctypes.data and
                array.dtype.itemsize == out.dtype.itemsize):
            raise _overlap_error(True)
    _check(_lib.birsim_dma_compute(number, pointers, numbers, len(taken),
                                   out.ctypes.data, row.number, count, config,
                                   mode, word))
    return dst


def tensor_cast(src: ArrayLike, dst: ArrayLike, n: Optional[int] = None, *,
                src_dtype: Optional[DtypeLike] = None,
                dst_dtype: Optional[DtypeLike] = None,
                fp8_config: Union[str, int] = "saturate") -> Any:
    """``nrtpy.tensor_cast(src, dst, n)``'s call: the first `n` elements of
    `src` (default: all, as many as `dst` has) converted by the cast engine
    into `dst`'s dtype and written into `dst`, as the DMA converts
    (docs/Semantics.md sections 4 and 8). Returns `dst`.

    >>> out = np.zeros(2, np.float16)
    >>> birsim.tensor_cast(np.float32([1.0, 70000.0]), out)
    array([ 1., inf], dtype=float16)
    """
    s, srow, _, caller = _input(src, src_dtype, "tensor_cast: src")
    out, row = _destination(dst, dst_dtype, "tensor_cast: dst")
    count = _count(n, [s.size, out.size], "tensor_cast")
    if np.shares_memory(out, caller):
        raise _overlap_error(False)
    _check(_lib.birsim_cast(srow.number, s.ctypes.data, row.number,
                            out.ctypes.data, count, _fp8_config(fp8_config)))
    return dst


def _reduce_op_name(reduce_op: Any) -> str:
    """The name of a reduce op: a str, or a function's (np.add, nl.add)."""
    if isinstance(reduce_op, str):
        return reduce_op
    name = getattr(reduce_op, "__name__", None)
    if not callable(reduce_op) or not isinstance(name, str):
        raise TypeError("dma_compute: reduce_op must be add (the name, or "
                        "a function named add such as np.add), not %r"
                        % (reduce_op,))
    return name


def _vector_offset_scatter(dst: ArrayLike, srcs: List[Any], indices: Any,
                           unique_indices: bool, src_dtypes: Any,
                           dst_dtype: Optional[DtypeLike],
                           **narrowing: Any) -> Any:
    """dma_compute's scatter read-modify-write (aws-neuron-sdk @539a73c5):
    ``dst[indices[i], ...] = dst[indices[i], ...] + data[i, ...]``, the
    indices on dst's first axis (indirect_dim=0), by scatter_accumulate."""
    what = "dma_compute"
    if len(srcs) != 2 or not any(s is dst for s in srcs):
        raise ValueError("%s: with vector_offset, srcs must be [dst, data] "
                         "(exactly 2 sources, one of them dst itself: the "
                         "scatter read-modify-write)" % what)
    position = 0 if srcs[0] is not dst else 1
    data = srcs[position]
    data_dtype = None
    if src_dtypes is not None:
        data_dtype = _list_of(src_dtypes, what + ": src_dtypes",
                              "a list of dtypes (or None), one per source")
        if len(data_dtype) != 2:
            raise ValueError("%s: %d src_dtypes for 2 sources"
                             % (what, len(data_dtype)))
        data_dtype = data_dtype[position]
    taken, _, _ = _arrays.take(_TABLE, dst, what + ": dst")
    if taken.ndim == 0:
        raise ValueError("%s: vector_offset indexes dst's first axis; dst "
                         "is 0-d" % what)
    index_array, _, _ = _arrays.take(_TABLE, indices,
                                     what + ": vector_offset")
    if index_array.dtype.kind not in "iu":
        raise IndexError("%s: vector_offset must hold integers, not %s"
                         % (what, index_array.dtype))
    given = index_array.reshape(-1)
    outside = (given < 0) | (given >= taken.shape[0])
    if outside.any():
        raise IndexError("%s: vector_offset index %d is outside dst's %d "
                         "rows" % (what, given[np.flatnonzero(outside)[0]],
                                   taken.shape[0]))
    rows = given.astype(np.int64)
    if unique_indices:
        values, counts = np.unique(rows, return_counts=True)
        if (counts > 1).any():
            repeated = int(values[np.flatnonzero(counts > 1)[0]])
            at = np.flatnonzero(rows == repeated)[:2].tolist()
            raise ValueError("%s: vector_offset repeats index %d (at %s) "
                             "with unique_indices=True, which promises "
                             "unique indices (the only case NKI's "
                             "dma_compute supports); pass "
                             "unique_indices=False for birsim's in-order "
                             "rule (docs/Decisions.md D56)"
                             % (what, repeated, at))
    row_size = int(np.prod(taken.shape[1:], dtype=np.int64))
    flat = (rows[:, None] * row_size +
            np.arange(row_size, dtype=np.int64)).reshape(-1)
    data_array, data_row, _, _ = _input(data, data_dtype, what + ": data")
    if data_array.size != flat.size:
        raise ValueError("%s: data has %d elements, vector_offset's %d rows "
                         "of dst take %d" % (what, data_array.size,
                                              rows.size, flat.size))
    scatter_accumulate("add", dst, data_array.reshape(-1), flat, dst_dtype,
                       out=dst, src_dtype=data_row, **narrowing)
    return dst


def dma_compute(dst: ArrayLike, srcs: Sequence[ArrayLike],
                reduce_op: Any = "add", scales: Any = None, *,
                unique_indices: bool = True, vector_offset: Any = None,
                **narrowing: Any) -> Any:
    """``nki.isa.dma_compute(dst, srcs, reduce_op, scales=None,
    unique_indices=True)``'s call (aws-neuron-sdk @539a73c5 on): ``dst =
    srcs[0] + srcs[1] + ...`` through float32 (docs/Semantics.md section
    8). As the document says, `reduce_op` must be add (the name, or a
    function named add such as ``np.add``) and every scale 1.0; the other
    keywords are tensor_compute's. Returns `dst`.

    `vector_offset` (integer indices on dst's first axis, NKI's
    ``dst.ap(vector_offset=idx, indirect_dim=0)``) makes it the scatter
    read-modify-write ``dst[idx[i], ...] += data[i, ...]`` with ``srcs =
    [dst, data]``; `unique_indices` True (NKI's only supported case)
    refuses a repeated index, False applies them in order, each write
    rounding (D56). The older call ``dma_compute(dst, srcs, scales,
    reduce_op)`` (@3cd78520, a list of scales third) is taken too.

    >>> psum = np.zeros(1, np.float32)
    >>> birsim.dma_compute(psum, [np.float16([0.5]), np.float32([0.25])], np.add)
    array([0.75], dtype=float32)
    >>> table = np.zeros((3, 2), np.float32)
    >>> birsim.dma_compute(table, [table, np.float32([[1, 2], [3, 4]])], np.add,
    ...                    vector_offset=[2, 0]).tolist()
    [[3.0, 4.0], [0.0, 0.0], [1.0, 2.0]]
    """
    if reduce_op is None or isinstance(reduce_op, (list, tuple, np.ndarray)):
        # The older order (@3cd78520): scales, then reduce_op.
        reduce_op, scales = ("add" if scales is None else scales), reduce_op
    name = _reduce_op_name(reduce_op)
    if name != "add":
        raise ValueError("dma_compute: reduce_op must be add, not %s" % name)
    srcs = _list_of(srcs, "dma_compute: srcs", "a list of 1 to 16 tensors")
    if scales is not None:
        scales = _list_of(scales, "dma_compute: scales",
                          "a list of 1.0s, one per source")
        for s in scales:
            if isinstance(s, (bool, np.bool_)) or not isinstance(
                    s, (int, float, np.integer, np.floating)):
                raise TypeError("dma_compute: scales must be numbers (every "
                                "one 1.0), not %r" % (s,))
        if any(float(s) != 1.0 for s in scales):
            raise ValueError("dma_compute: every scale must be 1.0, not %s"
                             % scales)
        if len(scales) != len(srcs):
            raise ValueError("dma_compute: %d scales for %d sources"
                             % (len(scales), len(srcs)))
    unique_indices = _flag(unique_indices, "dma_compute: unique_indices")
    if vector_offset is not None:
        src_dtypes = narrowing.pop("src_dtypes", None)
        dst_dtype = narrowing.pop("dst_dtype", None)
        return _vector_offset_scatter(dst, srcs, vector_offset,
                                      unique_indices, src_dtypes,
                                      dst_dtype, **narrowing)
    return tensor_compute("add", srcs, dst, **narrowing)


def _max_report(value: Any) -> int:
    return _whole(value, "ExactValidator: max_report")


def _fidelity_counts(fidelity: Any) -> Any:
    """`fidelity` checked: None, a FidelityCounts, or its counts (a dict of
    families, each a dict of int counts)."""
    if fidelity is None:
        return None
    counts = getattr(fidelity, "counts", fidelity)
    if not isinstance(counts, dict) or not all(
            isinstance(keys, dict) and all(
                isinstance(v, (int, np.integer)) for v in keys.values())
            for keys in counts.values()):
        raise TypeError("ExactValidator: fidelity must be a "
                        "birsim.FidelityCounts or its counts (a dict of "
                        "dicts of ints), not %s" % type(fidelity).__name__)
    return fidelity


def _describe(bits: int, value: Optional[float], width: int) -> str:
    """An element as its bits (`width` bytes, so a NaN's payload and a
    zero's sign show) and its value where it has one."""
    if value is None:
        return "0x%0*x" % (2 * width, bits)
    return "0x%0*x (%r)" % (2 * width, bits, value)


def _little_endian_bytes(array: np.ndarray) -> np.ndarray:
    """An array's elements as little-endian bytes, one row per element."""
    flat = np.ascontiguousarray(array.reshape(-1))
    little = flat.astype(flat.dtype.newbyteorder("<"), copy=False)
    return np.ascontiguousarray(little).view(np.uint8).reshape(
        flat.size, flat.dtype.itemsize)


class ExactValidator:
    """A validator of nki-library's ``CustomValidator`` shape
    (test/utils/common_dataclasses.py): ``validator(logfile)`` then
    ``validate(raw_output_bytes) -> bool``, true when the kernel's bytes
    are exactly the expected array's: the bytes of the expected dtype,
    little-endian (the device's order; docs/Decisions.md D60), so -0.0 is
    not +0.0 and a NaN matches only its own bits. ``expecting(expected,
    ...)`` makes the class the harness instantiates; ``report`` names the
    first differing elements (index, bits and values, a NaN's and a signed
    zero's by their bits) and the fidelity counts given.

    >>> V = birsim.ExactValidator.expecting(np.float32([1, 2]))
    >>> V().validate(np.float32([1, 2]).tobytes())
    True
    >>> v = V(); v.validate(np.float32([1, 3]).tobytes()), v.mismatches
    (False, 1)
    >>> v = V(); v.validate(np.float32([-0.0, 2]).tobytes()); print(v.report)
    False
    1 of 2 float32 elements differ; first:
      [0] 0x80000000 (-0.0), expected 0x3f800000 (1.0)
    """

    expected: Optional[np.ndarray] = None
    row: Optional[Dtype] = None
    fidelity: Optional[Any] = None
    max_report: int = 10

    def __init__(self, logfile: Any = None, *,
                 expected: Optional[ArrayLike] = None,
                 dtype: Optional[DtypeLike] = None, fidelity: Any = None,
                 max_report: Optional[int] = None) -> None:
        if logfile is not None and not callable(getattr(logfile, "write",
                                                        None)):
            raise TypeError("ExactValidator: logfile must be a text file "
                            "(an object with write()) or None, not %s"
                            % type(logfile).__name__)
        self.logfile = logfile
        if expected is not None:
            array, row, _, _ = _input(expected, dtype, "ExactValidator")
            self.expected, self.row = array.reshape(-1).copy(), row
        if fidelity is not None:
            self.fidelity = _fidelity_counts(fidelity)
        if max_report is not None:
            self.max_report = _max_report(max_report)
        self.mismatches = 0
        self.report = ""

    @classmethod
    def expecting(cls, expected: ArrayLike, dtype: Optional[DtypeLike] = None,
                  *, fidelity: Any = None, max_report: int = 10) -> type:
        """A subclass bound to `expected` (of `dtype`, default its own type)
        and the fidelity counts of the call that computed it."""
        array, row, _, _ = _input(expected, dtype, "ExactValidator")
        return type(cls.__name__, (cls,), {
            "expected": array.reshape(-1).copy(), "row": row,
            "fidelity": _fidelity_counts(fidelity),
            "max_report": _max_report(max_report)})

    def _print_with_log(self, message: str) -> None:
        if self.logfile is not None:
            print(message, file=self.logfile)

    def _output_bytes(self, output: Any, row: Dtype) -> np.ndarray:
        """The output's bytes: raw bytes (bytes-like or a 1-byte array) as
        they are, an array of the expected type little-endian."""
        if output is None:
            raise TypeError("validate: inference_output must be the raw "
                            "output bytes or an array of %s, not None"
                            % row.name)
        array, is_row, _ = _arrays.take(_TABLE, output,
                                        "validate: inference_output")
        if array.dtype.kind == "O":
            raise TypeError("validate: inference_output must be the raw "
                            "output bytes or an array of %s, not %s"
                            % (row.name, type(output).__name__))
        if array.dtype.itemsize != 1:
            _arrays.check_type(_TABLE, array, is_row, row,
                               "validate: inference_output")
        return _little_endian_bytes(array).reshape(-1)

    def _values(self, elements: np.ndarray) -> List[Optional[float]]:
        """float32 values of expected-type elements, where they have one."""
        assert self.row is not None
        if self.row.kind not in ("float", "float32", "float32r"):
            return [int(v) if self.row.kind.endswith("int") else None
                    for v in elements]
        try:
            return [float(v) for v in cast(elements, "float32",
                                           src_dtype=self.row)]
        except BirsimError:
            return [None] * elements.size

    def validate(self, inference_output: ArrayLike) -> bool:
        """True when `inference_output` (the raw output bytes, or an array
        of the expected type) holds exactly the expected bytes."""
        if self.expected is None or self.row is None:
            raise TypeError("ExactValidator: no expected array; use "
                            "ExactValidator.expecting(expected)")
        raw = self._output_bytes(inference_output, self.row)
        want = _little_endian_bytes(self.expected)
        width = want.shape[1]
        lines: List[str] = []
        if raw.size != want.size:
            self.mismatches = -1
            lines.append("size: %d bytes, expected %d (%d %s elements)"
                         % (raw.size, want.size, self.expected.size,
                            self.row.name))
        else:
            got = raw.reshape(-1, width)
            differ = np.flatnonzero((got != want).any(axis=1))
            self.mismatches = int(differ.size)
            if differ.size:
                lines.append("%d of %d %s elements differ; first:"
                             % (differ.size, got.shape[0], self.row.name))
                shown = differ[:self.max_report]
                # Bits little-endian, as stored; values through the dtype.
                bits = np.dtype("<u%d" % width)
                got_bits = got[shown].copy().view(bits).reshape(-1)
                want_bits = want[shown].copy().view(bits).reshape(-1)
                storage = self.expected.dtype.newbyteorder("<")
                got_values = self._values(
                    got[shown].copy().view(storage).reshape(-1))
                want_values = self._values(
                    want[shown].copy().view(storage).reshape(-1))
                for i, g, e, gv, ev in zip(shown, got_bits, want_bits,
                                           got_values, want_values):
                    lines.append("  [%d] %s, expected %s"
                                 % (i, _describe(int(g), gv, width),
                                    _describe(int(e), ev, width)))
        if self.fidelity is not None:
            counts = getattr(self.fidelity, "counts", self.fidelity)
            changed = {f: {k: v for k, v in keys.items() if v}
                       for f, keys in counts.items()}
            lines.append("fidelity: %s" % {f: k for f, k in changed.items()
                                           if k})
        self.report = "\n".join(lines)
        for line in lines:
            self._print_with_log(line)
        return self.mismatches == 0


def allreduce(data: Sequence[ArrayLike], op: str = "add", *,
              dtype: Optional[DtypeLike] = None) -> Any:
    """The body of a SimDistRunner-style ``allreduce``: ``data[0] op
    data[1] op ...`` in rank order with the device's rules (docs/Decisions.md
    D57): float32 through the collective reducer (``ADDSS(x, acc)``), the
    other reducing dtypes through cast_copy_or_accumulate, rounding at every
    rank. `op` "add", "max" or "min". Returns the result in data[0]'s kind.

    >>> birsim.allreduce([np.float32([1e8]), np.float32([1]), np.float32([-1e8])])
    array([0.], dtype=float32)
    """
    ranks = _list_of(data, "allreduce: data",
                     "a list of arrays, one per rank")
    if not ranks:
        raise ValueError("allreduce: data holds no ranks")
    first, row, kind, _ = _input(ranks[0], dtype, "allreduce: data[0]")
    acc: Any = kind.give(np.array(first, copy=True), row)
    for rank in ranks[1:]:
        if row.name == "float32":
            acc = collective_reduce(op, acc, rank)
        else:
            acc = accumulate(op, acc, rank, row)
    return acc
