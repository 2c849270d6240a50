"""The package's array rules (docs/Python.md "Arrays", docs/Decisions.md D33,
D34): never a byte outside `out`, read-only arrays never written, byte
order read, same-size types never reinterpreted, shapes kept, misuse
raised as NumPy would; then properties of every function against the C ABI
over random shapes, strides, byte orders, read-only flags, 0-d and empty
arrays and overlapping views, each with guard elements around `out`."""
import mmap

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

import birsim

RT = birsim._core._rt


def guarded(n, dtype, fill=0):
    """An array of n elements inside a buffer with 8 guard elements each
    side: (whole buffer, the array)."""
    whole = np.full(n + 16, fill, dtype)
    return whole, whole[8:8 + n]


# 1. Writes outside `out`.

def test_reversed_out_sharing_memory_writes_nothing_outside():
    big = np.arange(16, dtype=np.float32) * 10
    base = big[:8]
    before = big.copy()
    with pytest.raises(birsim.BirsimError, match="partly overlap") as e:
        birsim.accumulate("add", np.ones(4, np.float32), base[2:6],
                          out=base[7:3:-1])
    assert e.value.status == -1
    assert (big == before).all()


def test_strided_out_over_a_source_writes_nothing():
    base = np.arange(8, dtype=np.float32)
    before = base.copy()
    with pytest.raises(birsim.BirsimError, match="partly overlap"):
        birsim.accumulate("add", np.ones(4, np.float32), base[4:8],
                          out=base[0:8:2])
    assert (base == before).all()
    with pytest.raises(birsim.BirsimError, match="overlap"):
        birsim.scatter_accumulate("add", np.zeros(4, np.float32), base[4:6],
                                  [0, 1], out=base[0:8:2])
    with pytest.raises(birsim.BirsimError, match="partly overlap"):
        birsim.collective_reduce("add", np.ones(4, np.float32), base[4:8],
                                 out=base[0:8:2])
    assert (base == before).all()


def test_strided_out_apart_from_the_sources_gets_the_result():
    whole, _ = guarded(16, np.float32, fill=-7)
    out = whole[8:24:2]
    dst = np.arange(8, dtype=np.float32)
    assert birsim.accumulate("add", dst, dst, out=out) is out
    assert out.tolist() == (2 * dst).tolist()
    assert (whole[:8] == -7).all() and (whole[24:] == -7).all()
    assert (whole[9:24:2] == -7).all()


def test_out_dst_itself_with_a_strided_overlapping_src_is_the_error():
    """out=dst passed as the same array takes a shortcut; a src that
    partly overlaps it is still the aliasing error, even when strided (so
    copied before the call), as it is for any other view of dst."""
    buf = np.arange(16, dtype=np.float32)
    dst, src = buf[:8], buf[1:16:2]
    before = buf.copy()
    for out in (dst, buf[:8]):
        with pytest.raises(birsim.BirsimError, match="partly overlap"):
            birsim.accumulate("add", dst, src, out=out)
        assert buf.tobytes() == before.tobytes()


def test_out_equal_to_a_strided_dst_runs_in_place():
    buf = np.arange(8, dtype=np.float32)
    view = buf[::2]
    birsim.accumulate("add", view, np.ones(4, np.float32), out=view)
    assert buf.tolist() == [1, 1, 3, 3, 5, 5, 7, 7]


# 2. Read-only arrays.

def test_read_only_out_is_a_value_error_and_unchanged():
    dst = np.ones(4, np.float32)
    dst.flags.writeable = False
    with pytest.raises(ValueError, match="output array is read-only"):
        birsim.accumulate("add", dst, dst, out=dst)
    assert dst.tolist() == [1.0] * 4
    with pytest.raises(ValueError, match="output array is read-only"):
        birsim.scatter_accumulate("add", dst, np.ones(1, np.float32), [0],
                                  out=dst)
    with pytest.raises(ValueError, match="output array is read-only"):
        birsim.collective_reduce("add", dst, dst, out=dst)


def test_immutable_bytes_and_read_only_maps_are_inputs_only(tmp_path):
    data = bytes(np.ones(4, np.float32).tobytes())
    x = np.frombuffer(data, np.float32)
    with pytest.raises(ValueError, match="read-only"):
        birsim.accumulate("add", x, x, out=x)
    assert data == np.ones(4, np.float32).tobytes()
    assert birsim.accumulate("add", x, x).tolist() == [2.0] * 4
    path = tmp_path / "w.npy"
    np.save(path, np.ones(64, np.float32))
    mapped = np.load(path, mmap_mode="r")
    with pytest.raises(ValueError, match="read-only"):
        birsim.accumulate("add", mapped, mapped, out=mapped)
    assert birsim.accumulate("add", mapped, mapped)[0] == 2.0
    assert (np.load(path) == 1).all()


