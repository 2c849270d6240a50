"""ctypes access to libbirsim_runtime.so for the repository's generators and
table checks: the tables come from the runtime (birsim_dtype_info and the
name queries of Runtime.h), never from a copy here."""
import collections
import ctypes


class DtypeInfo(ctypes.Structure):
    """struct birsim_dtype_info (include/birsim/Runtime/Runtime.h)."""
    _fields_ = [("name", ctypes.c_char_p), ("mlir_type", ctypes.c_char_p),
                ("kind", ctypes.c_char_p), ("reduction", ctypes.c_char_p),
                ("bytes", ctypes.c_uint32), ("exponent_bits", ctypes.c_uint32),
                ("mantissa_bits", ctypes.c_uint32), ("bias", ctypes.c_int32)]


Dtype = collections.namedtuple(
    "Dtype", ["number"] + [name for name, _ in DtypeInfo._fields_])


class Runtime:
    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        self.lib.birsim_last_error.restype = ctypes.c_char_p

    def _check(self, status):
        if status != 0:
            raise RuntimeError(self.lib.birsim_last_error().decode())

    def accumulate(self, op, dst, src, dtype, count):
        out = ctypes.create_string_buffer(bytes(dst), len(dst))
        self._check(self.lib.birsim_accumulate(op, out, bytes(src), dtype,
                                               ctypes.c_size_t(count)))
        return out.raw

    def cast(self, src_dtype, src, dst_dtype, dst_bytes, count, config):
        out = ctypes.create_string_buffer(dst_bytes * count)
        self._check(self.lib.birsim_cast(src_dtype, bytes(src), dst_dtype, out,
                                         ctypes.c_size_t(count),
                                         ctypes.c_uint(config)))
        return out.raw

    def collective(self, alu, acc, x, count):
        out = ctypes.create_string_buffer(bytes(acc), len(acc))
        self._check(self.lib.birsim_collective_reduce(alu, out, bytes(x),
                                                      ctypes.c_size_t(count)))
        return out.raw

    def scatter(self, op, dst, dst_count, src, indices, dtype):
        out = ctypes.create_string_buffer(bytes(dst), len(dst))
        idx = (ctypes.c_int64 * len(indices))(*indices)
        self._check(self.lib.birsim_scatter_accumulate(
            op, out, ctypes.c_size_t(dst_count), bytes(src), idx,
            ctypes.c_size_t(len(indices)), dtype))
        return out.raw

    def dtypes(self):
        """The bir::Dtype table, row by row (birsim_dtype_info)."""
        rows = []
        for number in range(self.lib.birsim_dtype_count()):
            info = DtypeInfo()
            self._check(self.lib.birsim_dtype_info(
                number, ctypes.byref(info), ctypes.c_size_t(ctypes.sizeof(info))))
            rows.append(Dtype(number, *(
                f.decode() if isinstance(f, bytes) else f
                for f in (getattr(info, name) for name, _ in info._fields_))))
        return rows

    def bfp_formats(self):
        """The BFP format table: (number, name, exponent kind, tile bytes)."""
        self.lib.birsim_bfp_format_name.restype = ctypes.c_char_p
        self.lib.birsim_bfp_exponent_kind.restype = ctypes.c_char_p
        self.lib.birsim_bfp_tile_bytes.restype = ctypes.c_size_t
        rows, number = [], 0
        while self.lib.birsim_bfp_format_name(number):
            rows.append((number, self.lib.birsim_bfp_format_name(number).decode(),
                         self.lib.birsim_bfp_exponent_kind(number).decode(),
                         self.lib.birsim_bfp_tile_bytes(number)))
            number += 1
        return rows

    def enum_names(self, query):
        """Every name of an enumeration's table: query is
        "memory_reduction_op", "alu_op_type" or "bfp_format"."""
        fn = getattr(self.lib, "birsim_%s_name" % query)
        fn.restype = ctypes.c_char_p
        names = []
        while fn(len(names)):
            names.append(fn(len(names)).decode())
        return names

    def bfp_pack(self, fmt, tiles, count):
        self.lib.birsim_bfp_tile_bytes.restype = ctypes.c_size_t
        out = ctypes.create_string_buffer(self.lib.birsim_bfp_tile_bytes(fmt) * count)
        self._check(self.lib.birsim_bfp_pack_tiles(fmt, bytes(tiles),
                                                   ctypes.c_size_t(count), out))
        return out.raw
