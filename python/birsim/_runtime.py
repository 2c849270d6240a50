"""ctypes access to libbirsim_runtime.so.0: the C ABI's signatures and the
tables behind it (birsim_dtype_info and the name queries of Runtime.h),
read from the runtime, never copied here. No NumPy: the repository's
generators use this module too (utils/birsim_runtime.py)."""
import collections
import ctypes
import os
import typing

_c = ctypes


class DtypeInfo(_c.Structure):
    """struct birsim_dtype_info (include/birsim/Runtime/Runtime.h)."""
    _fields_ = [("name", _c.c_char_p), ("mlir_type", _c.c_char_p),
                ("kind", _c.c_char_p), ("reduction", _c.c_char_p),
                ("bytes", _c.c_uint32), ("exponent_bits", _c.c_uint32),
                ("mantissa_bits", _c.c_uint32), ("bias", _c.c_int32)]


class Dtype(typing.NamedTuple):
    """A row of the dtype table: its number, then DtypeInfo's fields
    (checked below), the strings decoded."""
    number: int
    name: str
    mlir_type: str
    kind: str
    reduction: str
    bytes: int
    exponent_bits: int
    mantissa_bits: int
    bias: int


assert Dtype._fields[1:] == tuple(name for name, _ in DtypeInfo._fields_)


class BfpFormat(typing.NamedTuple):
    """A row of the BFP format table."""
    number: int
    name: str
    exponent: str
    mantissa_bits: int
    datum_bits: int

class FunctionParam(_c.Structure):
    """struct birsim_function_param (Runtime.h)."""
    _fields_ = [("c_type", _c.c_char_p), ("role", _c.c_char_p),
                ("kind", _c.c_char_p), ("bytes", _c.c_uint32)]


class FunctionInfo(_c.Structure):
    """struct birsim_function_info (Runtime.h)."""
    _fields_ = [("name", _c.c_char_p), ("result", FunctionParam),
                ("params", _c.POINTER(FunctionParam)),
                ("param_count", _c.c_uint32), ("lowered", _c.c_uint32),
                ("counted", _c.c_uint32)]


Function = collections.namedtuple(
    "Function", ["name", "result", "params", "lowered", "counted"])
Param = collections.namedtuple("Param", ["c_type", "role", "kind", "bytes"])


def _ctype(param):
    """The ctypes type of a C type as birsim_function_info describes it."""
    if param.kind == "void":
        return None
    if param.kind == "string":
        return _c.c_char_p
    if param.kind == "pointer":
        return _c.c_void_p
    if param.kind == "float":
        return {4: _c.c_float, 8: _c.c_double}[param.bytes]
    integers = {("signed", 1): _c.c_int8, ("signed", 2): _c.c_int16,
                ("signed", 4): _c.c_int32, ("signed", 8): _c.c_int64,
                ("unsigned", 1): _c.c_uint8, ("unsigned", 2): _c.c_uint16,
                ("unsigned", 4): _c.c_uint32, ("unsigned", 8): _c.c_uint64}
    return integers[(param.kind, param.bytes)]


def _param(p):
    return Param(*(getattr(p, f) if f == "bytes" else
                   (getattr(p, f) or b"").decode()
                   for f, _ in FunctionParam._fields_))


def bind(lib, path, count, info):
    """Every row of a library's function table (`count()` rows, `info(i,
    out, size)` fills a FunctionInfo): the ctypes signatures set on `lib`'s
    functions, and the rows by name."""
    functions = {}
    row_info = FunctionInfo()
    for index in range(getattr(lib, count)()):
        # Bootstrap: typed arguments, until its own row declares it.
        status = getattr(lib, info)(
            _c.c_int(index), _c.byref(row_info),
            _c.c_size_t(_c.sizeof(row_info)))
        if status != 0:
            raise OSError("%s: %s(%d) failed: %d"
                          % (path, info, index, status))
        row = Function(row_info.name.decode(), _param(row_info.result),
                       tuple(_param(row_info.params[i])
                             for i in range(row_info.param_count)),
                       bool(row_info.lowered), bool(row_info.counted))
        functions[row.name] = row
        fn = getattr(lib, row.name)
        fn.restype = _ctype(row.result)
        fn.argtypes = [_ctype(p) for p in row.params]
    return functions


LIBRARY = "libbirsim_runtime.so.0"


def find_library(start, library=LIBRARY, variable="BIRSIM_RUNTIME"):
    """$variable, else `library` in an ancestor of `start` or in its lib/
    (the build tree: build/python/birsim beside build/lib; an installed
    prefix: lib/python3/dist-packages/birsim below lib), so a moved prefix
    still finds its own libraries; OSError when there is none."""
    if os.environ.get(variable):
        return os.environ[variable]
    here = os.path.dirname(os.path.abspath(start))
    while True:
        for candidate in (os.path.join(here, library),
                          os.path.join(here, "lib", library)):
            if os.path.exists(candidate):
                return candidate
        parent = os.path.dirname(here)
        if parent == here:
            raise OSError("%s not found above %s (set %s)"
                          % (library, start, variable))
        here = parent