# 3. Byte order.

def test_non_native_inputs_give_their_values():
    big_endian = np.arange(4, dtype=">f4")
    assert birsim.cast(big_endian, "float32").tolist() == [0, 1, 2, 3]
    assert birsim.accumulate("add", big_endian, big_endian).tolist() == [
        0, 2, 4, 6]
    bf16 = np.array([0x3F80, 0x4000], ">u2")
    assert birsim.to_float32(bf16, "bfloat16").tolist() == [1.0, 2.0]
    packed = birsim.bfp_pack(np.ones(1024, ">f4"), "bfp8_b")
    assert (packed == birsim.bfp_pack(np.ones(1024, np.float32), "bfp8_b")).all()
    idx = np.array([1, 1], ">i8")
    assert birsim.scatter_accumulate("add", np.zeros(2, np.float32),
                                     np.ones(2, np.float32), idx).tolist() == [0, 2]


def test_non_native_out_is_a_value_error():
    out = np.zeros(4, ">f4")
    with pytest.raises(ValueError, match="byte order"):
        birsim.accumulate("add", np.ones(4, np.float32), np.ones(4, np.float32),
                          out=out)
    assert (out == 0).all()


# 4. Same-size types.

def test_same_size_types_are_type_errors_naming_both():
    with pytest.raises(TypeError, match="int32 array is not float32"):
        birsim.accumulate("add", np.zeros(4, np.int32), np.zeros(4, np.int32),
                          "float32")
    out = np.zeros(4, np.uint32)
    with pytest.raises(TypeError, match="uint32 array is not float32"):
        birsim.accumulate("add", np.ones(4, np.float32), np.ones(4, np.float32),
                          out=out)
    assert (out == 0).all()
    with pytest.raises(TypeError, match="uint16 array is not float32"):
        birsim.collective_reduce("add", np.uint16([0x3F80]).astype(np.float32)
                                 .view(np.uint32).astype(np.uint16),
                                 np.zeros(1, np.float32))
    with pytest.raises(TypeError, match="float16 array is not bfloat16"):
        birsim.to_float32(np.zeros(2, np.float16), "bfloat16")
    # A type's bit storage is that type.
    assert birsim.to_float32(np.uint16([0x3F80]), "bfloat16").tolist() == [1.0]


def test_float_and_boolean_indices_are_index_errors():
    dst = np.zeros(8, np.float32)
    for bad in ([0.7, 1.2, 5.9], np.array([True, False, True])):
        with pytest.raises(IndexError, match="integers"):
            birsim.scatter_accumulate("add", dst, np.ones(3, np.float32), bad)
    assert (dst == 0).all()


# 5. Shapes and errors.

def test_zero_d_keeps_its_shape_and_lists_follow_the_rule():
    x = np.float32(3.0)
    assert birsim.accumulate("add", np.array(x), np.array(x)).shape == ()
    assert birsim.cast(np.array(1.0, np.float32), "bfloat16").shape == ()
    assert birsim.round_trip(np.array(0.1, np.float32), "bfloat16").shape == ()
    assert birsim.accumulate("add", [1, 2], [3, 4], "int64").tolist() == [4, 6]
    with pytest.raises(TypeError, match="float64 array is not float32"):
        birsim.accumulate("add", [1.0], [1.0], "float32")
    with pytest.raises(TypeError, match="float64 has no bir::Dtype"):
        birsim.accumulate("add", [1.0], [1.0])


