"""The DMA's arithmetic across dtypes in NKI tests' call shapes
(docs/Semantics.md section 8): against a plain NumPy reading of the rule,
with NumPy and torch arrays, and the misuse each call refuses."""
import io
import sys

import numpy as np
import pytest

import birsim

F32 = np.float32


def plain_dma_add(dst_bits, dst_dtype, src, src_dtype):
    """§8 read plainly: both through the cast engine to float32, NumPy's
    float32 add (IEEE, nearest even: ADDSS on finite operands), back
    through the cast engine (config saturate)."""
    acc = birsim.to_float32(dst_bits, dst_dtype)
    x = birsim.to_float32(src, src_dtype)
    with np.errstate(over="ignore"):
        total = (acc + x).astype(F32)
    return birsim.cast(total, dst_dtype)


@pytest.mark.parametrize("dst_dtype", ["bfloat16", "float16", "float8e4",
                                       "float8_e4m3fn", "float8e5"])
def test_accumulate_src_dtype_is_the_plain_rule(dst_dtype):
    rng = np.random.default_rng(56)
    storage = birsim.storage_type(dst_dtype)
    width = np.dtype(storage).itemsize
    dst = rng.integers(0, 2**(8 * width), 20000,
                       dtype="u%d" % width).view(storage)
    src = (rng.standard_normal(20000) * 4).astype(F32)
    finite = np.isfinite(birsim.to_float32(dst, dst_dtype))
    dst, src = dst[finite], src[finite]
    got = birsim.accumulate("add", dst, src, dst_dtype, src_dtype="float32")
    np.testing.assert_array_equal(got, plain_dma_add(dst, dst_dtype, src,
                                                     "float32"))


def test_mixed_forms_agree_and_keep_their_inputs():
    rng = np.random.default_rng(1)
    dst = birsim.from_float32(rng.standard_normal(1000), "bfloat16")
    src = rng.integers(-2**30, 2**30, 1000, dtype=np.int32)
    before = dst.copy()
    a = birsim.accumulate("add", dst, src, "bfloat16", src_dtype="int32")
    np.testing.assert_array_equal(dst, before)
    b = dst.copy()
    birsim.tensor_compute("add", [b, src], b, src_dtypes=["bfloat16", None],
                          dst_dtype="bfloat16")
    np.testing.assert_array_equal(a, b)
    c = birsim.scatter_accumulate("add", dst, src, np.arange(1000),
                                  "bfloat16", src_dtype="int32")
    np.testing.assert_array_equal(a, c)
    np.testing.assert_array_equal(a, plain_dma_add(dst, "bfloat16", src,
                                                   "int32"))


def needs_torch():
    """torch, or the calling test skipped with the reason: torch is optional
    (docs/Python.md), so the other tests run without it."""
    return pytest.importorskip("torch", reason="torch is not installed "
                               "(python3-torch, or PyTorch from PyPI)")


def test_static_cast_rounds_int32_twice_into_bf16():
    torch = needs_torch()
    x = np.int32([(1 << 24) + (1 << 16) + 1])
    assert birsim.static_cast(x, "bfloat16").tolist() == [0x4B80]
    assert birsim.static_cast(x, torch.bfloat16).dtype == np.uint16
    t = birsim.static_cast(torch.from_numpy(x), torch.bfloat16)
    assert t.dtype == torch.bfloat16 and t.item() == 2.0 ** 24
    assert birsim.static_cast(F32([1000]), "float8e4",
                              fp8_config="none").tolist() == [0x78]


