"""birsim.tensix_eltwise, tensix_pack and tensix_mul_tiles: the silicon
numbers, agreement with the runtime's C entry points element by element,
NumPy and torch in and out, and misuse raising before any call."""
import ctypes

import numpy as np
import pytest

import birsim

rt = birsim._core._rt.lib


def bf16(bits):
    return birsim.to_float32(np.asarray(bits, np.uint16), "bfloat16")


@pytest.mark.parametrize("fidelity, want", [("hifi2", 10.4375),
                                            ("hifi4", 10.5)])
def test_issue_12923(fidelity, want):
    d = birsim.tensix_eltwise(np.float32([1.3125]), np.float32([7.96875]),
                              fidelity=fidelity, dest="bf16")
    assert bf16(d).tolist() == [want]


def test_issue_16448_and_pr_35077_through_mul_tiles():
    got = birsim.tensix_mul_tiles(np.float32([-3.640625, -3.640625]),
                                  np.float32([0.298828125, 0.30078125]),
                                  "hifi4", dest="bf16", out_format="float32")
    assert got.tolist() == [-1.09375, -1.1015625]
    for fidelity, want in (("lofi", 368640), ("hifi2", 376832),
                           ("hifi3", 378880), ("hifi4", 378880)):
        got = birsim.tensix_mul_tiles(np.float32([508]), np.float32([748]),
                                      fidelity, dest="bf16",
                                      out_format="float32")
        assert got.tolist() == [want], fidelity


def test_fidelity_spellings_are_one_phase_set():
    a = np.random.default_rng(1).standard_normal(256).astype(np.float32)
    b = np.random.default_rng(2).standard_normal(256).astype(np.float32)
    ref = birsim.tensix_eltwise(a, b, fidelity=0x5)
    for spelling in ([0, 2], (2, 0), 5, np.int64(5)):
        assert np.array_equal(birsim.tensix_eltwise(a, b, fidelity=spelling),
                              ref)
    assert np.array_equal(birsim.tensix_eltwise(a, b, fidelity="HiFi2"),
                          birsim.tensix_eltwise(a, b, fidelity=3))


@pytest.mark.parametrize("dest, src", [("fp32", "tf32"), ("fp32", "bf16"),
                                       ("fp32", "fp16"), ("bf16", "bf16"),
                                       ("fp16", "fp16")])
@pytest.mark.parametrize("op", ["mul", "add", "sub"])
def test_agrees_with_the_c_entry_point(dest, src, op):
    rng = np.random.default_rng(53)
    a = rng.standard_normal(4096).astype(np.float32) * 100
    b = rng.standard_normal(4096).astype(np.float32)
    fidelity = "hifi3" if op == "mul" else "lofi"
    got = birsim.tensix_eltwise(a, b, op, fidelity=fidelity, dest=dest,
                                src_format=src, arch="blackhole")
    width = 4 if dest == "fp32" else 2
    want = np.zeros(4096, np.uint32 if width == 4 else np.uint16)
    assert rt.birsim_tensix_eltwise(
        1, birsim.tensix_ops.index(op), birsim.tensix_fidelities[fidelity],
        birsim.tensix_dests.index(dest),
        birsim.tensix_src_formats.index(src), a.ctypes.data, b.ctypes.data,
        4096, want.ctypes.data, 0) == 0
    assert np.array_equal(np.asarray(got).view(want.dtype), want)


def test_accumulate_into_out_and_pack_with_l1_accumulation():
    a = np.float32([1.0, 2.0, 3.0])
    out = np.float32([10.0, 20.0, 30.0])
    r = birsim.tensix_eltwise(a, a, out=out, accumulate=True)
    assert r is out and out.tolist() == [11.0, 24.0, 39.0]
    l1 = np.float32([0.5, 0.5, 0.5])
    p = birsim.tensix_pack(out, "float32", accumulate_into=l1)
    assert p is l1 and l1.tolist() == [11.5, 24.5, 39.5]
    fresh = birsim.tensix_eltwise(a, a, "add", fidelity="lofi", out=out)
    assert fresh is out and out.tolist() == [2.0, 4.0, 6.0]


def test_pack_paths_and_fp16_dest():
    # fp32 Dest to float16: Wormhole truncates, Blackhole rounds (D48).
    x = np.float32([1.0 + 2 ** -11 + 2 ** -12])
    wh = birsim.tensix_pack(x, "float16", arch="wormhole")
    bh = birsim.tensix_pack(x, "float16", arch="blackhole")
    assert wh.view(np.uint16).tolist() == [0x3C00]
    assert bh.view(np.uint16).tolist() == [0x3C01]
    # fp16 Dest: exponent 31 is finite; float32 output shows its value.
    d = np.uint16([0x7FFF]).view(np.float16)
    assert birsim.tensix_pack(d, "float32", dest="fp16").tolist() == [131008.0]
    with pytest.raises(birsim.BirsimError, match="no path"):
        birsim.tensix_pack(np.uint16([0x3F80]), "float16", dest="bf16")


