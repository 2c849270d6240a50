"""birsim from Python: the BIR simulator's numerics and tt-metal's BFP
conversion, exact, over libbirsim_runtime.so.0 (docs/Python.md).

Arrays are NumPy arrays. Element types NumPy lacks (bfloat16, the fp8
formats) travel as their bits in uint16 / uint8 arrays, named by their
bir::Dtype name (``birsim.dtypes``). Every table comes from the runtime;
every error is a ``BirsimError`` with the runtime's status and message,
and leaves ``out`` as it was.
"""
import contextlib
import ctypes

import numpy as np

from . import _runtime

_rt = _runtime.Runtime(_runtime.find_library(__file__))

__version__ = _rt.lib.birsim_version().decode()

#: The bir::Dtype table (docs/Semantics.md section 1), by number.
dtypes = tuple(_rt.dtypes())
_DTYPE_BY_NAME = {d.name: d for d in dtypes}
_MEMORY_REDUCTION_OPS = _rt.names("memory_reduction_op")
_ALU_OP_TYPES = _rt.names("alu_op_type")
#: The BFP formats (docs/Semantics.md section 5), by number.
bfp_formats = tuple(_rt.bfp_formats())
_FP8_FLAGS = _rt.fp8_config_flags()
_FIDELITY_FIELDS = _rt.fidelity_layout()

# NumPy storage of a dtype: its own type where NumPy has one, else its
# bits in an unsigned integer of its width.
_NATIVE = {"float32": np.float32, "float16": np.float16, "int8": np.int8,
           "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16,
           "int32": np.int32, "uint32": np.uint32, "int64": np.int64,
           "uint64": np.uint64}
_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_NATIVE_NAMES = {v: k for k, v in _NATIVE.items()}


class BirsimError(RuntimeError):
    """A runtime error: ``status`` (a BIRSIM_E* code) and ``message``
    (birsim_last_error())."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


def _check(status):
    _rt.check(status, BirsimError)


def set_num_threads(n):
    """Threads for large calls (0: the default); returns the previous
    setting. Results never depend on it."""
    return _rt.lib.birsim_set_num_threads(int(n))


def active_isa():
    """The vector path in use: "portable", "avx2" or "avx512"."""
    return _rt.lib.birsim_active_isa().decode()


def _dtype(dtype, array=None):
    """A Dtypes.def row from a name, a number, or an array's NumPy type."""
    if dtype is None:
        name = _NATIVE_NAMES.get(array.dtype.type)
        if name is None:
            raise BirsimError(-2, "no bir::Dtype for NumPy type %s: name one "
                              "(birsim.dtypes)" % array.dtype)
        return _DTYPE_BY_NAME[name]
    if isinstance(dtype, (int, np.integer)):
        if not 0 <= int(dtype) < len(dtypes):
            raise BirsimError(-2, "Unknown dtype %d" % int(dtype))
        return dtypes[int(dtype)]
    if dtype not in _DTYPE_BY_NAME:
        raise BirsimError(-2, "unknown dtype %r: expected one of %s"
                          % (dtype, ", ".join(_DTYPE_BY_NAME)))
    return _DTYPE_BY_NAME[dtype]


def storage_type(dtype):
    """The NumPy type arrays of `dtype` are held in."""
    row = _dtype(dtype)
    return _NATIVE.get(row.name, _BITS[row.bytes])


def _elements(array, row, what):
    """`array` as a C-contiguous array of `row`'s storage type."""
    array = np.asarray(array)
    if array.dtype.itemsize != row.bytes:
        raise TypeError("%s: %s elements are %d bytes, the array's %d"
                        % (what, row.name, row.bytes, array.dtype.itemsize))
    return np.ascontiguousarray(array)


def _result(template, out, dtype):
    """A fresh result array, copied into `out` by the caller on success."""
    if out is not None and (out.shape != template.shape or
                            out.dtype.itemsize != np.dtype(dtype).itemsize):
        raise ValueError("out must have shape %s and %d-byte elements"
                         % (template.shape, np.dtype(dtype).itemsize))
    return np.array(template, dtype=dtype, copy=True, order="C")


def _in_place(dst, out):
    """`out` is `dst` itself: the runtime reads each element before it
    writes it there, and writes nothing on error, so no copy is needed."""
    return (out is not None and out.ctypes.data == dst.ctypes.data and
            out.shape == dst.shape and out.flags.c_contiguous and
            out.dtype.itemsize == dst.dtype.itemsize)


def _same_buffer(a, b):
    return (a.ctypes.data == b.ctypes.data and a.nbytes == b.nbytes)


