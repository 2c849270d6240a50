"""The Tensix SFPU from Python (docs/Python.md, "The SFPU"): the named ops
and programs as text, with NumPy, ml_dtypes and torch in and out, and the
errors NumPy users expect."""
import numpy as np
import pytest

import birsim


def bf16(values):
    return birsim.from_float32(np.float32(values), "bfloat16")


def test_exp_on_a_bf16_dest_as_the_llk_computes_it():
    out = birsim.tensix_sfpu(bf16([0.0, 1.0, -1.0]), "exp")
    # exp(-1): the device's 0.369140625, one ULP above the correctly
    # rounded 0.3671875.
    assert birsim.to_float32(out, "bfloat16").tolist() == [1.0, 2.71875,
                                                            0.369140625]
    # c0 as the LLK loads it (fp16 0x3C02): 0x3B07 gives 0x3F81.
    x = np.array([0x3B07], np.uint16)
    assert int(birsim.tensix_sfpu(x, "exp").view(np.uint16)[0]) == 0x3F81


def test_every_bf16_value_equals_the_c_call_and_the_program():
    x = np.arange(65536, dtype=np.uint16)
    for arch in birsim.tensix_archs:
        named = birsim.tensix_sfpu(x, "exp_approx", arch=arch)
        program = birsim.tensix_sfpu_run(
            "init:\nSFPCONFIG 0, 15, 1\nSFPLOADI 0, 10, 0\n"
            "SFPLOADI 0, 8, 0xc2b1\nSFPCONFIG 0, 14, 0\n"
            "SFPLOADI 0, 10, 0xaa3b\nSFPLOADI 0, 8, 0x43b8\n"
            "SFPCONFIG 0, 12, 0\nSFPLOADI 0, 10, 0xe9a3\n"
            "SFPLOADI 0, 8, 0x46fd\nSFPCONFIG 0, 13, 0\nbody:\n"
            "SFPLOAD 0, 0, 3, 0\nSFPSWAP 0, 14, 0, 9\n"
            "SFPMAD 12, 0, 13, 0, 0\nSFP_STOCH_RND 0, 0, 0, 0, 0, 6\n"
            "SFPSHFT 15, 0, 0, 1\nSFPSTORE 0, 0, 3, 0\n", x, arch=arch)
        assert np.array_equal(np.asarray(named).view(np.uint16),
                              np.asarray(program).view(np.uint16))


def test_programs_on_each_dest_kind_and_peers_in_and_out():
    square_plus_one = ("SFPLOAD 0, 0, 0, 0\nSFPMAD 0, 0, 10, 1, 0\n"
                       "SFPSTORE 1, 0, 0, 0\n")
    out = birsim.tensix_sfpu_run(square_plus_one, np.float32([3.0, -0.5]),
                                 dest="fp32")
    assert out.dtype == np.float32 and out.tolist() == [10.0, 1.25]
    out = birsim.tensix_sfpu_run(square_plus_one, np.float16([2.0]),
                                 dest="fp16")
    assert out.dtype == np.float16 and out.tolist() == [5.0]


def test_torch_and_ml_dtypes_round_trip():
    torch = pytest.importorskip("torch")
    t = torch.tensor([0.0, 1.0], dtype=torch.bfloat16)
    out = birsim.tensix_sfpu(t, "exp")
    assert isinstance(out, torch.Tensor) and out.dtype == torch.bfloat16
    assert out.tolist() == [1.0, 2.71875]


def test_ml_dtypes_in_and_out():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = np.array([0.0, 1.0], ml_dtypes.bfloat16)
    out = birsim.tensix_sfpu(x, "exp")
    assert out.dtype == ml_dtypes.bfloat16
    assert out.astype(np.float32).tolist() == [1.0, 2.71875]


def test_errors_name_the_argument_and_the_rule():
    with pytest.raises(birsim.SfpuError) as caught:
        birsim.tensix_sfpu_run("SFPBAD", bf16([1.0]))
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, birsim.BirsimError)
    assert caught.value.status == -1
    with pytest.raises(ValueError, match="D87"):
        birsim.tensix_sfpu(np.float32([1.0]), "exp", dest="fp32")
    with pytest.raises(ValueError, match="op"):
        birsim.tensix_sfpu(bf16([1.0]), "gelu")
    with pytest.raises(ValueError, match="line 2: unknown mnemonic 'SFPBAD'"):
        birsim.tensix_sfpu_run("SFPNOP\nSFPBAD 1", bf16([1.0]))
    with pytest.raises(ValueError, match="SFPLOADMACRO=1"):
        birsim.tensix_sfpu_run("SFPLOADMACRO 0, 0, 0, 0", bf16([1.0]))
    with pytest.raises(ValueError, match="null character"):
        birsim.tensix_sfpu_run("SFPNOP\0SFPBAD", bf16([1.0]))
    with pytest.raises(TypeError, match="program must be a str"):
        birsim.tensix_sfpu_run(b"SFPNOP", bf16([1.0]))
    with pytest.raises(ValueError, match="arch"):
        birsim.tensix_sfpu(bf16([1.0]), "exp", arch="grayskull")
    with pytest.raises(ValueError, match="dest"):
        birsim.tensix_sfpu(bf16([1.0]), "exp", dest="int8")


def test_a_refusal_in_a_later_group_returns_nothing_half_done():
    x = np.float32(np.arange(64))
    with pytest.raises(ValueError, match="group 0"):
        birsim.tensix_sfpu_run("SFPLOADI 0, 2, 7\nSFPSTORE 0, 4, 0, 0\n"
                               "SFPPOPC 0, 0, 0, 0", x, dest="fp32")
    assert x.tolist() == list(range(64))