def test_bfp_inputs_go_through_the_host_packer_and_unpacker():
    rng = np.random.default_rng(39627)
    x = rng.standard_normal((32, 64)).astype(np.float32)
    y = rng.standard_normal((32, 64)).astype(np.float32)
    got = birsim.tensix_mul_tiles(x, y, "hifi4", in1_format="bfloat8_b",
                                  out_format="float32")
    y8 = birsim.round_trip(y, "bfp8_b", matrix=True)
    xb = birsim.round_trip(x, "bfloat16")
    want = birsim.tensix_pack(birsim.tensix_eltwise(xb, y8, src_format="tf32"),
                              "float32")
    assert np.array_equal(got, want)
    # bfp4 in SrcA: HiFi2's phase 1 adds nothing (tt-metal #39627).
    lo = birsim.tensix_mul_tiles(y, x, "lofi", in0_format="bfp4_b")
    hi = birsim.tensix_mul_tiles(y, x, "hifi2", in0_format="bfp4_b")
    assert np.array_equal(lo, hi)
    assert rt.birsim_tensix_idle_phases(3, 3, 8) == 2


def test_torch_in_torch_out():
    torch = pytest.importorskip("torch")
    t = torch.tensor([1.3125, 508.0])
    u = torch.tensor([7.96875, 748.0])
    r = birsim.tensix_mul_tiles(t, u, "hifi2", dest="bf16")
    assert r.dtype == torch.bfloat16
    assert r.float().tolist() == [10.4375, 376832.0]
    d = birsim.tensix_eltwise(t.bfloat16(), u.bfloat16(), dest="bf16")
    assert isinstance(d, torch.Tensor) and d.dtype == torch.bfloat16


@pytest.mark.parametrize("call, error, text", [
    (lambda: birsim.tensix_eltwise([1.0], [1.0], "div"), ValueError, "op"),
    (lambda: birsim.tensix_eltwise([1.0], [1.0], fidelity="hifi5"),
     ValueError, "fidelity"),
    (lambda: birsim.tensix_eltwise([1.0], [1.0], fidelity=0), ValueError,
     "non-empty"),
    (lambda: birsim.tensix_eltwise([1.0], [1.0], fidelity=[4]), ValueError,
     "0..3"),
    (lambda: birsim.tensix_eltwise([1.0], [1.0], fidelity=True), TypeError,
     "fidelity"),
    (lambda: birsim.tensix_eltwise([1.0, 2.0], [1.0], ), ValueError, "shapes"),
    (lambda: birsim.tensix_eltwise([1.0], [1.0], accumulate=True),
     ValueError, "out"),
    (lambda: birsim.tensix_eltwise([1.0], [1.0], "add", fidelity="hifi2"),
     birsim.BirsimError, "phase 0 only"),
    (lambda: birsim.tensix_eltwise([1.0], [1.0], dest="fp16",
                                   src_format="bf16"),
     birsim.BirsimError, "exponent width"),
    (lambda: birsim.tensix_eltwise([1.0], [1.0], arch="grayskull"),
     ValueError, "arch"),
    (lambda: birsim.tensix_mul_tiles([1.0], [1.0], "lofi",
                                     in0_format="float16"),
     ValueError, "both operands"),
    (lambda: birsim.tensix_mul_tiles([1.0], [1.0], "lofi",
                                     in0_format="bfp8_a"),
     ValueError, '"b" BFP'),
])
def test_misuse(call, error, text):
    with pytest.raises(error, match=text):
        call()


def test_nothing_written_on_error():
    out = np.full(2, 7.0, np.float32)
    with pytest.raises(birsim.BirsimError):
        birsim.tensix_eltwise(np.float32([1, 2]), np.float32([1, 2]), "add",
                              fidelity=3, out=out)
    assert out.tolist() == [7.0, 7.0]


def test_shapes_and_layouts_as_numpy_keeps_them():
    # 0-d in, 0-d out; strided, reversed, read-only, big-endian and list
    # operands give the contiguous float32 result.
    d = birsim.tensix_eltwise(np.float32(1.3125), np.float32(7.96875),
                              fidelity="hifi2", dest="bf16")
    assert np.shape(d) == () and bf16(d).tolist() == 10.4375
    a = np.arange(1, 21, dtype=np.float32) * 0.37
    b = a[::-1].copy()
    ref = birsim.tensix_eltwise(a[::2].copy(), b[::2].copy())
    read_only = a.copy()
    read_only.flags.writeable = False
    for x, y in ((a[::2], b[::2]), (a[::-1][::-1][::2], b[::2]),
                 (read_only[::2], b[::2]), (a.astype(">f4")[::2], b[::2]),
                 (a[::2].tolist(), b[::2].tolist())):
        assert np.array_equal(birsim.tensix_eltwise(x, y), ref)


