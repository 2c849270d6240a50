"""PyTorch 2's float8 tensors (torch 2.1 on; e8m0fnu from 2.7; skipped on
Debian's torch 1.13, run by `utils/test.sh --pypi`): tensors in and out
without copies where contiguous, and birsim's conversions against
PyTorch's as peers, exhaustive over every 8- and 16-bit code and over 2^24
float32 patterns: bit for bit where docs/Semantics.md section 4 agrees with
PyTorch's rounding, and as that section says where it does not
(peers.narrowed, peers.widened name each difference)."""
import numpy as np
import pytest

import birsim
import peers

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not hasattr(torch, "float8_e8m0fnu"),
                                reason="torch %s has no float8_e8m0fnu"
                                % torch.__version__)

SHARED = ["bfloat16", "float16", "float8_e5m2", "float8_e4m3fn"]
FP8 = ["float8_e5m2", "float8_e4m3fn"]


def torch_type(name):
    return getattr(torch, name)


def bits(t):
    """A tensor's codes as NumPy's unsigned integers of its width."""
    w = t.element_size()
    return t.view(torch.uint8 if w == 1 else torch.int16).numpy().view(
        np.uint8 if w == 1 else np.uint16)


@pytest.mark.parametrize("name", FP8 + ["float8_e8m0fnu"])
def test_float8_tensors_in_and_out_without_copies(name):
    t = torch_type(name)
    x = torch.tensor([0.5, 1.0, 2.0, 3.0, 448.0, -6.0, 0.0, 96.0])
    a = birsim.cast(x, t)
    assert isinstance(a, torch.Tensor) and a.dtype == t
    assert bits(a).tolist() == birsim.cast(x.numpy(), name).tolist()
    # A contiguous tensor is read in place, as its bits.
    table = birsim._core._TABLE
    array, row, _ = birsim._arrays.take(table, a, "x")
    assert array.ctypes.data == a.data_ptr() and row.name == birsim.dtype_of(name).name
    # out= writes the caller's tensor itself.
    dst = torch.zeros(8, dtype=t)
    ptr = dst.data_ptr()
    r = birsim.accumulate("copy", dst, a, out=dst)
    assert r is dst and dst.data_ptr() == ptr and bits(dst).tolist() == bits(a).tolist()
    # A strided view is copied in, with the same values.
    assert bits(birsim.cast(birsim.to_float32(a[::2]), t)).tolist() == bits(a)[::2].tolist()


def test_e8m0_tensors_are_the_cast_engines_bytes():
    """Section 4: float8_e8m0fnu is a byte to the cast engine, where torch
    reads it as the scale 2^(e-127): a named difference."""
    x = torch.tensor([0.5, 1.0, 2.0, 3.0, 127.0, 200.0, 300.0, -1.0])
    c = birsim.cast(x, torch.float8_e8m0fnu)
    assert bits(c).tolist() == birsim.cast(x.numpy(), "uint8").tolist() == \
        [0, 1, 2, 3, 127, 200, 255, 0]
    assert bits(c).tolist() != bits(x.to(torch.float8_e8m0fnu)).tolist()
    codes = torch.arange(256, dtype=torch.int32).to(torch.uint8).view(torch.float8_e8m0fnu)
    assert birsim.to_float32(codes).tolist() == list(range(256))


@pytest.fixture(scope="module")
def patterns():
    return peers.float32_patterns()


@pytest.mark.parametrize("name, fp8_config", [
    (n, c) for n in SHARED
    for c in (("none", "saturate") if n in FP8 else ("saturate",))])
def test_narrowing_2_24_float32_patterns_against_torch(name, fp8_config, patterns):
    xt = torch.from_numpy(patterns)
    peer = bits(xt.to(torch_type(name)))
    got = birsim.cast(xt, name, fp8_config=fp8_config)
    assert got.dtype == torch_type(name)
    want, counts = peers.narrowed(name, patterns, peer,
                                  saturate=fp8_config == "saturate" and name in FP8)
    np.testing.assert_array_equal(bits(got), want)
    # torch's e4m3fn saturates (Inf included) and its e5m2 does not: the
    # overflows differ where the FP8 config is the other one.
    saturate = fp8_config == "saturate" and name in FP8
    assert (counts["overflow"] > 0) == ((name == "float8_e4m3fn") != saturate)


@pytest.mark.parametrize("name", SHARED)
def test_widening_every_code_against_torch(name):
    store = peers.storage(name)
    codes = np.arange(1 << (8 * store.itemsize), dtype=np.uint32).astype(store)
    as_signed = torch.from_numpy(codes.view(np.int16) if store.itemsize == 2 else codes)
    t = as_signed.view(torch_type(name))
    peer = t.float().numpy().view(np.uint32)
    got = birsim.to_float32(t).numpy().view(np.uint32)
    want, _ = peers.widened(name, codes, peer)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("src, dst, fp8_config", [
    (s, d, c) for s in ("bfloat16", "float16") for d in SHARED if d != s
    for c in (("none", "saturate") if d in FP8 else ("none",))])
def test_every_16_bit_value_narrowed_against_torch(src, dst, fp8_config):
    codes = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    t = torch.from_numpy(codes.view(np.int16)).view(torch_type(src))
    peer = bits(t.to(torch_type(dst)))
    got = birsim.cast(t, dst, fp8_config=fp8_config)
    want, _ = peers.narrowed(dst, t.float().numpy(), peer,
                             saturate=fp8_config == "saturate" and dst in FP8)
    np.testing.assert_array_equal(bits(got), want)
