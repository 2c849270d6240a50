"""ctypes access to libbirsim_runtime.so.0: the C ABI's signatures and the
tables behind it (birsim_dtype_info and the name queries of Runtime.h),
read from the runtime, never copied here. No NumPy: the repository's
generators use this module too (utils/birsim_runtime.py)."""
import collections
import ctypes
import os

_c = ctypes
_size = _c.c_size_t
_u32 = _c.c_uint32


class DtypeInfo(_c.Structure):
    """struct birsim_dtype_info (include/birsim/Runtime/Runtime.h)."""
    _fields_ = [("name", _c.c_char_p), ("mlir_type", _c.c_char_p),
                ("kind", _c.c_char_p), ("reduction", _c.c_char_p),
                ("bytes", _c.c_uint32), ("exponent_bits", _c.c_uint32),
                ("mantissa_bits", _c.c_uint32), ("bias", _c.c_int32)]


Dtype = collections.namedtuple(
    "Dtype", ["number"] + [name for name, _ in DtypeInfo._fields_])
BfpFormat = collections.namedtuple(
    "BfpFormat", ["number", "name", "exponent", "mantissa_bits", "datum_bits"])

# Runtime.h's signatures: (result, argument types) by function name.
_SIGNATURES = {
    "birsim_last_error": (_c.c_char_p, []),
    "birsim_version": (_c.c_char_p, []),
    "birsim_active_isa": (_c.c_char_p, []),
    "birsim_set_num_threads": (_c.c_int, [_c.c_int]),
    "birsim_dtype_count": (_c.c_int, []),
    "birsim_dtype_info": (_c.c_int, [_c.c_int, _c.c_void_p, _size]),
    "birsim_memory_reduction_op_name": (_c.c_char_p, [_c.c_int]),
    "birsim_alu_op_type_name": (_c.c_char_p, [_c.c_int]),
    "birsim_bfp_format_name": (_c.c_char_p, [_c.c_int]),
    "birsim_bfp_exponent_kind": (_c.c_char_p, [_c.c_int]),
    "birsim_bfp_mantissa_bits": (_u32, [_c.c_int]),
    "birsim_bfp_tile_bytes": (_size, [_c.c_int]),
    "birsim_bfp_packed_tile_bytes": (_size, [_c.c_int, _u32, _u32]),
    "birsim_fp8_config_flag": (_c.c_char_p, [_c.c_int, _c.POINTER(_c.c_uint)]),
    "birsim_fidelity_family_name": (_c.c_char_p, [_c.c_int]),
    "birsim_fidelity_event_key": (_c.c_char_p, [_c.c_int, _c.POINTER(_c.c_int)]),
    "birsim_fidelity_enable": (None, [_c.c_int]),
    "birsim_fidelity_enabled": (_c.c_int, []),
    "birsim_fidelity_counters_sized": (_c.c_int, [_c.c_void_p, _size]),
    "birsim_accumulate": (_c.c_int, [_c.c_int, _c.c_void_p, _c.c_void_p,
                                     _c.c_int, _size]),
    "birsim_accumulate_into": (_c.c_int, [_c.c_int, _c.c_void_p, _c.c_void_p,
                                          _c.c_void_p, _c.c_int, _size]),
    "birsim_scatter_accumulate": (_c.c_int, [_c.c_int, _c.c_void_p, _size,
                                             _c.c_void_p, _c.c_void_p, _size,
                                             _c.c_int]),
    "birsim_collective_reduce": (_c.c_int, [_c.c_int, _c.c_void_p,
                                            _c.c_void_p, _size]),
    "birsim_alu_op_to_memory_reduction": (_c.c_int, [_c.c_int,
                                                     _c.POINTER(_c.c_int)]),
    "birsim_cast": (_c.c_int, [_c.c_int, _c.c_void_p, _c.c_int, _c.c_void_p,
                               _size, _c.c_uint]),
    "birsim_bfp_pack_tiles": (_c.c_int, [_c.c_int, _c.c_void_p, _size,
                                         _c.c_void_p]),
    "birsim_bfp_pack": (_c.c_int, [_c.c_int, _c.c_int, _c.c_void_p, _size,
                                   _u32, _u32, _c.c_uint, _c.c_void_p]),
    "birsim_bfp_unpack": (_c.c_int, [_c.c_int, _c.c_void_p, _size, _u32, _u32,
                                     _c.c_uint, _c.c_void_p]),
    "birsim_bfp_pack_matrix": (_c.c_int, [_c.c_int, _c.c_int, _c.c_void_p,
                                          _size, _size, _u32, _u32, _c.c_uint,
                                          _c.c_void_p]),
    "birsim_bfp_unpack_matrix": (_c.c_int, [_c.c_int, _c.c_void_p, _size,
                                            _size, _u32, _u32, _c.c_uint,
                                            _c.c_void_p]),
}

LIBRARY = "libbirsim_runtime.so.0"


def find_library(start):
    """BIRSIM_RUNTIME, else libbirsim_runtime.so.0 in an ancestor of
    `start` or in its lib/ (the build tree: build/python/birsim beside
    build/lib; an installed prefix: lib/python3/dist-packages/birsim below
    lib), so a moved prefix still finds its own runtime."""
    if os.environ.get("BIRSIM_RUNTIME"):
        return os.environ["BIRSIM_RUNTIME"]
    here = os.path.dirname(os.path.abspath(start))
    while True:
        for candidate in (os.path.join(here, LIBRARY),
                          os.path.join(here, "lib", LIBRARY)):
            if os.path.exists(candidate):
                return candidate
        parent = os.path.dirname(here)
        if parent == here:
            raise OSError("%s not found above %s (set BIRSIM_RUNTIME)"
                          % (LIBRARY, start))
        here = parent


class Runtime:
    """The library with its signatures, and its tables."""

    def __init__(self, path):
        self.lib = _c.CDLL(path)
        for name, (result, args) in _SIGNATURES.items():
            fn = getattr(self.lib, name)
            fn.restype, fn.argtypes = result, args

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
        "memory_reduction_op", "alu_op_type" or "bfp_format"."""
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
                          self.lib.birsim_bfp_mantissa_bits(n) + 1)
                for n, name in enumerate(self.names("bfp_format"))]

    def fp8_config_flags(self):
        """The FP8 config flags: name -> config bits."""
        flags, value = {}, _c.c_uint()
        while True:
            name = self.lib.birsim_fp8_config_flag(len(flags), _c.byref(value))
            if not name:
                return flags
            flags[name.decode()] = value.value

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