def _reject_partial_overlap(out, sources, call):
    """`out` partly overlapping a source: the runtime's aliasing error
    (docs/Decisions.md D18), raised by the call itself, which checks before
    it writes anything; never a silent copy."""
    if out is None:
        return
    for source in sources:
        if np.shares_memory(out, source) and not _same_buffer(out, source):
            _check(call(out, source))


def _finish(result, out):
    if out is None:
        return result
    out[...] = result.view(out.dtype)
    return out


def _op_number(op, names, what):
    if isinstance(op, (int, np.integer)):
        return int(op)
    if op not in names:
        raise BirsimError(-1, "%s %r: expected one of %s"
                          % (what, op, ", ".join(names)))
    return names.index(op)


def accumulate(op, dst, src, dtype=None, *, out=None):
    """cast_copy_or_accumulate over arrays: ``dst op src`` elementwise with
    the simulator's numerics (docs/Semantics.md section 3); op is "copy",
    "add", "min" or "max". Returns a new array, or `out` (which may be
    `dst`) filled."""
    dst = np.asarray(dst)
    row = _dtype(dtype, dst)
    src = _elements(src, row, "accumulate")
    dst = _elements(dst, row, "accumulate")
    if src.shape != dst.shape:
        raise ValueError("accumulate: dst %s and src %s differ in shape"
                         % (dst.shape, src.shape))
    number = _op_number(op, _MEMORY_REDUCTION_OPS, "MemoryReductionOp")
    if _in_place(dst, out):
        _check(_rt.lib.birsim_accumulate(number, out.ctypes.data,
                                         src.ctypes.data, row.number, out.size))
        return out
    if out is not None and out.size == dst.size:
        _reject_partial_overlap(out, (dst, src), lambda o, s: (
            _rt.lib.birsim_accumulate(number, o.ctypes.data, s.ctypes.data,
                                      row.number, o.size)))
    result = _result(dst, out, dst.dtype)
    _check(_rt.lib.birsim_accumulate(
        _op_number(op, _MEMORY_REDUCTION_OPS, "MemoryReductionOp"),
        result.ctypes.data, src.ctypes.data, row.number, result.size))
    return _finish(result, out)


def scatter_accumulate(op, dst, src, indices, dtype=None, *, out=None):
    """``dst[indices[i]] = dst[indices[i]] op src[i]`` in order, dst flat;
    every index is checked before anything is written."""
    dst = np.asarray(dst)
    row = _dtype(dtype, dst)
    src = _elements(src, row, "scatter_accumulate").ravel()
    dst = _elements(dst, row, "scatter_accumulate")
    idx = np.ascontiguousarray(indices, dtype=np.int64).ravel()
    if idx.size != src.size:
        raise BirsimError(-1, "scatter_accumulate: %d indices for %d sources"
                          % (idx.size, src.size))
    number = _op_number(op, _MEMORY_REDUCTION_OPS, "MemoryReductionOp")
    if not _in_place(dst, out) and out is not None and out.size == dst.size:
        # The runtime rejects any overlap of dst with src or indices, and a
        # partial one of out with dst shows in a copy.
        _reject_partial_overlap(out, (dst,), lambda o, d: (
            _rt.lib.birsim_accumulate(0, o.ctypes.data, d.ctypes.data,
                                      row.number, o.size)))
        _reject_partial_overlap(out, (src, idx), lambda o, _: (
            _rt.lib.birsim_scatter_accumulate(
                number, o.ctypes.data, o.size, src.ctypes.data,
                idx.ctypes.data, idx.size, row.number)))
    result = out if _in_place(dst, out) else _result(dst, out, dst.dtype)
    _check(_rt.lib.birsim_scatter_accumulate(
        _op_number(op, _MEMORY_REDUCTION_OPS, "MemoryReductionOp"),
        result.ctypes.data, result.size, src.ctypes.data, idx.ctypes.data,
        idx.size, row.number))
    return result if result is out else _finish(result, out)


def collective_reduce(op, acc, x, *, out=None):
    """The collective reducer on float32: op is "add", "max" or "min"."""
    acc = np.ascontiguousarray(acc, dtype=np.float32)
    x = np.ascontiguousarray(x, dtype=np.float32)
    if acc.shape != x.shape:
        raise BirsimError(-1, "collective_reduce: shapes %s and %s differ"
                          % (acc.shape, x.shape))
    alu = _op_number(op, _ALU_OP_TYPES, "AluOpType")
    if not _in_place(acc, out) and out is not None and out.size == acc.size:
        _reject_partial_overlap(out, (acc, x), lambda o, s: (
            _rt.lib.birsim_collective_reduce(alu, o.ctypes.data,
                                             s.ctypes.data, o.size)))
    result = out if _in_place(acc, out) else _result(acc, out, np.float32)
    _check(_rt.lib.birsim_collective_reduce(
        _op_number(op, _ALU_OP_TYPES, "AluOpType"), result.ctypes.data,
        x.ctypes.data, result.size))
    return result if result is out else _finish(result, out)