def test_strided_out_keeps_the_bytes_between():
    a = np.arange(1, 21, dtype=np.float32)
    big = np.full(40, 7.0, np.float32)
    birsim.tensix_eltwise(a, a, out=big[::2])
    assert (big[1::2] == 7.0).all()
    assert big[::2].tolist() == birsim.tensix_eltwise(a, a).tolist()
    l1 = np.full(40, 0xAAAA, np.uint16)
    birsim.tensix_pack(big[::2], "bfloat16", accumulate_into=l1[::2])
    assert (l1[1::2] == 0xAAAA).all()
    with pytest.raises(birsim.BirsimError):
        birsim.tensix_eltwise(a, a, "add", fidelity=3, out=big[::2])
    assert (big[1::2] == 7.0).all()


# birsim.tensix_matmul and tensix_useful_phases.

def _example():
    in0 = np.zeros((32, 32), np.float32)
    in1 = np.zeros_like(in0)
    in0[0, [0, 1, 16]] = [14.5, -14.5625, -0.00341796875]
    in1[[0, 1, 16], 0] = [1.0, 1.0, 1.75]
    return in0, in1


@pytest.mark.parametrize("arch", ["wormhole", "blackhole"])
def test_matmul_realigns_a_cancelling_sum(arch):
    in0, in1 = _example()
    useful = birsim.tensix_useful_phases("hifi4", "bfloat16", "bfloat4_b")
    assert useful == (0, 2)
    bits = [birsim.tensix_matmul(in0, in1, fidelity=f, dest="bf16",
                                 in1_format="bfloat4_b", arch=arch)
            .view(np.uint16)[0, 0] for f in ("hifi4", useful)]
    assert [hex(b) for b in bits] == ["0xbd8d", "0xbd8c"]


def test_matmul_with_one_product_per_output_is_mul_tiles():
    # One non-zero K per output: each MVMUL sees one product, as ELWMUL does
    # (in1 in SrcA, in0 in SrcB).
    rng = np.random.default_rng(4)
    diagonal = rng.standard_normal(64).astype(np.float32)
    in0 = np.diag(diagonal).astype(np.float32)
    in1 = rng.standard_normal((64, 32)).astype(np.float32)
    for fidelity in ("lofi", "hifi2", "hifi4", (0, 2)):
        got = birsim.tensix_matmul(in0, in1, fidelity=fidelity, dest="fp32",
                                   in0_format="float32", in1_format="float32",
                                   out_format="float32")
        want = birsim.tensix_eltwise(in1, np.repeat(diagonal[:, None], 32, 1),
                                     fidelity=fidelity, dest="fp32",
                                     src_format="tf32")
        assert np.array_equal(got, want), fidelity


def test_matmul_agrees_with_the_c_entry_point():
    rng = np.random.default_rng(5)
    in0 = rng.standard_normal((32, 64)).astype(np.float32)
    in1 = rng.standard_normal((64, 32)).astype(np.float32)
    got = birsim.tensix_matmul(in0, in1, fidelity="hifi3", dest="fp32",
                               in0_format="float32", in1_format="bfloat16",
                               out_format="float32")
    b16 = birsim.round_trip(in1, "bfloat16")
    dest = np.zeros((32, 32), np.float32)
    assert rt.birsim_tensix_matmul(0, 7, 0, 0, 1, in0.ctypes.data,
                                   b16.ctypes.data, 32, 64, 32,
                                   dest.ctypes.data, 0) == 0
    assert np.array_equal(got, dest)
    # A matmul of the bf16 weights, not of their transpose: within 2^-10 of
    # the sum of |products| (HiFi3 drops SrcA's bits 5-3 times SrcB's 3-0).
    bound = np.abs(in0) @ np.abs(b16) * 2.0 ** -10
    assert (np.abs(got - in0 @ b16) <= bound).all()


def test_matmul_torch_in_torch_out():
    torch = pytest.importorskip("torch")
    in0, in1 = _example()
    r = birsim.tensix_matmul(torch.from_numpy(in0), torch.from_numpy(in1),
                             dest="bf16")
    assert isinstance(r, torch.Tensor) and r.dtype == torch.bfloat16
    assert r.shape == (32, 32)


