"""How arrays enter and leave the package (docs/Python.md "Arrays"): the
caller's NumPy arrays, ml_dtypes arrays, lists and CPU torch tensors become
C-contiguous, native-order NumPy arrays of a dtype's storage type, checked by
one rule; results go back in the caller's kind. The runtime is only ever
handed an array's own elements."""
import numpy as np

from . import _types


class Kind:
    """How a caller holds arrays; `give` returns a result that way."""

    def __init__(self, table, torch=False, dtype=None):
        self.table, self.torch, self.dtype = table, torch, dtype

    def give(self, result, row):
        """`result` (a row's storage array) as the caller's kind: a tensor
        for torch callers, the caller's ml_dtypes dtype where it is `row`'s."""
        if self.torch:
            return to_tensor(self.table, result, row)
        if self.dtype is not None and self.table.of_numpy(self.dtype) is row:
            return result.view(self.dtype)
        return result


#: How a plain NumPy caller holds arrays: results as they are.
NUMPY_KIND = Kind(None)


def to_tensor(table, result, row):
    """A storage array as a torch tensor sharing its memory: torch's own
    dtype of the row's name where torch has one, else the bits."""
    torch = _types.torch_module()
    named = _types.torch_dtype(_types.ml_name(row.mlir_type))
    if named is not None and row.number not in table.numpy_type:
        bits = result.view("i%d" % row.bytes) if row.bytes > 1 else result
        return torch.from_numpy(np.ascontiguousarray(bits)).view(named)
    try:
        return torch.from_numpy(result)
    except TypeError:  # torch has no unsigned type of this width: its bits
        return torch.from_numpy(result.view("i%d" % row.bytes))


def take(table, x, what):
    """(array, the row its type is or None, the caller's Kind) for an input."""
    if type(x) is np.ndarray:  # the common case: NumPy's own type
        row = table.by_numpy_type.get(x.dtype.type)
        if row is not None:
            return x, row, NUMPY_KIND
    if _types.is_tensor(x):
        if x.device.type != "cpu":
            raise ValueError("%s: a tensor on %s; birsim takes CPU tensors"
                             % (what, x.device))
        x = x.detach()
        row = table.by_name.get(str(x.dtype).split(".", 1)[1])
        if row is not None and row.number not in table.numpy_type:
            # NumPy lacks the type (bfloat16): its bits, without a copy.
            bits = x.view(_types.torch_dtype(
                "int%d" % (8 * row.bytes) if row.bytes > 1 else "uint8"))
            return (bits.numpy().view(table.storage(row)), row,
                    Kind(table, torch=True))
        array = x.numpy()
        return array, table.of_numpy(array.dtype), Kind(table, torch=True)
    if isinstance(x, (bytes, bytearray, memoryview)):
        array = np.frombuffer(x, np.uint8)
    elif isinstance(x, np.ndarray):
        array = x
    else:
        array = np.asarray(x)
    row = table.of_extension(array.dtype)
    if row is not None:  # ml_dtypes': results of its row come back in it
        return array, row, Kind(table, dtype=array.dtype)
    return array, table.of_numpy(array.dtype), NUMPY_KIND


def check_type(table, array, is_row, row, what):
    """An array is taken as `row` when its type is `row` itself or, for a
    row NumPy lacks, its bit storage (unsigned, of its width); TypeError
    otherwise (docs/Decisions.md D34)."""
    dt = array.dtype
    if is_row is row:
        return
    if (row.number not in table.numpy_type and dt.kind == "u" and
            dt.itemsize == row.bytes):
        return
    accepted = table.storage(row)
    hint = ("%s" % accepted.name if row.number in table.numpy_type else
            "%s (its bits), or an ml_dtypes/torch %s array"
            % (accepted.name, _types.ml_name(row.mlir_type)))
    raise TypeError("%s: a %s array is not %s; pass %s" % (
        what, dt.name if dt.isnative else dt.str, row.name, hint))


def as_row(table, array, is_row, row, what):
    """`array` checked as `row`, native-order and C-contiguous, viewed as the
    row's storage type (a copy only where order or layout need one)."""
    check_type(table, array, is_row, row, what)
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    if not array.flags.c_contiguous:
        array = array.copy(order="C")
    storage = table.storage(row)
    return array if array.dtype is storage else array.view(storage)


def take_out(table, out, row, shape, what):
    """The caller's `out` as a writable native-order view of `row`'s
    storage with the result's shape, or the error NumPy would raise."""
    if out is None:
        return None
    if _types.is_tensor(out):
        # torch's rule for out= (an in-place write is outside autograd).
        if out.requires_grad:
            raise ValueError("%s: out requires grad; birsim writes it in "
                             "place, outside autograd: pass a tensor that "
                             "does not (out.detach())" % what)
        array, is_row, _ = take(table, out, what + ": out")
    elif isinstance(out, np.ndarray):
        array, is_row = out, table.of_numpy(out.dtype)
    else:
        raise TypeError("%s: out must be a numpy.ndarray or a torch.Tensor, "
                        "not %s" % (what, type(out).__name__))
    if not array.flags.writeable:
        raise ValueError("output array is read-only")
    if overlaps_itself(array):
        raise ValueError("%s: out has elements at one address (a stride of "
                         "0, as an expanded or broadcast view has), so "
                         "results would overwrite each other: pass a copy "
                         "(.clone(), .copy())" % what)
    if not array.dtype.isnative:
        raise ValueError("%s: out has non-native byte order (%s); pass a "
                         "native-order array" % (what, array.dtype.str))
    check_type(table, array, is_row, row, what + ": out")
    if array.shape != tuple(shape):
        raise ValueError("%s: out has shape %s, the result %s"
                         % (what, array.shape, tuple(shape)))
    storage = table.storage(row)
    return array if array.dtype is storage else array.view(storage)


def overlaps_itself(a):
    """Whether two of `a`'s elements share memory: a stride of 0 on an axis
    of more than one element, or strides that interleave (as_strided)."""
    if a.flags.c_contiguous or a.flags.f_contiguous:
        return False
    axes = sorted((abs(stride), n) for stride, n in zip(a.strides, a.shape)
                  if n > 1)
    if not axes or 0 in a.shape:
        return False
    reach = a.itemsize  # the bytes the inner axes span
    for stride, n in axes:
        if stride < reach:
            break
        reach = stride * n
    else:
        return False
    # A layout the sort cannot clear: count its distinct element offsets.
    offsets = np.zeros((), np.int64)
    for stride, n in zip(a.strides, a.shape):
        offsets = np.add.outer(offsets, np.arange(n, dtype=np.int64) * stride)
    starts = np.unique(offsets.ravel())
    return starts.size < a.size or bool(
        (np.diff(starts) < a.itemsize).any())


def same_elements(a, b):
    """`a` and `b` are the same elements (same address, shape and strides)."""
    return (a.__array_interface__["data"][0] ==
            b.__array_interface__["data"][0] and a.shape == b.shape and
            a.strides == b.strides and a.itemsize == b.itemsize)