def alu_op_to_memory_reduction(alu_op):
    """AluOpType2MemoryReduction: "bypass" -> "copy", "add" -> "add"; the
    simulator's error for the others (min and max included)."""
    result = ctypes.c_int()
    _check(_rt.lib.birsim_alu_op_to_memory_reduction(
        _op_number(alu_op, _ALU_OP_TYPES, "AluOpType"), ctypes.byref(result)))
    return _MEMORY_REDUCTION_OPS[result.value]


def _fp8_config(config):
    if isinstance(config, (int, np.integer)):
        return int(config)
    bits = 0
    for flag in filter(None, (f.strip() for f in str(config).split("|"))):
        if flag == "none":
            continue
        if flag not in _FP8_FLAGS:
            raise BirsimError(-1, "fp8_config %r: expected none, %s or a "
                              "combination joined by |"
                              % (config, ", ".join(_FP8_FLAGS)))
        bits |= _FP8_FLAGS[flag]
    return bits


def cast(x, dtype, *, src_dtype=None, fp8_config="saturate"):
    """The cast engine (docs/Semantics.md section 4): `x` to `dtype`
    through fp32, with the FP8 config ("none", "saturate",
    "nan_suppress", "saturate|nan_suppress", or the config word)."""
    x = np.asarray(x)
    src = _dtype(src_dtype, x)
    dst = _dtype(dtype)
    x = _elements(x, src, "cast")
    result = np.empty(x.shape, dtype=storage_type(dst.name))
    _check(_rt.lib.birsim_cast(src.number, x.ctypes.data, dst.number,
                               result.ctypes.data, x.size,
                               _fp8_config(fp8_config)))
    return result


def to_float32(bits, dtype):
    """Raw bits of a format NumPy lacks (bfloat16, the fp8 formats,
    float32r) to float32, exactly."""
    return cast(bits, "float32", src_dtype=dtype)


def from_float32(x, dtype, *, fp8_config="saturate"):
    """float32 to the raw bits of `dtype`, as the cast engine rounds."""
    return cast(np.asarray(x, dtype=np.float32), dtype, fp8_config=fp8_config)


def _format(fmt):
    return _op_number(fmt, [f.name for f in bfp_formats], "BFP format")


def _bfp_input(x, src_dtype):
    x = np.asarray(x)
    if src_dtype is None and x.dtype.type not in _NATIVE_NAMES:
        raise BirsimError(-1, "no BFP input type for NumPy type %s" % x.dtype)
    row = _dtype(src_dtype, x)
    return _elements(x, row, "bfp_pack"), row


def _tile_bytes(fmt, tile):
    """The packer's tile size; the runtime's error for a shape it rejects."""
    n = _rt.lib.birsim_bfp_packed_tile_bytes(_format(fmt), int(tile[0]),
                                            int(tile[1]))
    if n == 0:  # an empty call reports why (BIRSIM_ETILE_SHAPE)
        _check(_rt.lib.birsim_bfp_unpack(_format(fmt), None, 0, int(tile[0]),
                                         int(tile[1]), 0, None))
    return n


def bfp_pack(x, format, *, tile=(32, 32), faces=False, src_dtype=None):
    """tt-metal's pack_as_bfp_tiles: tiles of `tile` values (x's size a
    multiple), row-major inside or (`faces`) in face order, to a uint8
    array of (tiles, packed tile bytes). Inputs: float32, "bfloat16" bits
    in uint16 (src_dtype="bfloat16"), int8, uint8, uint16, int32, uint32."""
    x, row = _bfp_input(x, src_dtype)
    tile_bytes = _tile_bytes(format, tile)
    values = int(tile[0]) * int(tile[1])
    tiles = x.size // values
    out = np.empty((tiles, tile_bytes), dtype=np.uint8)
    if x.size != tiles * values:
        raise BirsimError(-1, "bfp_pack: %d values are not whole %dx%d tiles"
                          % (x.size, tile[0], tile[1]))
    _check(_rt.lib.birsim_bfp_pack(_format(format), row.number, x.ctypes.data,
                                   tiles, int(tile[0]), int(tile[1]),
                                   1 if faces else 0, out.ctypes.data))
    return out


