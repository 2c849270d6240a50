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
        "bfp8_b", "bfp4_b", "bfp8_a", "bfp4_a", "bfp2_b", "bfp2_a"]
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
    with pytest.raises(birsim.BirsimError, match="fp8_config"):
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
        assert packed.shape == (8, 32 + 512 * fmt.datum_bits // 8)
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


def test_fidelity_counts_nest_and_restore():
    a = np.full(100, 0x77, np.uint8)
    with birsim.fidelity() as outer:
        birsim.accumulate("add", a, a, "float8e4")
        with birsim.fidelity() as inner:
            birsim.accumulate("add", a[:10], a[:10], "float8e4")
        assert inner.counts["reduce"]["elements"] == 10
        assert inner["reduce"]["sim_inf_device_saturates"] == 10
    assert outer.counts["reduce"]["elements"] == 110
    assert set(outer.counts) == {"reduce", "cast", "bfp_pack"}
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