def test_tensor_cast_and_compute_write_into_numpy_and_torch():
    torch = needs_torch()
    out = torch.zeros(3, dtype=torch.bfloat16)
    assert birsim.tensor_cast(F32([1, 2, 1 + 2**-8]), out) is out
    assert out.tolist() == [1.0, 2.0, 1.0]
    psum = torch.tensor([1.0, 1.0], dtype=torch.bfloat16)
    birsim.tensor_compute("add", [psum, torch.tensor([3 * 2.0**-9, 0.5])],
                          psum)
    assert psum.tolist() == [1.0078125, 1.5]
    half = np.zeros(4, np.float16)
    birsim.tensor_compute("MAX", [F32([1, 5, 2, 0]), np.int8([3, 2, 1, 0])],
                          half, n=3)
    assert half.tolist() == [3, 5, 2, 0]
    birsim.dma_compute(half, [F32([1, 1, 1, 1])] * 3, [1.0, 1.0, 1.0],
                       np.add)
    assert half.tolist() == [3, 3, 3, 3]


def test_stochastic_rounding_share_and_mean():
    n = 10**6
    x = np.full(n, 1 + 5 / 16 * 2**-7, F32)
    out = birsim.static_cast(x, "bfloat16")  # nearest even: 1
    assert set(out.tolist()) == {0x3F80}
    dst = np.zeros(n, np.uint16)
    sr = birsim.accumulate("add", dst, x, "bfloat16", src_dtype="float32",
                           rounding="stochastic", seed=3)
    values = birsim.to_float32(sr, "bfloat16").astype(np.float64)
    assert set(values.tolist()) == {1.0, 1.0078125}
    share = np.mean(values > 1)
    sigma = np.sqrt(5 / 16 * 11 / 16 / n)
    assert abs(share - 5 / 16) < 5 * sigma
    assert abs(values.mean() - float(x[0])) < 5 * sigma * 2**-7
    again = birsim.accumulate("add", dst, x, "bfloat16", src_dtype="float32",
                              rounding="stochastic", seed=3)
    np.testing.assert_array_equal(sr, again)


def test_scatter_src_dtype_rounds_each_repeated_index():
    dst = birsim.from_float32([1, 2], "bfloat16")
    got = birsim.scatter_accumulate("add", dst, F32([2**-8, 2**-8]), [0, 0],
                                    "bfloat16", src_dtype="float32")
    assert got.tolist() == [0x3F80, 0x4000]


def test_misuse_is_refused():
    dst = np.zeros(2, np.uint16)
    with pytest.raises(birsim.BirsimError, match="dtype int64 is not one") \
            as info:
        birsim.accumulate("add", dst, np.int64([1, 2]), "bfloat16",
                          src_dtype="int64")
    assert info.value.status == -11
    with pytest.raises(birsim.BirsimError, match="stochastic rounding"):
        birsim.accumulate("add", np.int32([1]), F32([1]), src_dtype="float32",
                          rounding="stochastic")
    with pytest.raises(ValueError, match="rounding"):
        birsim.accumulate("add", dst, F32([1, 2]), "bfloat16",
                          src_dtype="float32", rounding="up")
    with pytest.raises(birsim.BirsimError, match="1 to 16 sources"):
        birsim.tensor_compute("add", [F32([1])] * 17, np.zeros(1, F32))
    with pytest.raises(ValueError, match="reduce_op must be add"):
        birsim.dma_compute(np.zeros(1, F32), [F32([1])], [1.0], np.multiply)
    with pytest.raises(ValueError, match="every scale must be 1.0"):
        birsim.dma_compute(np.zeros(1, F32), [F32([1])], [2.0])
    with pytest.raises(ValueError, match="read-only"):
        ro = np.zeros(2, F32)
        ro.flags.writeable = False
        birsim.tensor_cast(F32([1, 2]), ro)
    with pytest.raises(ValueError, match="exceeds"):
        birsim.tensor_cast(F32([1, 2]), np.zeros(2, F32), n=3)
    assert dst.tolist() == [0, 0]
    assert birsim.nki_dtype_name("bfloat16") == "bfloat16"
    assert birsim.nki_dtype_name("float8e5") == "float8_e5m2"
    assert birsim.nki_dtype_name("int64") is None