@pytest.mark.parametrize("call, error, words", [
    (lambda: birsim.accumulate("add", np.ones(2, np.float32),
                               np.ones(2, np.float32), out=[0, 0]),
     TypeError, "out must be a numpy.ndarray"),
    (lambda: birsim.bfp_pack(np.ones(1024, np.float32), "bfp8_b", tile=32),
     TypeError, "tile must be"),
    (lambda: birsim.bfp_pack(np.ones(1024, np.float32), "bfp8_b", tile=(32,)),
     TypeError, "tile must be"),
    (lambda: birsim.bfp_pack(np.ones(1024, np.float32), "bfp8_b",
                             tile=(-32, 32)), ValueError, "tile rows"),
    (lambda: birsim.bfp_pack(np.ones(1000, np.float32), "bfp8_b"),
     ValueError, "not whole 32x32 tiles"),
    (lambda: birsim.bfp_unpack(np.zeros(10, np.uint8), "bfp8_b", -1),
     ValueError, "tile_count"),
    (lambda: birsim.bfp_unpack(np.zeros(10, np.uint8), "bfp8_b", 1),
     ValueError, "10 bytes"),
    (lambda: birsim.bfp_unpack_matrix(np.zeros(1088, np.uint8), "bfp8_b",
                                      (32, -32)), ValueError, "shape"),
    (lambda: birsim.bfp_unpack_matrix(np.zeros(1088, np.uint8), "bfp8_b", 32),
     TypeError, "shape"),
    (lambda: birsim.bfp_pack_matrix(np.ones(64, np.float32), "bfp8_b"),
     ValueError, "rank 2"),
    (lambda: birsim.bfp_pack(np.ones(1024, np.float32), "bfp9"),
     ValueError, "BFP format"),
    (lambda: birsim.cast(np.ones(2, np.float32), "float9"),
     TypeError, "unknown dtype 'float9'"),
    (lambda: birsim.cast(np.ones(2, np.float32), "float8e4",
                         fp8_config="clamp"), ValueError, "fp8_config"),
    (lambda: birsim.cast(np.ones(2, np.float32), "float8e4", fp8_config=-1),
     ValueError, "fp8_config"),
    (lambda: birsim.accumulate("mul", np.ones(2, np.float32),
                               np.ones(2, np.float32)), ValueError, "op"),
    (lambda: birsim.accumulate("add", np.ones(2, np.float32),
                               np.ones(3, np.float32)), ValueError, "shapes"),
    (lambda: birsim.scatter_accumulate("add", np.ones(2, np.float32),
                                       np.ones(3, np.float32), [0]),
     ValueError, "1 indices for 3"),
    (lambda: birsim.collective_reduce("bypass", np.ones(2, np.float32),
                                      np.ones(2, np.float32)),
     birsim.BirsimError, "AluOpType"),
    (lambda: birsim.set_num_threads(-1), ValueError, "at least 0"),
    (lambda: birsim.set_num_threads(True), TypeError, "integer"),
])
def test_misuse_raises_the_python_error_naming_the_argument(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_birsim_error_is_only_the_runtimes():
    with pytest.raises(birsim.BirsimError) as e:
        birsim.accumulate("add", np.zeros(2, np.uint32), np.zeros(2, np.uint32))
    assert (e.value.status, e.value.message) == (
        -3, RT.error()) and "unsupported dtype uint32" in e.value.message
    with pytest.raises(birsim.BirsimError) as e:
        birsim.scatter_accumulate("add", np.zeros(2, np.float32),
                                  np.ones(1, np.float32), [5])
    assert e.value.status == -6


# Properties: every function against the C ABI, nothing outside `out`.

DTYPES = [d for d in birsim.dtypes
          if d.reduction != "none" and d.kind != "float32r"]


@st.composite
def layouts(draw, dtype):
    """(array as the caller holds it, its native contiguous bytes): a random
    shape (0-d and empty included), stride, byte order and read-only flag."""
    storage = birsim.storage_type(dtype)
    shape = tuple(draw(st.lists(st.integers(0, 5), max_size=3)))
    n = int(np.prod(shape, dtype=np.int64))
    step = draw(st.sampled_from([1, 2, -1]))
    raw = draw(st.binary(min_size=n * storage.itemsize * abs(step),
                         max_size=n * storage.itemsize * abs(step)))
    base = np.frombuffer(raw, storage).copy()
    array = base[::step][:n] if n else base[:0]
    array = array.reshape(shape)
    value_bytes = np.ascontiguousarray(array).tobytes()
    if draw(st.booleans()) and storage.itemsize > 1:
        array = array.astype(array.dtype.newbyteorder(">"))
    if draw(st.booleans()):
        array.flags.writeable = False
    return array, value_bytes


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_accumulate_and_cast_equal_the_c_abi(data):
    d = data.draw(st.sampled_from(DTYPES))
    op = data.draw(st.integers(0, 3))
    dst, dst_bytes = data.draw(layouts(d.name))
    src = data.draw(st.binary(min_size=len(dst_bytes), max_size=len(dst_bytes)))
    src = np.frombuffer(src, birsim.storage_type(d.name)).reshape(dst.shape)
    count = len(dst_bytes) // d.bytes
    want = RT.accumulate(op, dst_bytes, src.tobytes(), d.number, count)
    got = birsim.accumulate(op, dst, src, d.name)
    assert got.shape == dst.shape and got.tobytes() == want
    # Into a guarded, separate out.
    whole, out = guarded(count, birsim.storage_type(d.name), fill=0x55)
    out = out.reshape(dst.shape)
    assert birsim.accumulate(op, dst, src, d.name, out=out) is out
    assert out.tobytes() == want
    assert whole[:8].tobytes() == whole[-8:].tobytes() == np.full(
        8, 0x55, whole.dtype).tobytes()
    x = np.frombuffer(dst_bytes, birsim.storage_type(d.name))
    for target in ("float32", "bfloat16", "float8e4"):
        got = birsim.cast(dst, target, src_dtype=d.name)
        assert got.shape == dst.shape
        assert got.tobytes() == RT.cast(d.number, x.tobytes(),
                                        birsim.dtype_of(target).number,
                                        birsim.dtype_of(target).bytes,
                                        count, 1)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_scatter_equals_the_c_abi_and_overlaps_write_nothing(data):
    n = data.draw(st.integers(1, 12))
    whole = np.arange(n + 16, dtype=np.float32)
    before = whole.copy()
    dst = whole[8:8 + n]
    m = data.draw(st.integers(0, 6))
    idx = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=m,
                                      max_size=m)), np.int64)
    src = np.arange(m, dtype=np.float32) + 0.5
    want = RT.scatter(1, dst.tobytes(), n, src.tobytes(), idx.tolist(), 16)
    assert birsim.scatter_accumulate("add", dst, src, idx).tobytes() == want
    # An out overlapping dst anywhere but exactly: the aliasing error.
    lo = data.draw(st.integers(0, 16))
    out = whole[lo:lo + n]
    if lo != 8 and np.shares_memory(out, dst):
        with pytest.raises(birsim.BirsimError, match="overlap"):
            birsim.scatter_accumulate("add", dst, src, idx, out=out)
        assert whole.tobytes() == before.tobytes()
    else:
        birsim.scatter_accumulate("add", dst, src, idx, out=out)
        assert whole[lo:lo + n].tobytes() == want
        assert (whole[:lo] == before[:lo]).all() and (
            whole[lo + n:] == before[lo + n:]).all()


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_elementwise_out_over_any_view_writes_only_out(data):
    """Any out view of a buffer the operands live in: exact aliasing of
    dst runs in place, any other overlap is the runtime's error with
    nothing written, and disjoint views get the result; nothing outside
    `out` ever changes."""
    whole = np.arange(40, dtype=np.float32) - 12.5
    n = data.draw(st.integers(1, 8))
    def view():
        start = data.draw(st.integers(0, 39))
        step = data.draw(st.sampled_from([1, 2, 3, -1, -2]))
        v = whole[start::step][:n]
        return v if v.size == n else None
    dst, src, out = view(), view(), view()
    if dst is None or src is None or out is None:
        return
    fn = data.draw(st.sampled_from(["accumulate", "collective_reduce"]))
    call = (lambda **k: birsim.accumulate("add", dst, src, **k)) \
        if fn == "accumulate" else \
        (lambda **k: birsim.collective_reduce("add", dst, src, **k))
    before = whole.copy()
    want = call()
    overlap = any(np.shares_memory(out, a) and not (
        out.__array_interface__["data"][0] == a.__array_interface__["data"][0]
        and out.strides == a.strides) for a in (dst, src))
    if overlap:
        with pytest.raises(birsim.BirsimError, match="partly overlap"):
            call(out=out)
        assert whole.tobytes() == before.tobytes()
        return
    call(out=out)
    assert out.tobytes() == want.tobytes()
    mask = np.ones(40, bool)
    mask[[i for i in range(40) if np.shares_memory(whole[i:i + 1], out)]] = False
    assert whole[mask].tobytes() == before[mask].tobytes()


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_collective_reduce_equals_the_c_abi(data):
    acc, acc_bytes = data.draw(layouts("float32"))
    x = np.frombuffer(data.draw(st.binary(min_size=len(acc_bytes),
                                          max_size=len(acc_bytes))),
                      np.float32).reshape(acc.shape)
    alu = data.draw(st.sampled_from(["add", "max", "min"]))
    number = birsim._core._ALU_OP_TYPES.index(alu)
    want = RT.collective(number, acc_bytes, x.tobytes(), len(acc_bytes) // 4)
    got = birsim.collective_reduce(alu, acc, x)
    assert got.shape == acc.shape and got.tobytes() == want
    whole, out = guarded(x.size, np.float32, fill=-3)
    assert birsim.collective_reduce(alu, acc, x, out=out.reshape(acc.shape)) \
        is not None
    assert out.tobytes() == want
    assert (whole[:8] == -3).all() and (whole[-8:] == -3).all()


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_bfp_forms_equal_the_c_abi_on_any_layout(data):
    fmt = data.draw(st.sampled_from(birsim.bfp_formats))
    tiles = data.draw(st.integers(0, 2))
    raw = np.random.default_rng(data.draw(st.integers(0, 1 << 30))).normal(
        0, 8, tiles * 1024).astype(np.float32)
    x = raw.astype(data.draw(st.sampled_from(["<f4", ">f4"])))
    if data.draw(st.booleans()):
        x.flags.writeable = False
    packed = birsim.bfp_pack(x, fmt.name)
    assert packed.tobytes() == RT.bfp_pack(fmt.number, raw.tobytes(), tiles)
    back = birsim.bfp_unpack(packed, fmt.name, tiles)
    assert back.shape == (tiles, 32, 32)
    assert (birsim.bfp_unpack(packed.tobytes(), fmt.name) == back).all()


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_bfp_matrix_forms_equal_the_c_abi_on_any_layout(data):
    """bfp_pack_matrix / bfp_unpack_matrix on strided, reversed, big-endian,
    read-only and bf16-bits inputs equal the C calls on the contiguous
    native values, with guard bytes around the C call's output."""
    fmt = data.draw(st.sampled_from(birsim.bfp_formats))
    tile = data.draw(st.sampled_from([(32, 32), (16, 32), (32, 16), (16, 16)]))
    rows = tile[0] * data.draw(st.integers(0, 2))
    cols = tile[1] * data.draw(st.integers(1, 2))
    lead = data.draw(st.sampled_from([(), (1,), (2,)]))
    if lead and rows % (2 * tile[0]):
        lead = ()
    shape = lead + ((rows // lead[0],) if lead else (rows,)) + (cols,)
    transpose = data.draw(st.booleans()) and tile[0] in (16, 32)
    rng = np.random.default_rng(data.draw(st.integers(0, 1 << 30)))
    values = rng.normal(0, 4, shape).astype(np.float32)
    src_dtype = data.draw(st.sampled_from([None, "bfloat16"]))
    if src_dtype:
        values = birsim.cast(values, "bfloat16")
    caller = values
    if data.draw(st.booleans()):  # a reversed, strided view of the same values
        big = np.empty(shape[:-1] + (2 * cols,), values.dtype)
        big[..., ::2] = values[..., ::-1]
        caller = big[..., ::2][..., ::-1]
    if data.draw(st.booleans()):
        caller = caller.astype(caller.dtype.newbyteorder(">"))
    if data.draw(st.booleans()):
        caller = np.array(caller)
        caller.flags.writeable = False
    flags = 2 if transpose else 0
    tile_bytes = RT.lib.birsim_bfp_packed_tile_bytes(fmt.number, *tile)
    tiles = (rows // tile[0]) * (cols // tile[1])
    want = np.full(tiles * tile_bytes + 32, 0xEE, np.uint8)
    contiguous = np.ascontiguousarray(values)
    row = birsim.dtype_of(src_dtype or "float32")
    assert RT.lib.birsim_bfp_pack_matrix(
        fmt.number, row.number, contiguous.ctypes.data, rows, cols, tile[0],
        tile[1], flags, want[16:].ctypes.data) == 0
    assert (want[:16] == 0xEE).all() and (want[-16:] == 0xEE).all()
    got = birsim.bfp_pack_matrix(caller, fmt.name, tile=tile,
                                 transpose=transpose, src_dtype=src_dtype)
    assert got.tobytes() == want[16:-16].tobytes()
    back = birsim.bfp_unpack_matrix(got[::-1][::-1], fmt.name, shape, tile=tile,
                                    transpose=transpose)
    plain = np.full(rows * cols + 8, -1, np.float32)
    assert RT.lib.birsim_bfp_unpack_matrix(
        fmt.number, want[16:].ctypes.data, rows, cols, tile[0], tile[1], flags,
        plain[4:].ctypes.data) == 0
    assert (plain[:4] == -1).all() and (plain[-4:] == -1).all()
    assert back.shape == shape and back.tobytes() == plain[4:-4].tobytes()


def test_mmap_of_a_read_only_file_is_read_not_written(tmp_path):
    path = tmp_path / "raw.bin"
    path.write_bytes(np.ones(16, np.float32).tobytes())
    with open(path, "rb") as f:
        m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        x = np.frombuffer(m, np.float32)
        with pytest.raises(ValueError, match="read-only"):
            birsim.collective_reduce("add", x, x, out=x)
        assert birsim.collective_reduce("add", x, x)[0] == 2.0
        del x
        m.close()
