"""ml_dtypes itself (skipped where it is not installed: Debian packages it
not; `utils/test.sh --pypi` installs it): arrays of every type birsim
shares in, results in the caller's type out, and birsim's conversions
against ml_dtypes' as peers, exhaustive over every 8- and 16-bit code and
over 2^24 float32 patterns, bit for bit where docs/Semantics.md section 4
agrees with them and as that section says where it does not
(peers.narrowed, peers.widened name each difference)."""
import numpy as np
import pytest

import birsim
import peers

ml_dtypes = pytest.importorskip("ml_dtypes")


def ml_type(name):
    return np.float16 if name == "float16" else getattr(ml_dtypes, name)


@pytest.mark.parametrize("name", list(peers.FORMATS))
def test_arrays_of_every_shared_type_in_and_out(name):
    t = ml_type(name)
    x = np.random.default_rng(5).normal(0, 4, (3, 5)).astype(np.float32)
    a = x.astype(t)
    # In: the array's own type, no dtype argument.
    assert birsim.to_float32(a).tolist() == a.astype(np.float32).tolist()
    # Out: the caller's ml_dtypes type, as asked for by the type itself.
    c = birsim.cast(x, t)
    assert c.dtype == np.dtype(t) and c.shape == x.shape
    assert c.view(peers.storage(name)).tolist() == \
        birsim.from_float32(x, name).view(peers.storage(name)).tolist()
    assert birsim.round_trip(x, t).tolist() == c.astype(np.float32).tolist()
    # from_float32 reads an ml_dtypes array's values (NumPy kind "V" too).
    assert birsim.from_float32(a, name).view(peers.storage(name)).tolist() \
        == a.view(peers.storage(name)).tolist()
    # In place into an ml_dtypes array: the same buffer, new values.
    dst = np.zeros_like(a)
    r = birsim.accumulate("copy", dst, a, out=dst)
    assert r is dst and dst.tobytes() == a.tobytes()
    if name != "float8_e4m3fn":  # the simulator does not add e4m3fn
        s = birsim.accumulate("add", a, a)
        assert s.dtype == np.dtype(t)
        assert s.astype(np.float32).tolist() == (2 * a.astype(np.float32)).tolist()


def test_e8m0_arrays_travel_as_the_cast_engines_bytes():
    """Section 4: the cast engine reads and writes float8_e8m0fnu as a plain
    byte, not as ml_dtypes' scale 2^(e-127): a named difference."""
    t = ml_dtypes.float8_e8m0fnu
    x = np.float32([0.5, 1, 2, 3, 127, 200, 300, -1])
    c = birsim.cast(x, t)
    assert c.dtype == np.dtype(t)
    assert c.view(np.uint8).tolist() == birsim.cast(x, "uint8").tolist() == \
        [0, 1, 2, 3, 127, 200, 255, 0]
    assert c.view(np.uint8).tolist() != x.astype(t).view(np.uint8).tolist()
    codes = np.arange(256, dtype=np.uint8).view(t)
    assert birsim.to_float32(codes).tolist() == list(range(256))


def test_float4_e2m1fn_is_not_shared():
    """birsim has float4_e2m1fn only packed four to 16 bits (float4_e2m1fn_x4),
    ml_dtypes one per byte: a TypeError naming the type."""
    with pytest.raises(TypeError, match="float4_e2m1fn has no bir::Dtype"):
        birsim.to_float32(np.zeros(4, ml_dtypes.float4_e2m1fn))


@pytest.fixture(scope="module")
def patterns():
    return peers.float32_patterns()


@pytest.mark.parametrize("name, fp8_config", [
    (n, c) for n in peers.FORMATS
    for c in (("none", "saturate") if n in peers.FP8 else ("saturate",))])
def test_narrowing_2_24_float32_patterns_against_ml_dtypes(name, fp8_config,
                                                           patterns):
    x = patterns
    with np.errstate(over="ignore", invalid="ignore"):
        peer = x.astype(ml_type(name)).view(peers.storage(name))
    got = birsim.from_float32(x, name, fp8_config=fp8_config)
    want, counts = peers.narrowed(name, x, peer,
                                  saturate=fp8_config == "saturate" and
                                  name in peers.FP8)
    np.testing.assert_array_equal(got.view(peers.storage(name)), want)
    # The differences are the named ones, and they occur: NaN codes,
    # saturation, and e4m3fn's unsigned NaN for an overflow.
    assert counts["nan_code"] > 0
    assert (counts["overflow"] > 0) == (
        (fp8_config == "saturate" and name in peers.FP8) or
        name == "float8_e4m3fn")


@pytest.mark.parametrize("name", list(peers.FORMATS))
def test_widening_every_code_against_ml_dtypes(name):
    store = peers.storage(name)
    codes = np.arange(1 << (8 * store.itemsize), dtype=np.uint32).astype(store)
    peer = codes.view(ml_type(name)).astype(np.float32).view(np.uint32)
    got = birsim.to_float32(codes.view(ml_type(name))).view(np.uint32)
    want, differ = peers.widened(name, codes, peer)
    np.testing.assert_array_equal(got, want)
    # ml_dtypes quiets an fp8 NaN; NumPy's float16 and ml_dtypes' bfloat16
    # keep the payload, as birsim does.
    assert (differ > 0) == (name in peers.FP8)


@pytest.mark.parametrize("src, dst, fp8_config", [
    (s, d, c) for s in ("bfloat16", "float16") for d in peers.FORMATS
    if d != s for c in (("none", "saturate") if d in peers.FP8 else ("none",))])
def test_every_16_bit_value_narrowed_against_ml_dtypes(src, dst, fp8_config):
    a = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(ml_type(src))
    with np.errstate(over="ignore", invalid="ignore"):
        peer = a.astype(ml_type(dst)).view(peers.storage(dst))
    got = birsim.cast(a, dst, fp8_config=fp8_config)
    want, _ = peers.narrowed(dst, a.astype(np.float32), peer,
                             saturate=fp8_config == "saturate")
    np.testing.assert_array_equal(got.view(peers.storage(dst)), want)


def test_nki_call_shapes_take_and_give_ml_dtypes():
    """NKI tests name dtypes as ml_dtypes does (nl.bfloat16 and the fp8
    types): static_cast gives them back, tensor_cast and tensor_compute
    write into them, and the DMA's float8_e4m3fn (which the simulator's
    kernel does not add) is a destination like any other."""
    x = np.float32([1.0, 1 + 2**-8, 3 * 2**-9, 500.0])
    b = birsim.static_cast(x, ml_dtypes.bfloat16)
    assert b.dtype == np.dtype(ml_dtypes.bfloat16)
    assert b.astype(np.float32).tolist() == x.astype(
        ml_dtypes.bfloat16).astype(np.float32).tolist()
    e4 = np.zeros(4, ml_dtypes.float8_e4m3fn)
    assert birsim.tensor_cast(x, e4) is e4
    assert e4.astype(np.float32).tolist() == [1.0, 1.0, 0.005859375, 448.0]
    birsim.tensor_compute("add", [e4, b], e4)
    assert e4.astype(np.float32).tolist() == [2.0, 2.0, 0.01171875, 448.0]
    psum = np.ones(2, ml_dtypes.bfloat16)
    birsim.psum_accumulate(psum, np.float32([2**-8, 3 * 2**-9]), out=psum)
    assert psum.astype(np.float32).tolist() == [1.0, 1.0078125]
