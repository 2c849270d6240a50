"""The Python package against the runtime it wraps and the rules of
docs/Semantics.md (run by python.test with the build tree's package)."""
import threading

import numpy as np
import pytest

import birsim


def test_tables_come_from_the_runtime():
    assert birsim.__version__.count(".") == 2
    names = [d.name for d in birsim.dtypes]
    assert names[16] == "float32" and names[12] == "bfloat16"
    assert birsim.dtypes[4].mlir_type == "f8E4M3"
    assert [f.name for f in birsim.bfp_formats] == [
        "bfp8_b", "bfp4_b", "bfp8_a", "bfp4_a", "bfp2_b", "bfp2_a",
        "mxfp8_e5m2", "mxfp8_e4m3", "mxfp6_e3m2", "mxfp6_e2m3", "mxfp4",
        "mxint8", "mxint4", "mxint2"]
    assert birsim.bfp_formats[4].datum_bits == 2
    assert birsim.active_isa() in ("portable", "avx2", "avx512")


def test_accumulate_fp8_and_in_place():
    # E4M3 240 + 240 overflows to +Inf (0x78) on the simulator (§3).
    a = np.full(1000, 0x77, np.uint8)
    r = birsim.accumulate("add", a, a, "float8e4")
    assert (r == 0x78).all() and (a == 0x77).all()
    birsim.accumulate("add", a, a, "float8e4", out=a)
    assert (a == 0x78).all()
    x = np.array([1.0, 2.0], np.float32)
    assert birsim.accumulate("max", x, np.array([3.0, -1.0], np.float32)).tolist() == [3.0, 2.0]


def test_errors_carry_status_and_message_and_write_nothing():
    out = np.zeros(4, np.float32)
    with pytest.raises(birsim.BirsimError) as e:
        birsim.accumulate("add", np.zeros(4, np.uint32), np.zeros(4, np.uint32),
                          out=out.view(np.uint32))
    assert e.value.status == -3
    assert "cast_accumulate: unsupported dtype uint32" in e.value.message
    assert (out == 0).all()
    with pytest.raises(birsim.BirsimError) as e:
        birsim.scatter_accumulate("add", np.zeros(4, np.float32),
                                  np.ones(1, np.float32), [4])
    assert "scatter index 4 is outside the destination of 4 elements" in str(e.value)
    with pytest.raises(birsim.BirsimError, match="has no MemoryReductionOp"):
        birsim.alu_op_to_memory_reduction("min")
    assert birsim.alu_op_to_memory_reduction("bypass") == "copy"


def test_bits_helpers_and_misuse():
    bits = birsim.from_float32([1.0, 448.0, 1000.0], "float8_e4m3fn")
    assert bits.dtype == np.uint8 and bits.tolist() == [0x38, 0x7E, 0x7E]
    assert birsim.to_float32(bits, "float8_e4m3fn").tolist() == [1.0, 448.0, 448.0]
    with pytest.raises(TypeError):
        birsim.accumulate("add", np.zeros(2, np.uint16), np.zeros(2, np.uint16), "float8e4")
    with pytest.raises(ValueError):
        birsim.accumulate("add", np.zeros(2, np.float32), np.zeros(3, np.float32))


def test_scatter_and_collective():
    dst = np.zeros(4, np.float32)
    r = birsim.scatter_accumulate("add", dst, np.array([1, 2, 3], np.float32), [1, 1, 3])
    assert r.tolist() == [0.0, 3.0, 0.0, 3.0] and dst.tolist() == [0.0] * 4
    birsim.scatter_accumulate("add", dst, np.array([1, 2, 3], np.float32), [1, 1, 3], out=dst)
    assert dst.tolist() == [0.0, 3.0, 0.0, 3.0]
    # An error in place writes nothing either (every index checked first).
    with pytest.raises(birsim.BirsimError):
        birsim.scatter_accumulate("add", dst, np.ones(2, np.float32), [0, 9], out=dst)
    assert dst.tolist() == [0.0, 3.0, 0.0, 3.0]
    acc = np.array([1.0, np.nan], np.float32)
    assert birsim.collective_reduce("add", acc, np.array([2.0, 1.0], np.float32))[0] == 3.0