class Runtime:
    """The library with its signatures, and its tables."""

    def __init__(self, path):
        self.lib = _c.CDLL(path)
        self.functions = bind(self.lib, path, "birsim_function_count",
                              "birsim_function_info")

    def error(self):
        return self.lib.birsim_last_error().decode()

    def check(self, status, error=RuntimeError):
        if status != 0:
            raise error(status, self.error())

    def dtypes(self):
        """The bir::Dtype table, row by row (birsim_dtype_info)."""
        rows = []
        for number in range(self.lib.birsim_dtype_count()):
            info = DtypeInfo()
            self.check(self.lib.birsim_dtype_info(number, _c.byref(info),
                                                  _c.sizeof(info)))
            rows.append(Dtype(number, *(
                f.decode() if isinstance(f, bytes) else f
                for f in (getattr(info, name) for name, _ in info._fields_))))
        return rows

    def names(self, query):
        """Every name of an enumeration's table, by number: query is
        "memory_reduction_op", "alu_op_type", "bfp_format",
        "bfp_mixed_code" or "bfp_mixed_metric"."""
        fn = getattr(self.lib, "birsim_%s_name" % query)
        names = []
        while fn(len(names)):
            names.append(fn(len(names)).decode())
        return names

    def bfp_formats(self):
        """The BFP format table (number, name, exponent kind, magnitude and
        datum bits)."""
        return [BfpFormat(n, name, self.lib.birsim_bfp_exponent_kind(n).decode(),
                          self.lib.birsim_bfp_mantissa_bits(n),
                          self.lib.birsim_bfp_datum_bits(n))
                for n, name in enumerate(self.names("bfp_format"))]

    def _flags(self, query):
        flags, value = {}, _c.c_uint()
        while True:
            name = query(len(flags), _c.byref(value))
            if not name:
                return flags
            flags[name.decode()] = value.value

    def fp8_config_flags(self):
        """The FP8 config flags: name -> config bits."""
        return self._flags(self.lib.birsim_fp8_config_flag)

    def bfp_flags(self):
        """The BFP entry points' flags: name -> bits (BfpFlags.def)."""
        return self._flags(self.lib.birsim_bfp_flag)

    def bfp_page_flags(self):
        """The DRAM page alignments the BFP flags select: bytes -> bits."""
        pages = {}
        for i, bits in enumerate(self.bfp_flags().values()):
            page = self.lib.birsim_bfp_flag_page_bytes(i)
            if page:
                pages[page] = bits
        return pages

    def fidelity_layout(self):
        """struct birsim_fidelity_counts as (family, key) per uint64 field, in
        order: each family's `elements`, then its keys (Fidelity.def)."""
        families = []
        while self.lib.birsim_fidelity_family_name(len(families)):
            families.append(self.lib.birsim_fidelity_family_name(
                len(families)).decode())
        keys, family, event = {f: [] for f in families}, _c.c_int(), 0
        while True:
            key = self.lib.birsim_fidelity_event_key(event, _c.byref(family))
            if not key:
                break
            keys[families[family.value]].append(key.decode())
            event += 1
        return [(f, k) for f in families for k in ["elements"] + keys[f]]

    # Byte-level forms for the generators (no NumPy).
    def accumulate(self, op, dst, src, dtype, count):
        out = _c.create_string_buffer(bytes(dst), len(dst))
        self.check(self.lib.birsim_accumulate(op, out, bytes(src), dtype, count))
        return out.raw

    def cast(self, src_dtype, src, dst_dtype, dst_bytes, count, config):
        out = _c.create_string_buffer(dst_bytes * count)
        self.check(self.lib.birsim_cast(src_dtype, bytes(src), dst_dtype, out,
                                        count, config))
        return out.raw

    def collective(self, alu, acc, x, count):
        out = _c.create_string_buffer(bytes(acc), len(acc))
        self.check(self.lib.birsim_collective_reduce(alu, out, bytes(x), count))
        return out.raw

    def scatter(self, op, dst, dst_count, src, indices, dtype):
        out = _c.create_string_buffer(bytes(dst), len(dst))
        idx = (_c.c_int64 * len(indices))(*indices)
        self.check(self.lib.birsim_scatter_accumulate(
            op, out, dst_count, bytes(src), idx, len(indices), dtype))
        return out.raw

    def bfp_pack(self, fmt, tiles, count):
        out = _c.create_string_buffer(self.lib.birsim_bfp_tile_bytes(fmt) * count)
        self.check(self.lib.birsim_bfp_pack_tiles(fmt, bytes(tiles), count, out))
        return out.raw
