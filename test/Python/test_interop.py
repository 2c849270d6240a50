"""Dtypes as NumPy, ml_dtypes and PyTorch users name them, torch tensors in
and out, the golden helpers (round_trip, ulp_distance) and the docstrings'
examples as doctests (docs/Python.md)."""
import doctest

import numpy as np
import pytest

import birsim

F32 = np.float32


def needs_torch():
    """torch, or the calling test skipped with the reason: torch is optional
    (docs/Python.md), so the other tests run without it."""
    return pytest.importorskip("torch", reason="torch is not installed "
                               "(python3-torch, or PyTorch from PyPI)")


def numpy_of(t):
    """A tensor's elements as NumPy's, through a same-width integer view
    where NumPy lacks the type (bfloat16; torch 2's float8 types, whose
    .numpy() raises TypeError)."""
    torch = needs_torch()
    try:
        return t.numpy()
    except TypeError:
        width = t.element_size()
        return t.view(torch.uint8 if width == 1 else
                      getattr(torch, "int%d" % (8 * width))).numpy()


def test_docstring_examples_run():
    import birsim.__main__  # noqa: F401 (its module docstring too)
    failures, tried = doctest.testmod(birsim, extraglobs={"np": np,
                                                          "birsim": birsim})
    assert failures == 0 and tried >= 20


def test_every_public_name_is_documented_and_typed():
    for name in birsim.__all__:
        obj = getattr(birsim, name)
        if callable(obj) and not isinstance(obj, type):
            assert obj.__doc__ and "__annotations__" in dir(obj), name
            assert "return" in obj.__annotations__, name


@pytest.mark.parametrize("spelling, name", [
    ("f8E4M3", "float8e4"), ("float8_e4m3", "float8e4"),
    ("f8E5M2", "float8e5"), ("float8_e5m2", "float8e5"),
    ("f8E3M4", "float8e3"), ("float8_e3m4", "float8e3"),
    ("f8E4M3FN", "float8_e4m3fn"), ("float8_e4m3fn", "float8_e4m3fn"),
    ("float8_e8m0fnu", "float8_e8m0fnu"), ("bf16", "bfloat16"),
    ("bfloat16", "bfloat16"), ("f16", "float16"), ("ui8", "uint8"),
    ("i64", "int64"), (np.float16, "float16"), (np.dtype("int32"), "int32"),
    (4, "float8e4"),
])
def test_dtype_spellings(spelling, name):
    assert birsim.dtype_of(spelling).name == name


@pytest.mark.parametrize("torch_name, name", [("bfloat16", "bfloat16"),
                                              ("float32", "float32")])
def test_torch_dtype_spellings(torch_name, name):
    torch = needs_torch()
    assert birsim.dtype_of(getattr(torch, torch_name)).name == name


def test_the_ml_names_are_derived_from_the_runtimes_mlir_spelling():
    from birsim import _types
    for d in birsim.dtypes:
        assert birsim.dtype_of(_types.ml_name(d.mlir_type)) is d
    assert _types.ml_name("f8E4M3FNUZ") == "float8_e4m3fnuz"
    assert _types.ml_name("f4E2M1FN") == "float4_e2m1fn"


def test_float8e4_is_not_float8_e4m3fn_and_e8m0_is_a_byte():
    """docs/Python.md's warning: float8e4 is IEEE-style E4M3 (largest 240,
    with Inf); float8_e4m3fn is finite with one NaN (largest 448)."""
    x = F32([300.0, 448.0, np.inf])
    assert birsim.round_trip(x, "float8e4", fp8_config="none").tolist() == [
        np.inf, np.inf, np.inf]
    assert birsim.round_trip(x, "float8e4").tolist() == [240.0, 240.0, 240.0]
    assert birsim.round_trip(x, "float8_e4m3fn").tolist() == [
        288.0, 448.0, 448.0]
    assert birsim.dtype_of("float8_e8m0fnu").kind == "unsigned_int"
    assert birsim.cast(np.uint8([127, 255]), "uint32",
                       src_dtype="float8_e8m0fnu").tolist() == [127, 255]


class FakeMlDtype:
    """What ml_dtypes' dtypes look like to the package: a void-kind dtype
    with the type's name and size (Debian does not package ml_dtypes)."""
    kind = "V"

    def __init__(self, name, itemsize):
        self.name, self.itemsize = name, itemsize
        self.type = type(name, (), {})


def test_ml_dtypes_types_are_recognised_by_name_and_size():
    table = birsim._core._TABLE
    assert table.of_numpy(FakeMlDtype("bfloat16", 2)).name == "bfloat16"
    assert table.of_numpy(FakeMlDtype("float8_e4m3fn", 1)).name == "float8_e4m3fn"
    assert table.of_numpy(FakeMlDtype("float8_e4m3", 1)).name == "float8e4"
    assert table.of_numpy(FakeMlDtype("bfloat16", 4)) is None
    assert table.of_numpy(FakeMlDtype("int4", 1)) is None