def test_cast_configs():
    x = np.array([1000.0, np.nan, 0.1], np.float32)
    assert birsim.cast(x, "float8_e4m3fn").tolist()[0] == 0x7E  # saturate
    assert birsim.cast(x, "float8_e4m3fn", fp8_config="none").tolist()[0] == 0x7F
    assert birsim.cast(x, "float8_e4m3fn",
                       fp8_config="saturate|nan_suppress").tolist()[1] == 0
    assert birsim.cast(x, "bfloat16").dtype == np.uint16
    with pytest.raises(ValueError, match="fp8_config"):
        birsim.cast(x, "float8e4", fp8_config="clamp")


def test_cast_matches_the_runtime_on_every_bf16_value():
    bits = np.arange(65536, dtype=np.uint32) << 16
    f32 = bits.view(np.float32)
    back = birsim.cast(birsim.cast(f32, "bfloat16"), "float32", src_dtype="bfloat16")
    finite = ~np.isnan(f32)
    assert (back.view(np.uint32)[finite] == bits[finite]).all()


def test_bfp_forms():
    rng = np.random.default_rng(5)
    m = rng.normal(0, 4, (64, 64)).astype(np.float32)
    for fmt in birsim.bfp_formats:
        packed = birsim.bfp_pack_matrix(m, fmt.name, tile=(16, 32), transpose=True)
        scale_bytes = 16 if fmt.exponent == "e8m0" else 32  # 16 or 32 blocks
        assert packed.shape == (8, scale_bytes + 512 * fmt.datum_bits // 8)
        back = birsim.bfp_unpack_matrix(packed, fmt.name, m.shape, tile=(16, 32),
                                        transpose=True)
        assert back.shape == m.shape and np.isfinite(back).all()
    bf16 = (m.view(np.uint32) >> 16).astype(np.uint16)
    a = birsim.bfp_pack(bf16, "bfp8_b", tile=(32, 32), src_dtype="bfloat16")
    b = birsim.bfp_pack(bf16.view(np.uint32).view(np.uint16), "bfp8_b",
                        src_dtype="bfloat16")
    assert (a == b).all() and a.shape == (4, 1088)
    u = birsim.bfp_unpack(a, "bfp8_b", 4, faces=True)
    assert u.shape == (4, 32, 32)
    with pytest.raises(birsim.BirsimError, match="is not one tt-metal accepts"):
        birsim.bfp_pack(m, "bfp8_b", tile=(3, 32))


def test_bfp_at_device_sites():
    """where= gives the Tensix packer's bytes and the unpacker's values
    (docs/Semantics.md section 5, the device's bytes), tt-metal #57410's
    vectors; bfp_device_diff answers which elements differ."""
    x = np.zeros((32, 32), np.float32)
    x[0, 0], x[1, 0], x[1, 1], x[2, 0] = 1.375, 3.875, 8.0, 1.9921875
    host = birsim.bfp_pack(x, "bfp4_b")
    dev = birsim.bfp_pack(x, "bfp4_b", where="fp32_dest")
    assert host[0, 64] & 15 == 0b110 and dev[0, 64] & 15 == 0b101
    assert host[0, 72] & 15 == 2 and dev[0, 72] & 15 == 1
    e8m6 = birsim.round_trip(x, "bfp8_b", where="fp32_dest_e8m6")
    assert e8m6[2, 0] == 2.0 and birsim.round_trip(x, "bfp8_b")[2, 0] < 2.0
    assert (birsim.round_trip(x, "bfp4_b", where="fp32_dest")
            == birsim.bfp_unpack(dev, "bfp4_b", where="fp32_dest")[0]).all()
    mask, count = birsim.bfp_device_diff(x, "bfp4_b", "fp32_dest")
    assert mask.dtype == np.bool_ and mask.shape == x.shape
    want = (birsim.round_trip(x, "bfp4_b", where="fp32_dest")
            != birsim.round_trip(x, "bfp4_b"))
    assert (mask == want).all() and count == int(want.sum()) > 0
    # The 16-bit Dests take their own types; the matrix forms too.
    h = np.random.default_rng(1).normal(0, 3, (64, 32)).astype(np.float16)
    p = birsim.bfp_pack_matrix(h, "bfp8_b", where="fp16_dest")
    back = birsim.bfp_unpack_matrix(p, "bfp8_b", h.shape, where="fp16_dest")
    assert back.shape == h.shape and np.isfinite(back).all()
    # What the device cannot do: the runtime's status and text.
    with pytest.raises(birsim.BirsimError, match="no \"a\" format path"):
        birsim.bfp_pack(x, "bfp8_a", where="fp32_dest")
    with pytest.raises(birsim.BirsimError, match="no bfp2 output"):
        birsim.bfp_pack(x, "bfp2_b", where="fp32_dest_e8m6")
    with pytest.raises(birsim.BirsimError, match="bfloat16 at bf16_dest"):
        birsim.bfp_pack(x, "bfp8_b", where="bf16_dest")
    with pytest.raises(birsim.BirsimError, match="name a device site"):
        birsim.bfp_device_diff(x, "bfp8_b", "host")
    with pytest.raises(ValueError, match="where"):
        birsim.bfp_pack(x, "bfp8_b", where="dest")
    with pytest.raises(ValueError, match="applies to the BFP formats"):
        birsim.round_trip(x, "bfloat16", where="fp32_dest")


def test_fidelity_counts_nest_and_restore():
    a = np.full(100, 0x77, np.uint8)
    with birsim.fidelity() as outer:
        birsim.accumulate("add", a, a, "float8e4")
        with birsim.fidelity() as inner:
            birsim.accumulate("add", a[:10], a[:10], "float8e4")
        assert inner.counts["reduce"]["elements"] == 10
        assert inner["reduce"]["sim_inf_device_saturates"] == 10
    assert outer.counts["reduce"]["elements"] == 110
    assert set(outer.counts) == {"reduce", "cast", "bfp_pack", "tt_fp8",
                                  "mx_pack", "tensix"}
    assert "device_differs" in outer.counts["bfp_pack"]
    # Off again: nothing counts outside.
    with birsim.fidelity() as later:
        pass
    birsim.accumulate("add", a, a, "float8e4")
    assert later.counts["reduce"]["elements"] == 0


def test_threads_give_the_same_bits():
    x = np.random.default_rng(1).normal(size=1 << 20).astype(np.float32)
    previous = birsim.set_num_threads(1)
    one = birsim.cast(x, "float8e5")
    birsim.set_num_threads(2)
    two = birsim.cast(x, "float8e5")
    birsim.set_num_threads(previous)
    assert (one == two).all()
    results = []
    threads = [threading.Thread(target=lambda: results.append(birsim.cast(x, "float8e5")))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all((r == one).all() for r in results)


def _decode_table(row):
    """Every code of an IEEE-style narrow float (a Dtypes.def row), decoded
    in float64 from its fields: an oracle independent of the runtime."""
    e_bits, m_bits, bias = row.exponent_bits, row.mantissa_bits, row.bias
    codes = np.arange(1 << (1 + e_bits + m_bits))
    sign = np.where(codes >> (e_bits + m_bits) & 1, -1.0, 1.0)
    e = codes >> m_bits & ((1 << e_bits) - 1)
    m = codes & ((1 << m_bits) - 1)
    value = np.where(e == 0, m * 2.0 ** (1 - bias - m_bits),
                     (1 + m / 2.0 ** m_bits) * 2.0 ** (e.astype(float) - bias))
    value = np.where(e == (1 << e_bits) - 1, np.where(m == 0, np.inf, np.nan), value)
    return sign * value


@pytest.mark.parametrize("name", ["float8e3", "float8e4", "float8e5"])
def test_every_fp8_pair_against_a_float64_oracle(name):
    """add of every pair (§3: widen, fp32 add, narrow with config 0) equals
    the pair's exact sum rounded to nearest even, Inf beyond the largest
    finite (the rounding treats Inf as the next power of two), NaN for NaN."""
    row = next(d for d in birsim.dtypes if d.name == name)
    table = _decode_table(row)
    a, b = np.meshgrid(np.arange(256, dtype=np.uint8), np.arange(256, dtype=np.uint8))
    got = birsim.accumulate("add", a.ravel(), b.ravel(), name)
    with np.errstate(invalid="ignore"):  # Inf - Inf: NaN
        exact = table[a.ravel()] + table[b.ravel()]
    finite = np.isfinite(table)
    top = table[finite].max()
    ulp = top - np.sort(table[finite])[-2]
    # Candidates: every finite code, and +-Inf at the value 2 * 2^emax.
    cand_codes = np.concatenate([np.nonzero(finite)[0],
                                 np.nonzero(np.isinf(table))[0]])
    cand_vals = np.concatenate([table[finite],
                                np.where(table[np.isinf(table)] > 0, 1, -1) * (top + ulp)])
    want = np.empty_like(got)
    for i in range(0, exact.size, 4096):
        s = exact[i:i + 4096]
        d = np.abs(s[:, None] - cand_vals[None, :])
        best = d.min(axis=1, keepdims=True)
        tie_even = (d == best) & (cand_codes[None, :] % 2 == 0)
        pick = np.where(tie_even.any(axis=1), tie_even.argmax(axis=1),
                        (d == best).argmax(axis=1))
        want[i:i + 4096] = cand_codes[pick]
    inf_code = {1.0: int(np.nonzero(table == np.inf)[0][0]),
                -1.0: int(np.nonzero(table == -np.inf)[0][0])}
    for sign, code in inf_code.items():  # an infinite operand's sum
        want[np.isinf(exact) & (np.sign(exact) == sign)] = code
    zero = exact == 0  # -0 + -0 is -0, x + -x is +0 (float64 does the same)
    want[zero] = np.where(np.signbit(exact[zero]), 1 << 7, 0)
    got_v, want_v = table[got], table[want]
    nan = np.isnan(exact)
    assert np.isnan(got_v[nan]).all()
    ok = ~nan
    same = (got_v[ok] == want_v[ok]) & (np.signbit(got_v[ok]) == np.signbit(want_v[ok]))
    # Exact zeros: x + -x is +0 under round to nearest.
    bad = np.nonzero(~same)[0][:3]
    assert same.all(), [(int(a.ravel()[ok][k]), int(b.ravel()[ok][k]), int(got[ok][k]), int(want[ok][k])) for k in bad]


def test_zero_size_non_contiguous_and_uncastable():
    empty = np.zeros(0, np.float32)
    assert birsim.accumulate("add", empty, empty).size == 0
    assert birsim.cast(empty, "bfloat16").size == 0
    x = np.arange(16, dtype=np.float32)[::2]  # a strided view
    assert birsim.accumulate("add", x, x).tolist() == (2 * x).tolist()
    with pytest.raises(birsim.BirsimError, match="packed and outside the cast engine"):
        birsim.cast(np.zeros(2, np.uint32), "float8_e4m3fn_x4", src_dtype="float32r")


def test_out_aliasing():
    buf = np.arange(9, dtype=np.float32)
    dst, src = buf[:8], buf[1:]  # partly overlapping views
    before = buf.copy()
    with pytest.raises(birsim.BirsimError, match="partly overlap"):
        birsim.accumulate("add", dst, src, out=src)
    assert (buf == before).all()
    with pytest.raises(birsim.BirsimError, match="overlap"):
        birsim.scatter_accumulate("add", buf[:4], buf[1:3], [0, 1], out=buf[1:5])
    with pytest.raises(birsim.BirsimError, match="overlap"):
        birsim.collective_reduce("add", buf[:4], buf[4:8], out=buf[2:6])
    assert (buf == before).all()
    # Exactly the same buffer is allowed, and in place.
    x = np.ones(4, np.float32)
    assert birsim.accumulate("add", x, x, out=x) is x and x.tolist() == [2.0] * 4


def test_float32_add_agrees_with_numpy_where_x86_does():
    rng = np.random.default_rng(7)
    a = rng.normal(0, 1e3, 1 << 16).astype(np.float32)
    b = rng.normal(0, 1e3, 1 << 16).astype(np.float32)
    assert (birsim.accumulate("add", a, b).view(np.uint32) == (a + b).view(np.uint32)).all()


def test_tt_metal_57410_host_datums():
    # 1.375 alone in BFP4_b: the host packer's datum is 0b110 (docs/Fidelity.md).
    tile = np.zeros((32, 32), np.float32)
    tile[0, 0] = 1.375
    packed = birsim.bfp_pack(tile, "bfp4_b")
    assert packed[0, 0] == 127 and packed[0, 64] & 0xF == 0b110
    with birsim.fidelity() as f:
        birsim.bfp_pack(tile, "bfp4_b")
    assert f.counts["bfp_pack"]["device_differs"] == 1


def test_fidelity_device_site_is_the_device_diff_there():
    # 1.9921875 with 8.0 in bfp4_b: at fp32_dest_e8m6 it carries to 2.0.
    rng = np.random.default_rng(30)
    x = rng.normal(0, 4, (64, 32)).astype(np.float32)
    x[0, 0] = 1.9921875
    for where in ("fp32_dest", "fp32_dest_e8m6"):
        with birsim.fidelity(where=where) as f:
            birsim.bfp_pack(x, "bfp4_b")
        mask, count = birsim.bfp_device_diff(x, "bfp4_b", where=where)
        assert f["bfp_pack"]["device_differs"] == count > 0
    e8m6 = birsim.bfp_device_diff(x, "bfp4_b", where="fp32_dest_e8m6")[1]
    assert e8m6 != birsim.bfp_device_diff(x, "bfp4_b", where="fp32_dest")[1]
    # The setting is restored, and a site that is not a device's refused.
    with birsim.fidelity() as f:
        birsim.bfp_pack(x, "bfp4_b")
    assert f["bfp_pack"]["device_differs"] == \
        birsim.bfp_device_diff(x, "bfp4_b", where="fp32_dest")[1]
    with pytest.raises(ValueError, match="device site"):
        with birsim.fidelity(where="host"):
            pass
    with pytest.raises(ValueError):
        with birsim.fidelity(where="gpu"):
            pass


def test_every_function_equals_the_c_abi_on_random_arrays():
    """The NumPy layer adds nothing: each call equals the C call on the same
    bytes (the byte-level forms of birsim._runtime)."""
    rt = birsim._core._rt
    rng = np.random.default_rng(11)
    for d in birsim.dtypes:
        if d.reduction == "none" or d.kind == "float32r":
            continue  # add/min/max reject it (§3); float32r has no storage here
        dst = rng.integers(0, 256, 1000 * d.bytes, dtype=np.uint8)
        src = rng.integers(0, 256, 1000 * d.bytes, dtype=np.uint8)
        store = birsim.storage_type(d.name)
        for op in (0, 1, 2, 3):
            got = birsim.accumulate(op, dst.view(store), src.view(store), d.name)
            want = rt.accumulate(op, dst.tobytes(), src.tobytes(), d.number, 1000)
            assert got.tobytes() == want, (d.name, op)
    x = rng.integers(0, 1 << 32, 4096, dtype=np.uint32).view(np.float32)
    for d in birsim.dtypes:
        if d.kind in ("float", "float32", "signed_int", "unsigned_int"):
            for config in (0, 1, 0xFF00, 0xFF01):
                got = birsim.cast(x, d.name, fp8_config=config)
                want = rt.cast(16, x.tobytes(), d.number, d.bytes, x.size, config)
                assert got.tobytes() == want, (d.name, config)
    tiles = rng.normal(0, 4, (3, 32, 32)).astype(np.float32)
    for f in birsim.bfp_formats:
        assert birsim.bfp_pack(tiles, f.name).tobytes() == rt.bfp_pack(
            f.number, tiles.tobytes(), 3)


def test_tt_fp8_policies_disagree_where_the_docs_say():
    # Every fp16 value as float32, through each policy and back.
    x = np.arange(1 << 16, dtype=np.uint16).view(np.float16).astype(np.float32)
    codes = {p: birsim.tt_fp8_encode(x, p) for p in birsim.tt_fp8_policies}
    back = {p: birsim.tt_fp8_decode(c, p) for p, c in codes.items()}
    finite = np.isfinite(x)
    # ttmetal_host saturates at 240, ocp_e4m3fn at 448 (NaN beyond 464),
    # the Blackhole packer truncates and reads 0x7F as 511.75.
    assert np.nanmax(np.abs(back["ttmetal_host"])) == 240
    assert np.nanmax(np.abs(back["ocp_e4m3fn"])) == 448
    assert np.nanmax(np.abs(back["blackhole_packer"])) == 511.75
    big = finite & (np.abs(x) > 240) & (np.abs(x) <= 448)
    assert (back["ttmetal_host"][big] == 240 * np.sign(x[big])).all()
    assert (back["ocp_e4m3fn"][big] != back["ttmetal_host"][big]).any()
    # The fidelity family counts the pairs that differ, whichever policy runs.
    with birsim.fidelity() as f:
        birsim.tt_fp8_encode(x, "ocp_e4m3fn")
    a, b = back["ttmetal_host"], back["ocp_e4m3fn"]
    differ = ~((a == b) & (np.signbit(a) == np.signbit(b))) & \
        ~(np.isnan(a) & np.isnan(b))
    assert f["tt_fp8"]["host_ocp_differ"] == int(differ.sum()) > 0
    assert f["tt_fp8"]["elements"] == x.size
    # Every code decodes; the call is the C call.
    every = np.arange(256, dtype=np.uint8)
    for p in birsim.tt_fp8_policies:
        out = np.empty(256, np.float32)
        number = birsim.tt_fp8_policies.index(p)
        assert birsim._core._lib.birsim_tt_fp8_decode(
            number, every.ctypes.data, 256, out.ctypes.data) == 0
        np.testing.assert_array_equal(birsim.tt_fp8_decode(every, p), out)
    with pytest.raises(ValueError, match="policy"):
        birsim.tt_fp8_encode(x, "e4m3")
    with pytest.raises(TypeError):
        birsim.tt_fp8_decode(x, "ocp_e4m3fn")


def test_bfp_pages_hold_the_tiles_then_zeros():
    x = np.random.default_rng(46786).normal(size=(3, 16, 32)).astype(np.float32)
    plain = birsim.bfp_pack(x, "bfp8_b", tile=(16, 32))
    for page, stride in ((32, 544), (64, 576)):
        paged = birsim.bfp_pack(x, "bfp8_b", tile=(16, 32), page=page)
        assert paged.shape == (3, stride)
        assert (paged[:, :544] == plain).all() and not paged[:, 544:].any()
        np.testing.assert_array_equal(
            birsim.bfp_unpack(paged, "bfp8_b", tile=(16, 32), page=page),
            birsim.bfp_unpack(plain, "bfp8_b", tile=(16, 32)))
        m = birsim.bfp_pack_matrix(x.reshape(48, 32), "bfp4_b", tile=(16, 32),
                                   page=page)
        assert m.shape == (3, 320 if page == 64 else 288)
        assert birsim.bfp_unpack_matrix(m, "bfp4_b", (48, 32), tile=(16, 32),
                                        page=page).shape == (48, 32)
    with pytest.raises(ValueError, match="page"):
        birsim.bfp_pack(x, "bfp8_b", tile=(16, 32), page=16)


def test_bfp_exp_search_pr_vector():
    t = np.full((32, 32), 0.13, np.float32)
    t.reshape(-1)[::16] = 1.0
    searched = birsim.bfp_pack(t, "bfp4_b", exp_search=True)
    assert searched[0, :4].tolist() == [126] * 4
    assert birsim.bfp_pack(t, "bfp4_b")[0, :4].tolist() == [127] * 4
    back = birsim.bfp_unpack(searched, "bfp4_b")
    assert back[0, 0, 0] == 0.875 and back[0, 0, 1] == 0.125
    m = birsim.bfp_pack_matrix(t, "bfp4_b", exp_search=True)
    assert m[0, :4].tolist() == [126] * 4
    with pytest.raises(birsim.BirsimError, match="bfp8_b and bfp4_b"):
        birsim.bfp_pack(t, "bfp2_b", exp_search=True)


def test_mx_tiles_pack_as_tt_metal():
    # test_mx_common.cpp's MXFP4 vectors at unity scale: a block whose
    # largest value is 6.0 (emax 2) has scale byte 0x7F + 0.
    x = np.zeros((32, 32), np.float32)
    vals = [6.0, 0.5, 0.375, 0.25, 0.125, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0]
    x[0, :len(vals)] = vals
    p = birsim.bfp_pack(x, "mxfp4")
    assert p.shape == (1, 544) and p[0, 0] == 0x7F and p[0, 1] == 0x7F - 2
    codes = [(b >> s) & 0xF for b in p[0, 32:38] for s in (0, 4)]
    assert codes[:len(vals)] == [0x7, 0x1, 0x1, 0x0, 0x0, 0x2, 0x2, 0x3, 0x4,
                                 0x5, 0x6]
    back = birsim.bfp_unpack(p, "mxfp4")[0]
    assert back[0, :len(vals)].tolist() == [6.0, 0.5, 0.5, 0.0, 0.0, 1.0, 1.0,
                                            1.5, 2.0, 3.0, 4.0]
    # Every MX format round-trips through the tile and matrix forms; bf16
    # input packs as its float32 widening; fp6 codes sit in bits 7..2.
    rng = np.random.default_rng(51975)
    m = rng.normal(0, 3, (64, 64)).astype(np.float32)
    bf16 = (m.view(np.uint32) >> 16).astype(np.uint16)
    widened = (bf16.astype(np.uint32) << 16).view(np.float32)
    for fmt in birsim.bfp_formats[6:]:
        a = birsim.bfp_pack_matrix(bf16, fmt.name, src_dtype="bfloat16")
        b = birsim.bfp_pack_matrix(widened, fmt.name)
        assert (a == b).all(), fmt.name
        back = birsim.bfp_unpack_matrix(b, fmt.name, m.shape)
        assert np.isfinite(back).all()
        if fmt.name.startswith("mxfp6"):
            assert (b[:, 32:] & 3 == 0).all()
    with pytest.raises(birsim.BirsimError, match="1x16"):
        birsim.bfp_pack(np.ones((1, 16), np.float32), "mxint8", tile=(1, 16))
    with pytest.raises(birsim.BirsimError, match="host packer"):
        birsim.bfp_pack(np.ones((32, 32), np.float32), "mxint8",
                        where="fp32_dest")
    with pytest.raises(ValueError, match="MX format"):
        birsim.ulp_distance(m, m, "mxfp4")
    with birsim.fidelity() as f:
        birsim.bfp_pack(np.full((32, 32), np.nan, np.float32), "mxfp8_e4m3")
    assert f["mx_pack"]["nan"] == 1024 and f["mx_pack"]["elements"] == 1024


def test_mixed_bfp_is_deepseeks_compressed_tensor():
    rng = np.random.default_rng(39116)
    m = rng.normal(0, 1, (96, 128)).astype(np.float32)
    m[:32, :32] = 0
    m[32:64] *= np.float32(1e-4)
    tiles = [m[r:r + 32, c:c + 32] for r in range(0, 96, 32)
             for c in range(0, 128, 32)]
    formats = ("bfp8_b", "bfp4_b", "bfp2_b", "bfp0")
    codes = birsim.bfp_assign_mixed(m, "pcc", 0.99, formats=formats,
                                    zero_bound=1e-3)
    assert codes.shape == (3, 4)
    # The brute force in NumPy float64: cheapest first, bfp0 by mean |x|.
    for t, tile in enumerate(tiles):
        want = 0
        for code in (3, 2, 1, 0):
            if code == 3:
                good = np.abs(tile.astype(np.float64)).mean() <= 1e-3
            else:
                q = birsim.round_trip(tile, formats[code], matrix=True)
                a, b = tile.astype(np.float64), q.astype(np.float64)
                a, b = a - a.mean(), b - b.mean()
                d = np.sqrt((a * a).sum()) * np.sqrt((b * b).sum())
                good = (a * b).sum() / d >= 0.99 if d else (tile == q).all()
            if good:
                want = code
                break
        assert codes.ravel()[t] == want, t
    assert codes[0, 0] == 3 and set(codes.ravel().tolist()) >= {1, 3}
    # The bytes are each tile's bfp_pack_matrix bytes back to back.
    packed = birsim.bfp_pack_mixed(m, codes)
    want = [birsim.bfp_pack_matrix(t, formats[c]).ravel()
            for t, c in zip(tiles, codes.ravel()) if c != 3]
    assert (packed == np.concatenate(want)).all()
    names = np.array(formats)[codes]
    assert (birsim.bfp_pack_mixed(m, names) == packed).all()
    back = birsim.bfp_unpack_mixed(packed, codes, m.shape)
    assert (back[:32, :32] == 0).all()
    assert (back[64:, :32] == birsim.round_trip(
        m[64:, :32], formats[codes[2, 0]], matrix=True)).all()
    with pytest.raises(ValueError, match="codes"):
        birsim.bfp_pack_mixed(m, np.zeros((2, 4), np.uint8))
    with pytest.raises(ValueError, match="metric"):
        birsim.bfp_assign_mixed(m, "rmse", 0.1)
    with pytest.raises(ValueError, match="bytes"):
        birsim.bfp_unpack_mixed(packed[:-1], codes, m.shape)


def test_mixed_and_mx_take_what_numpy_takes():
    rng = np.random.default_rng(3)
    m = rng.normal(0, 1, (64, 96)).astype(np.float32)
    codes = [[0, 1, 3], [2, 0, 1]]
    want = birsim.bfp_pack_mixed(m, codes)
    # Non-native byte order, a strided view, a read-only array.
    assert (birsim.bfp_pack_mixed(m.astype(">f4"), codes) == want).all()
    wide = np.zeros((64, 192), np.float32)
    wide[:, ::2] = m
    assert (birsim.bfp_pack_mixed(wide[:, ::2], codes) == want).all()
    frozen = m.copy()
    frozen.flags.writeable = False
    assert (birsim.bfp_pack_mixed(frozen, np.array(codes)) == want).all()
    assert (birsim.bfp_pack_mixed(m, np.array(codes, np.int64)) == want).all()
    # The packed code bytes: tiles 0-3 in byte 0 from the low bits.
    packed_codes = np.array([0 | 1 << 2 | 3 << 4 | 2 << 6, 0 | 1 << 2],
                            np.uint8)
    assert (birsim.bfp_pack_mixed(m, packed_codes) == want).all()
    with pytest.raises(ValueError, match="codes are 0-3"):
        birsim.bfp_pack_mixed(m, [[0, 1, 4], [2, 0, 1]])
    with pytest.raises(ValueError, match="unknown codes"):
        birsim.bfp_pack_mixed(m, [["bfp8_b", "bfp3", "bfp0"]] * 2)
    with pytest.raises(ValueError, match="whole 32x32"):
        birsim.bfp_pack_mixed(m[:48], codes)
    # MX takes the same inputs: a big-endian copy packs like the original.
    assert (birsim.bfp_pack(m[:32, :64].astype(">f4"), "mxfp8_e4m3")
            == birsim.bfp_pack(m[:32, :64], "mxfp8_e4m3")).all()