def test_exact_validator_has_custom_validators_shape():
    golden = birsim.from_float32([1, 2, 3, 4], "bfloat16")
    with birsim.fidelity() as counts:
        birsim.accumulate("add", golden, F32([2**-8, 0, 0, 0]), "bfloat16",
                          src_dtype="float32")
    Validator = birsim.ExactValidator.expecting(golden, "bfloat16",
                                                fidelity=counts)
    log = io.StringIO()
    assert Validator(log).validate(golden.tobytes())
    assert Validator(log).validate(np.frombuffer(golden.tobytes(), np.uint8))
    wrong = golden.copy()
    wrong[2] += 1
    v = Validator(log)
    assert not v.validate(wrong.tobytes())
    assert v.mismatches == 1
    assert "[2] 0x4041 (3.015625), expected 0x4040 (3.0)" in v.report
    assert "'inexact': 1" in v.report
    assert "[2] 0x4041" in log.getvalue()
    assert not Validator().validate(golden.tobytes()[:6])
    with pytest.raises(TypeError, match="expecting"):
        birsim.ExactValidator().validate(b"")


def test_allreduce_reduces_ranks_in_order():
    torch = needs_torch()
    ranks = [F32([1e8]), F32([1]), F32([-1e8])]
    assert birsim.allreduce(ranks).tolist() == [0.0]  # 1e8 + 1 == 1e8
    assert birsim.allreduce(ranks[::-1]).tolist() == [0.0]
    assert birsim.allreduce([F32([1]), F32([1e8]), F32([-1e8])]).tolist() \
        == [0.0]
    assert birsim.allreduce([F32([1e8]), F32([-1e8]), F32([1])]).tolist() \
        == [1.0]
    bf16 = [torch.tensor([1.0, 2.0], dtype=torch.bfloat16),
            torch.tensor([2.0**-8, 3.0], dtype=torch.bfloat16)] * 2
    total = birsim.allreduce(bf16)
    assert total.dtype == torch.bfloat16
    assert total.tolist() == [2.0, 10.0]  # each rank's 2^-8 ties to even
    assert birsim.allreduce(ranks, "max").tolist() == [1e8]


def test_psum_accumulate_is_the_named_bf16_case():
    torch = needs_torch()
    psum = birsim.from_float32([1, 1, 256, 1], "bfloat16")
    mm = F32([2**-8, 3 * 2**-9, 1, -1])
    got = birsim.psum_accumulate(psum, mm)
    assert got.tolist() == [0x3F80, 0x3F81, 0x4380, 0]
    np.testing.assert_array_equal(
        got, birsim.accumulate("add", psum, mm, "bfloat16",
                               src_dtype="float32"))
    t = torch.ones(2, dtype=torch.bfloat16)
    birsim.psum_accumulate(t, torch.tensor([2.0**-8, 0.5]), out=t)
    assert t.tolist() == [1.0, 1.5]
    sr = birsim.psum_accumulate(psum, mm, rounding="stochastic", seed=1)
    assert sr[2] == 0x4380 or sr[2] == 0x4381


def test_no_neuron_package_is_imported():
    neuron = [m for m in sys.modules
              if m.split(".")[0] in ("nki", "neuronxcc", "nrtpy",
                                     "neuron_dtypes", "torch_neuronx")]
    assert neuron == []


def test_overlapping_dst_is_the_runtimes_aliasing_error_and_writes_nothing():
    buf = np.arange(8, dtype=F32)
    before = buf.copy()
    with pytest.raises(birsim.BirsimError, match="overlap"):
        birsim.tensor_cast(buf[:4], buf[2:6])
    with pytest.raises(birsim.BirsimError, match="partly overlap"):
        birsim.tensor_compute("add", [buf[:4], buf[4:]], buf[1:5])
    np.testing.assert_array_equal(buf, before)
    # dst as a source, the same elements: allowed.
    birsim.tensor_compute("add", [buf[:4], buf[4:]], buf[:4])
    assert buf[:4].tolist() == [4, 6, 8, 10]