def test_torch_tensors_in_and_out_against_numpy():
    torch = needs_torch()
    rng = np.random.default_rng(4)
    a = rng.normal(0, 100, (32, 64)).astype(F32)
    b = rng.normal(0, 100, (32, 64)).astype(F32)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    r = birsim.accumulate("add", ta, tb)
    assert isinstance(r, torch.Tensor) and r.dtype == torch.float32
    assert r.numpy().tobytes() == birsim.accumulate("add", a, b).tobytes()
    c = birsim.collective_reduce("max", ta, tb)
    assert c.numpy().tobytes() == birsim.collective_reduce("max", a, b).tobytes()
    s = birsim.scatter_accumulate("add", ta, tb[0], torch.arange(64) * 3)
    assert s.numpy().tobytes() == birsim.scatter_accumulate(
        "add", a, b[0], np.arange(64) * 3).tobytes()
    # bfloat16 through its 16-bit view, and back as torch.bfloat16.
    bf = birsim.cast(ta, "bfloat16")
    assert bf.dtype == torch.bfloat16
    assert numpy_of(bf).view(np.uint16).tolist() == \
        birsim.cast(a, "bfloat16").tolist()
    assert (bf.float() == ta.bfloat16().float()).all()  # torch rounds the same
    assert birsim.to_float32(bf).dtype == torch.float32
    back = birsim.accumulate("add", bf, bf)
    assert back.dtype == torch.bfloat16
    fp8 = birsim.cast(ta, "float8e4")
    assert fp8.dtype == torch.uint8  # torch has no IEEE-style E4M3: the bits
    assert fp8.numpy().tolist() == birsim.cast(a, "float8e4").tolist()
    # float8_e5m2: torch's own type where torch has one (2.1 on), else bits.
    e5 = birsim.cast(ta, "float8e5")
    assert e5.dtype == getattr(torch, "float8_e5m2", torch.uint8)
    assert numpy_of(e5).tobytes() == birsim.cast(a, "float8e5").tobytes()
    for fmt in birsim.bfp_formats:
        p = birsim.bfp_pack_matrix(torch.from_numpy(rng.normal(
            0, 1, (32, 64)).astype(F32)).bfloat16(), fmt.name)
        assert isinstance(p, torch.Tensor) and p.dtype == torch.uint8
        u = birsim.bfp_unpack_matrix(p, fmt.name, (32, 64))
        assert isinstance(u, torch.Tensor) and u.shape == (32, 64)
    rt = birsim.round_trip(ta, "bfp8_b", matrix=True)
    assert isinstance(rt, torch.Tensor)
    assert rt.numpy().tobytes() == birsim.round_trip(a, "bfp8_b",
                                                     matrix=True).tobytes()


@pytest.mark.parametrize("dtype_name", ["float32", "float16", "int8",
                                        "uint8", "int16", "int32", "int64",
                                        "bfloat16"])
def test_every_function_with_tensors_of_each_kind(dtype_name):
    """Each function on a tensor equals the same function on the NumPy
    array of its values (bfloat16: its bits named "bfloat16")."""
    torch = needs_torch()
    dtype = getattr(torch, dtype_name)
    t = (torch.arange(2048, dtype=torch.float32) % 97 - 40).to(dtype)
    u = (torch.arange(2048, dtype=torch.float32) % 13 - 6).to(dtype)
    if dtype == torch.bfloat16:
        a = numpy_of(t).view(np.uint16)
        b = numpy_of(u).view(np.uint16)
        name = "bfloat16"
    else:
        a, b, name = t.numpy(), u.numpy(), None
    row = birsim.dtype_of(dtype)

    def same(tensor_result, numpy_result):
        assert isinstance(tensor_result, torch.Tensor)
        assert numpy_of(tensor_result).tobytes() == numpy_result.tobytes()

    if row.reduction != "none":
        for op in ("copy", "add", "min", "max"):
            same(birsim.accumulate(op, t, u), birsim.accumulate(op, a, b, name))
        idx = torch.arange(2048) % 100
        same(birsim.scatter_accumulate("add", t, u, idx),
             birsim.scatter_accumulate("add", a, b, idx.numpy(), name))
    for to in ("float32", "bfloat16", "float8e5"):
        same(birsim.cast(t, to), birsim.cast(a, to, src_dtype=name))
    if dtype in (torch.float32, torch.bfloat16, torch.int8, torch.uint8,
                 torch.int32):
        same(birsim.bfp_pack(t, "bfp4_b"), birsim.bfp_pack(a, "bfp4_b",
                                                            src_dtype=name))
        same(birsim.round_trip(t, "bfp8_b", faces=True),
             birsim.round_trip(a, "bfp8_b", faces=True, src_dtype=name))
    same(birsim.round_trip(t, "float8e4"),
         birsim.round_trip(a, "float8e4", src_dtype=name))
    same(birsim.from_float32(t, "bfloat16"),
         birsim.from_float32(birsim.to_float32(a, name), "bfloat16"))


