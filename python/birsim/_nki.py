"""The DMA engine's arithmetic across dtypes (docs/Semantics.md section 8)
in the call shapes NKI kernel tests use: neuron_dtypes' static_cast,
nrtpy's tensor_cast and tensor_compute, nki.isa.dma_compute, a validator of
nki-library's CustomValidator shape and an allreduce body for a
SimDistRunner-style emulation. No Neuron package is imported."""
import ctypes
from typing import (Any, List, Optional, Sequence, Tuple, Union)

import numpy as np

from . import _arrays, _types
from ._casts import _narrowing, accumulate, cast, collective_reduce
from ._core import (ArrayLike, Dtype, DtypeLike, _MEMORY_REDUCTION_OPS,
                    _TABLE, _check, _fp8_config, _input, _lib, _name_number,
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
    return cast(array, dtype, fp8_config=fp8_config)


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
    return accumulate("add", psum, matmul, "bfloat16", src_dtype="float32",
                      rounding=rounding, seed=seed, out=out)


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


def _sources(srcs: Sequence[ArrayLike], dtypes, what: str):
    if isinstance(srcs, (np.ndarray, bytes)) or _types.is_tensor(srcs):
        raise TypeError("%s: srcs must be a list of tensors" % what)
    srcs = list(srcs)
    if dtypes is None:
        dtypes = [None] * len(srcs)
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


def dma_compute(dst: ArrayLike, srcs: Sequence[ArrayLike],
                scales: Optional[Sequence[float]] = None,
                reduce_op: Any = "add", **narrowing: Any) -> Any:
    """``nki.isa.dma_compute(dst, srcs, scales, reduce_op)``'s call:
    ``dst = srcs[0] + srcs[1] + ...`` through float32 (docs/Semantics.md
    section 8). As the document says, `reduce_op` must be add (the name, or
    a function named add such as ``np.add``) and every scale 1.0; the other
    keywords are tensor_compute's. Returns `dst`.

    >>> psum = np.zeros(1, np.float32)
    >>> birsim.dma_compute(psum, [np.float16([0.5]), np.float32([0.25])], [1.0, 1.0], np.add)
    array([0.75], dtype=float32)
    """
    name = reduce_op if isinstance(reduce_op, str) else getattr(
        reduce_op, "__name__", repr(reduce_op))
    if name != "add":
        raise ValueError("dma_compute: reduce_op must be add, not %s" % name)
    if scales is not None and any(float(s) != 1.0 for s in scales):
        raise ValueError("dma_compute: every scale must be 1.0, not %s"
                         % list(scales))
    if scales is not None and len(scales) != len(srcs):
        raise ValueError("dma_compute: %d scales for %d sources"
                         % (len(scales), len(srcs)))
    return tensor_compute("add", srcs, dst, **narrowing)


class ExactValidator:
    """A validator of nki-library's ``CustomValidator`` shape
    (test/utils/common_dataclasses.py): ``validator(logfile)`` then
    ``validate(raw_output_bytes) -> bool``, true when the kernel's bytes
    are exactly the expected array's. ``expecting(expected, ...)`` makes
    the class the harness instantiates; ``report`` names the first
    differing elements (index, bits, values) and the fidelity counts given.

    >>> V = birsim.ExactValidator.expecting(np.float32([1, 2]))
    >>> V().validate(np.float32([1, 2]).tobytes())
    True
    >>> v = V(); v.validate(np.float32([1, 3]).tobytes()), v.mismatches
    (False, 1)
    """

    expected: Optional[np.ndarray] = None
    row: Optional[Dtype] = None
    fidelity: Optional[Any] = None
    max_report: int = 10

    def __init__(self, logfile: Any = None, *,
                 expected: Optional[ArrayLike] = None,
                 dtype: Optional[DtypeLike] = None, fidelity: Any = None,
                 max_report: Optional[int] = None) -> None:
        self.logfile = logfile
        if expected is not None:
            array, row, _, _ = _input(expected, dtype, "ExactValidator")
            self.expected, self.row = array.reshape(-1), row
        if fidelity is not None:
            self.fidelity = fidelity
        if max_report is not None:
            self.max_report = max_report
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
            "fidelity": fidelity, "max_report": max_report})

    def _print_with_log(self, message: str) -> None:
        if self.logfile is not None:
            print(message, file=self.logfile)

    def validate(self, inference_output: ArrayLike) -> bool:
        """True when `inference_output` (the raw output bytes, or an array
        of the expected type) holds exactly the expected bytes."""
        if self.expected is None or self.row is None:
            raise TypeError("ExactValidator: no expected array; use "
                            "ExactValidator.expecting(expected)")
        raw = np.ascontiguousarray(
            _arrays.take(_TABLE, inference_output, "validate")[0]
        ).reshape(-1).view(np.uint8)
        want = self.expected.view(np.uint8)
        lines: List[str] = []
        if raw.size != want.size:
            self.mismatches = -1
            lines.append("size: %d bytes, expected %d (%d %s elements)"
                         % (raw.size, want.size, self.expected.size,
                            self.row.name))
        else:
            got = raw.view(self.expected.dtype)
            differ = np.flatnonzero(got != self.expected)
            self.mismatches = int(differ.size)
            if differ.size:
                lines.append("%d of %d %s elements differ; first:"
                             % (differ.size, got.size, self.row.name))
                shown = differ[:self.max_report]
                values = lambda a: cast(a[shown], "float32",  # noqa: E731
                                        src_dtype=self.row)
                for i, g, e, gv, ev in zip(shown, got[shown],
                                           self.expected[shown],
                                           values(got), values(self.expected)):
                    lines.append("  [%d] 0x%x (%r), expected 0x%x (%r)"
                                 % (i, int(g), float(gv), int(e), float(ev)))
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
    ranks = list(data)
    if not ranks:
        raise ValueError("allreduce: no ranks")
    first, row, kind, _ = _input(ranks[0], dtype, "allreduce: data[0]")
    acc: Any = kind.give(np.array(first, copy=True), row)
    for rank in ranks[1:]:
        if row.name == "float32":
            acc = collective_reduce(op, acc, rank)
        else:
            acc = accumulate(op, acc, rank, row)
    return acc