@pytest.mark.parametrize("in0_format, in1_format, op, want", [
    ("bfloat16", "bfloat4_b", "matmul", (0, 2)),
    ("bfloat8_b", "bfloat16", "matmul", (0, 1)),
    ("bfloat16", "bfloat16", "matmul", (0, 1, 2, 3)),
    ("bfp2_b", "bfp2_b", "matmul", (0,)),
    ("bfloat4_b", "bfloat16", "mul", (0, 2)),
    ("float32", "bfloat8_b", "mul", (0, 1)),
])
def test_useful_phases(in0_format, in1_format, op, want):
    assert birsim.tensix_useful_phases("hifi4", in0_format, in1_format,
                                       op=op) == want


@pytest.mark.parametrize("call, error, text", [
    (lambda: birsim.tensix_matmul(np.zeros((32, 48), np.float32),
                                  np.zeros((48, 32), np.float32)),
     ValueError, "multiples of 32"),
    (lambda: birsim.tensix_matmul(np.zeros((32, 32), np.float32),
                                  np.zeros((64, 32), np.float32)),
     ValueError, "M x K"),
    (lambda: birsim.tensix_matmul(np.zeros((32, 32), np.float32),
                                  np.zeros((32, 32), np.float32),
                                  in0_format="float16"),
     ValueError, "both operands"),
    (lambda: birsim.tensix_matmul(np.zeros((32, 32), np.float32),
                                  np.zeros((32, 32), np.float32),
                                  dest="fp16"),
     birsim.BirsimError, "exponent width"),
    (lambda: birsim.tensix_useful_phases("hifi4", "int8", "bfloat16"),
     ValueError, "in0_format"),
    (lambda: birsim.tensix_useful_phases("hifi4", "bfloat16", "bfloat16",
                                         op="add"), ValueError, "op"),
])
def test_matmul_misuse(call, error, text):
    with pytest.raises(error, match=text):
        call()


def _matmul_operands():
    rng = np.random.default_rng(6)
    return (rng.standard_normal((32, 64)).astype(np.float32),
            rng.standard_normal((64, 32)).astype(np.float32))


@pytest.mark.parametrize("layout", ["strided", "reversed", "read_only",
                                    "byteswapped", "fortran", "list"])
def test_matmul_takes_any_layout(layout):
    # Every layout NumPy users hand over gives the contiguous call's bits,
    # and the caller's arrays are left as they were.
    in0, in1 = _matmul_operands()
    want = birsim.tensix_matmul(in0, in1, fidelity="hifi2", dest="fp32",
                                in0_format="float32", out_format="float32")
    if layout == "strided":
        big0 = np.zeros((32, 128), np.float32)
        big0[:, ::2] = in0
        a, b = big0[:, ::2], in1
    elif layout == "reversed":
        a = np.ascontiguousarray(in0[::-1])[::-1]  # negative strides
        b = np.ascontiguousarray(in1[:, ::-1])[:, ::-1]
    elif layout == "read_only":
        a, b = in0.copy(), in1.copy()
        a.flags.writeable = b.flags.writeable = False
    elif layout == "byteswapped":
        a = in0.astype(in0.dtype.newbyteorder(">"))
        b = in1.astype(in1.dtype.newbyteorder(">"))
    elif layout == "fortran":
        a, b = np.asfortranarray(in0), np.asfortranarray(in1)
    else:
        a, b = in0.tolist(), in1.tolist()
    before = (np.array(a, copy=True), np.array(b, copy=True))
    got = birsim.tensix_matmul(a, b, fidelity="hifi2", dest="fp32",
                               in0_format="float32", out_format="float32")
    assert np.asarray(got).tobytes() == want.tobytes()
    assert np.array_equal(np.asarray(a, np.float32), before[0])
    assert np.array_equal(np.asarray(b, np.float32), before[1])


def test_matmul_of_no_k_is_zero():
    # K = 0: no MVMUL runs, so Dest stays zero (D50).
    got = birsim.tensix_matmul(np.zeros((32, 0), np.float32),
                               np.zeros((0, 64), np.float32),
                               out_format="float32")
    assert got.shape == (32, 64) and not got.any()


@pytest.mark.parametrize("fmt, bits", [("float32", 11),
                                       ("bfloat16", 8), ("float16", 11),
                                       ("bfloat8_b", 7), ("bfp4_b", 3),
                                       ("bfloat2_b", 1)])
def test_useful_phases_read_the_formats_bits(fmt, bits):
    # The bound a format gives is the C function's for that many bits.
    for fidelity in range(1, 16):
        want = rt.birsim_tensix_useful_phases(fidelity, 8, bits)
        assert birsim.tensix_useful_phases(fidelity, "bfloat16", fmt) == \
            tuple(p for p in range(4) if want >> p & 1)