def test_torch_tensors_without_copies_and_out():
    torch = needs_torch()
    t = torch.ones(8)
    birsim.accumulate("add", t, t, out=t)
    assert t.tolist() == [2.0] * 8
    # A contiguous tensor's memory is what the runtime reads.
    big = torch.zeros(1 << 20)
    assert birsim.accumulate("copy", big, big, out=big) is big
    nc = torch.arange(16, dtype=torch.float32)[::2]
    assert birsim.accumulate("add", nc, nc).tolist() == (2 * nc).tolist()
    with pytest.raises(TypeError, match="int16 array is not float32"):
        birsim.accumulate("add", torch.zeros(2, dtype=torch.int16),
                          torch.zeros(2, dtype=torch.int16), "float32")
    g = torch.ones(2, requires_grad=True)
    assert birsim.cast(g, "bfloat16").dtype == torch.bfloat16


def test_round_trip_every_form():
    rng = np.random.default_rng(8)
    x = rng.normal(0, 3, (64, 64)).astype(F32)
    bits = birsim.cast(x, "bfloat16")
    assert birsim.round_trip(x, "bfloat16").tobytes() == birsim.to_float32(
        bits, "bfloat16").tobytes()
    for fmt in birsim.bfp_formats:
        for kwargs in ({}, {"faces": True}, {"tile": (16, 32)},
                       {"matrix": True}, {"transpose": True, "tile": (16, 32)}):
            got = birsim.round_trip(x, fmt.name, **kwargs)
            if kwargs.get("matrix") or kwargs.get("transpose"):
                tile = kwargs.get("tile", (32, 32))
                want = birsim.bfp_unpack_matrix(birsim.bfp_pack_matrix(
                    x, fmt.name, tile=tile,
                    transpose=kwargs.get("transpose", False)), fmt.name,
                    x.shape, tile=tile, transpose=kwargs.get("transpose", False))
            else:
                want = birsim.bfp_unpack(birsim.bfp_pack(x, fmt.name, **kwargs),
                                         fmt.name, **kwargs).reshape(x.shape)
            assert got.shape == x.shape and got.tobytes() == want.tobytes()


def _all_codes(name):
    row = birsim.dtype_of(name)
    codes = np.arange(1 << (8 * row.bytes), dtype="u%d" % row.bytes)
    return birsim.to_float32(codes.view(birsim.storage_type(name)), name)


@pytest.mark.parametrize("name", ["float8e3", "float8e4", "float8e5",
                                  "float8_e4m3fn", "bfloat16", "float16"])
def test_ulp_distance_counts_values_between(name):
    """Exhaustive: between two values of the format, the ULP distance is
    the number of distinct values of the format in (lo, hi], from a sorted
    table of every code (an oracle that never looks at bit layouts)."""
    values = _all_codes(name)
    values = values[~np.isnan(values)]
    distinct = np.unique(values.astype(np.float64))  # -0 and +0 are one
    rng = np.random.default_rng(1)
    a = rng.choice(values, 4000)
    b = rng.choice(values, 4000)
    got = birsim.ulp_distance(a, b, name)
    lo = np.searchsorted(distinct, np.minimum(a, b).astype(np.float64))
    hi = np.searchsorted(distinct, np.maximum(a, b).astype(np.float64))
    assert (got == hi - lo).all()
    assert (birsim.ulp_distance(values, values, name) == 0).all()


def test_ulp_distance_errors_and_bfp():
    with pytest.raises(ValueError, match="not a bfloat16 value"):
        birsim.ulp_distance(F32([0.1]), F32([0.1]), "bfloat16")
    with pytest.raises(ValueError, match="NaN against a number"):
        birsim.ulp_distance(F32([np.nan]), F32([1.0]), "float32")
    assert birsim.ulp_distance(F32([np.nan]), F32([np.nan]), "float32")[0] == 0
    assert birsim.ulp_distance(F32([1.0]), F32([np.nextafter(F32(1), F32(2))]),
                               "float32")[0] == 1
    # BFP: a tile whose blocks share exponent 2^0 (bfp8_b: ULP 2^-6).
    x = np.full((32, 32), 1.0, F32)
    x[0, 0] = 1.5
    y = x.copy()
    y[0, 1] += 3 * 2.0 ** -6
    y[1, 0] += 0.5 * 2.0 ** -6
    d = birsim.ulp_distance(x, y, "bfp8_b")
    assert d[0, 1] == 3 and d[1, 0] == 0.5 and d.sum() == 3.5
    # The distance between host and round-tripped values is under 1 ULP
    # (each value is rounded at its own exponent, then aligned by
    # truncation to the block's: under one ULP of the block).
    rng = np.random.default_rng(3)
    v = rng.normal(0, 1, (64, 64)).astype(F32)
    for fmt in ("bfp8_b", "bfp8_a"):
        back = birsim.round_trip(v, fmt, matrix=True)
        assert birsim.ulp_distance(back, v, fmt, matrix=True).max() < 1
    assert birsim.ulp_distance(np.zeros((32, 32), F32), np.zeros((32, 32), F32),
                               "bfp4_b").max() == 0