def bfp_unpack(packed, format, tile_count, *, tile=(32, 32), faces=False):
    """tt-metal's unpack_bfp*_tiles_into_float_vec: float32 tiles of
    (tile_count, rows, cols)."""
    packed = np.ascontiguousarray(packed, dtype=np.uint8)
    need = int(tile_count) * _tile_bytes(format, tile)
    if packed.size < need:
        raise BirsimError(-1, "bfp_unpack: %d bytes for %d tiles of %d"
                          % (packed.size, tile_count, need // max(tile_count, 1)))
    out = np.empty((int(tile_count), int(tile[0]), int(tile[1])), np.float32)
    _check(_rt.lib.birsim_bfp_unpack(_format(format), packed.ctypes.data,
                                     int(tile_count), int(tile[0]),
                                     int(tile[1]), 1 if faces else 0,
                                     out.ctypes.data))
    return out


def _rows_cols(shape):
    if len(shape) < 2:
        raise BirsimError(-1, "a matrix has rank 2 or more, got shape %s"
                          % (tuple(shape),))
    cols = int(shape[-1])
    return (int(np.prod(shape)) // cols if cols else 0), cols


def bfp_pack_matrix(m, format, *, tile=(32, 32), transpose=False,
                    src_dtype=None):
    """A row-major matrix (leading dimensions folded into rows) tilized and
    packed in one pass (ttnn's from_torch(..., bfloat8_b)); `transpose`:
    ttnn's transposed tilize. Returns (tiles, packed tile bytes) uint8."""
    m, row = _bfp_input(m, src_dtype)
    rows, cols = _rows_cols(m.shape)
    tiles = (rows // int(tile[0])) * (cols // int(tile[1])) if \
        int(tile[0]) and int(tile[1]) else 0
    out = np.empty((tiles, _tile_bytes(format, tile)), dtype=np.uint8)
    _check(_rt.lib.birsim_bfp_pack_matrix(
        _format(format), row.number, m.ctypes.data, rows, cols, int(tile[0]),
        int(tile[1]), 2 if transpose else 0, out.ctypes.data))
    return out


def bfp_unpack_matrix(packed, format, shape, *, tile=(32, 32),
                      transpose=False):
    """The inverse of bfp_pack_matrix: a float32 matrix of `shape`."""
    packed = np.ascontiguousarray(packed, dtype=np.uint8)
    rows, cols = _rows_cols(shape)
    out = np.empty(tuple(shape), np.float32)
    tiles = (rows // int(tile[0])) * (cols // int(tile[1])) if \
        int(tile[0]) and int(tile[1]) else 0
    if packed.size < tiles * _tile_bytes(format, tile):
        raise BirsimError(-1, "bfp_unpack_matrix: %d bytes for %d tiles"
                          % (packed.size, tiles))
    _check(_rt.lib.birsim_bfp_unpack_matrix(
        _format(format), packed.ctypes.data, rows, cols, int(tile[0]),
        int(tile[1]), 2 if transpose else 0, out.ctypes.data))
    return out


def _counter_values():
    raw = (ctypes.c_uint64 * len(_FIDELITY_FIELDS))()
    _check(_rt.lib.birsim_fidelity_counters_sized(raw, ctypes.sizeof(raw)))
    values = {}
    for (family, key), v in zip(_FIDELITY_FIELDS, raw):
        values.setdefault(family, {})[key] = int(v)
    return values


class FidelityCounts:
    """The run-time counters since the context's entry (docs/Fidelity.md):
    ``counts[family][key]``, ``elements`` included."""

    def __init__(self):
        self._start = _counter_values()
        self._end = None

    @property
    def counts(self):
        now = self._end if self._end is not None else _counter_values()
        return {f: {k: now[f][k] - self._start[f][k] for k in keys}
                for f, keys in now.items()}

    def __getitem__(self, family):
        return self.counts[family]


@contextlib.contextmanager
def fidelity():
    """Counts what the simulator's numerics do to values inside the block:
    enables the run-time counters, yields a FidelityCounts whose counts are
    the difference since entry (nested contexts work), and restores the
    previous enable state. The counters are process-wide: calls from other
    threads inside the block count too."""
    previous = _rt.lib.birsim_fidelity_enabled()
    _rt.lib.birsim_fidelity_enable(1)
    counts = FidelityCounts()
    try:
        yield counts
    finally:
        counts._end = _counter_values()
        _rt.lib.birsim_fidelity_enable(previous)
