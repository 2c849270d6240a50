"""Element types as callers name them, all derived from the runtime's dtype
table (docs/Python.md "Element types"): the bir::Dtype name and number, the
MLIR spelling, the ml_dtypes / PyTorch name derived from the MLIR spelling,
NumPy dtypes and scalar types, ml_dtypes dtypes (recognised by name and
size, never imported) and torch dtypes (torch imported only when one is
passed)."""
import re
import sys
from typing import Any, Dict, TypeGuard

import numpy as np

from . import _runtime


def ml_name(mlir_type):
    """The ml_dtypes / PyTorch name of an MLIR element type: f8E4M3FN ->
    float8_e4m3fn, bf16 -> bfloat16, f32 -> float32, ui8 -> uint8,
    !birsim.float32r -> float32r."""
    rules = ((r"!birsim\.(\w+)", lambda m: m.group(1)),
             (r"f(\d+)(E\d+M\d+\w*)", lambda m: "float%s_%s" % (
                 m.group(1), m.group(2).lower())),
             (r"(b?)f(\d+)", lambda m: "%sfloat%s" % m.groups()),
             (r"(u?)i(\d+)", lambda m: "%sint%s" % m.groups()))
    for pattern, name in rules:
        m = re.fullmatch(pattern, mlir_type)
        if m:
            return name(m)
    return mlir_type


class Table:
    """The dtype table with every spelling of each row."""

    def __init__(self, rows):
        self.rows = tuple(rows)
        self.by_name = {}
        for row in self.rows:
            for spelling in {row.name, row.mlir_type, ml_name(row.mlir_type)}:
                other = self.by_name.setdefault(spelling, row)
                assert other is row, "%s names %s and %s" % (
                    spelling, other.name, row.name)
        # NumPy's own scalar type of a row, where NumPy has one by that name.
        self.numpy_type = {}
        for row in self.rows:
            t = getattr(np, row.name, None)
            if (isinstance(t, type) and issubclass(t, np.generic) and
                    np.dtype(t).itemsize == row.bytes):
                self.numpy_type[row.number] = t
        self.by_numpy_type = {t: self.rows[n] for n, t in self.numpy_type.items()}
        # The NumPy dtype a row's values are held in: its own, else its
        # bits in the unsigned integer of its width.
        self._storage = [np.dtype(self.numpy_type[row.number])
                         if row.number in self.numpy_type else
                         np.dtype("u%d" % row.bytes) for row in self.rows]

    def storage(self, row):
        """The NumPy dtype `row`'s values are held in."""
        return self._storage[row.number]

    def names(self):
        return ", ".join(row.name for row in self.rows)

    def of_numpy(self, dt):
        """The row a NumPy dtype *is* (not its bit storage), or None: NumPy's
        own types, and extension types (ml_dtypes')."""
        row = self.by_numpy_type.get(dt.type)
        return row if row is not None else self.of_extension(dt)

    def of_extension(self, dt):
        """The row of a dtype NumPy lacks that an extension (ml_dtypes)
        registers, by name and size, or None. Its kind varies (ml_dtypes
        0.7: "V" for bfloat16, "f" for float8_e5m2); its type is not
        NumPy's."""
        row = self.by_name.get(dt.name)
        if (row is not None and dt.itemsize == row.bytes and
                getattr(dt.type, "__module__", "numpy") != "numpy"):
            return row
        return None

    def resolve(self, spec, what="dtype"):
        """A row from anything that names one; TypeError when nothing does."""
        if type(spec) is str and spec in self.by_name:
            return self.by_name[spec]
        if isinstance(spec, _runtime.Dtype):
            return self.rows[spec.number]
        if isinstance(spec, (bool, np.bool_)):
            raise TypeError("%s: %r is not a dtype" % (what, spec))
        if isinstance(spec, (int, np.integer)):
            if not 0 <= int(spec) < len(self.rows):
                raise ValueError("%s: no bir::Dtype numbered %d (0..%d)"
                                 % (what, int(spec), len(self.rows) - 1))
            return self.rows[int(spec)]
        if isinstance(spec, str):
            row = self.by_name.get(spec)
            if row is None:
                raise TypeError("%s: unknown dtype %r: expected one of %s, "
                                "their MLIR or ml_dtypes names, a NumPy or a "
                                "torch dtype" % (what, spec, self.names()))
            return row
        if is_torch_dtype(spec):
            return self.resolve(str(spec).split(".", 1)[1], what)
        try:
            dt = np.dtype(spec)
        except TypeError:
            raise TypeError("%s: %r is not a dtype" % (what, spec)) from None
        row = self.of_numpy(dt)
        if row is None:
            raise TypeError("%s: NumPy type %s has no bir::Dtype (one of %s)"
                            % (what, dt, self.names()))
        return row


def torch_module():
    """torch when the caller has imported it (a tensor implies it)."""
    return sys.modules.get("torch")


# torch's dtypes by their own names, found once (torch_dtype).
_torch_dtypes: Dict[str, Any] = {}


def torch_dtype(name: str) -> Any:
    """torch's dtype named `name` ("bfloat16", "int16", ...), or None where
    torch has none. Resolved once, from the dtypes themselves: each by its
    own name (its repr, from torch's C type), never by ``torch.<name>``,
    which a library may rebind in the process (tt-lang's functional
    simulator does, for bfloat16 and float16); a tensor's conversion
    methods (``.bfloat16()``, ``.half()``, ...) reach the dtypes whatever
    the module's names hold."""
    torch = torch_module()
    if torch is not None and not _torch_dtypes:
        empty = torch.empty(0)
        candidates = [v for v in vars(torch).values()
                      if isinstance(v, torch.dtype)]
        candidates += [getattr(empty, method)().dtype for method in (
            "bfloat16", "half", "float", "double", "byte", "char", "short",
            "int", "long", "bool")]
        _torch_dtypes.update((str(dt).split(".", 1)[1], dt)
                             for dt in candidates)
    return _torch_dtypes.get(name)


def is_tensor(x: object) -> TypeGuard[Any]:
    """Whether `x` is a torch tensor (torch imported already, never here)."""
    torch = torch_module()
    return torch is not None and isinstance(x, torch.Tensor)


def is_torch_dtype(x):
    torch = torch_module()
    return torch is not None and isinstance(x, torch.dtype)
