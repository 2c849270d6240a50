"""Hostile input on the NKI, Tensix and array surfaces (issue 64): a clear
error naming the argument and the rule, nothing written, never a silent
wrong answer; and the suite itself runs where a peer library is missing."""
import inspect
import io
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import birsim

F32 = np.float32
HERE = os.path.dirname(os.path.abspath(__file__))


def needs_torch():
    return pytest.importorskip("torch", reason="torch is not installed "
                               "(python3-torch, or PyTorch from PyPI)")


# ExactValidator compares the expected dtype's bytes (D60).

def test_exact_validator_compares_bytes_not_values():
    V = birsim.ExactValidator.expecting(F32([0.0, 1.0]))
    v = V()
    assert not v.validate(F32([-0.0, 1.0]).tobytes())  # -0.0 == 0.0 as values
    assert v.mismatches == 1
    assert "[0] 0x80000000 (-0.0), expected 0x00000000 (0.0)" in v.report
    nan = np.uint32([0x7FC00000, 0x3F800000]).view(F32)
    W = birsim.ExactValidator.expecting(nan)
    assert W().validate(nan.tobytes())  # the same NaN: the same bytes
    w = W()
    other = np.uint32([0x7FC00001, 0x3F800000])
    assert not w.validate(other.tobytes())  # another payload
    assert "[0] 0x7fc00001 (nan), expected 0x7fc00000 (nan)" in w.report
    h = birsim.ExactValidator.expecting(np.float16([0.0]))()
    assert not h.validate(np.float16([-0.0]))
    assert "[0] 0x8000 (-0.0), expected 0x0000 (0.0)" in h.report


def test_exact_validator_normalises_byte_order_to_little_endian():
    values = F32([1.0, -2.5])
    V = birsim.ExactValidator.expecting(values.astype(">f4"))
    assert V().validate(values.tobytes())  # little-endian bytes
    assert V().validate(values.astype(">f4"))  # an array of the type: values
    assert not V().validate(values.astype(">f4").tobytes())  # swapped bytes
    bits = birsim.ExactValidator.expecting(np.uint16([0x3F80]).astype(">u2"),
                                           "bfloat16")
    assert bits().validate(b"\x80\x3f")


@pytest.mark.parametrize("call, error, words", [
    (lambda: birsim.ExactValidator.expecting(F32([1]), max_report="x"),
     TypeError, "max_report must be an integer"),
    (lambda: birsim.ExactValidator.expecting(F32([1]), max_report=-1),
     ValueError, "max_report must be at least 0"),
    (lambda: birsim.ExactValidator(expected=F32([1]), max_report=1.5),
     TypeError, "max_report"),
    (lambda: birsim.ExactValidator.expecting(F32([1]), fidelity=5),
     TypeError, "fidelity must be a birsim.FidelityCounts"),
    (lambda: birsim.ExactValidator.expecting(F32([1]),
                                             fidelity={"cast": 3}),
     TypeError, "fidelity"),
    (lambda: birsim.ExactValidator.expecting(F32([1]))(5),
     TypeError, "logfile must be a text file"),
    (lambda: birsim.ExactValidator.expecting(F32([1]))().validate(None),
     TypeError, "inference_output must be"),
    (lambda: birsim.ExactValidator.expecting(F32([1]))().validate(
        np.float64([1])), TypeError, "inference_output: a float64 array"),
    (lambda: birsim.ExactValidator.expecting(F32([1]))().validate(
        [object()]), TypeError, "inference_output"),
])
def test_exact_validator_arguments_name_themselves(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_exact_validator_reports_at_most_max_report():
    V = birsim.ExactValidator.expecting(np.arange(5, dtype=np.int32),
                                        max_report=2)
    log = io.StringIO()
    v = V(log)
    assert not v.validate(np.arange(5, dtype=np.int32) + 1)
    assert v.mismatches == 5
    assert "[1] 0x00000002 (2), expected 0x00000001 (1)" in v.report
    assert "[2]" not in v.report and log.getvalue().count("expected") == 2


# Options are checked on every path, and refused where not applied.

@pytest.mark.parametrize("options, words", [
    ({"rounding": "bogus"}, "rounding: unknown 'bogus'"),
    ({"seed": -1}, "seed must be at least 0"),
    ({"fp8_config": "zz"}, "fp8_config: unknown 'zz'"),
    ({"rounding": "stochastic"}, "rounding='stochastic' applies to the DMA"),
    ({"fp8_config": "saturate"}, "fp8_config applies to the DMA"),
])
@pytest.mark.parametrize("call", ["accumulate", "scatter_accumulate"])
def test_kernel_path_options_are_checked_or_refused(call, options, words):
    dst = np.zeros(2, np.uint16)
    src = np.uint16([0x3F80, 0x3F81])
    args = ("add", dst, src) + (([0, 1],) if call == "scatter_accumulate"
                                else ())
    with pytest.raises(ValueError, match=words):
        getattr(birsim, call)(*args, "bfloat16", out=dst, **options)
    assert dst.tolist() == [0, 0]
    # The kernel's own rounding, named, is accepted; so is any valid seed.
    getattr(birsim, call)(*args, "bfloat16", rounding="nearest_even", seed=5)


# Python's own errors never reach the caller.

@pytest.mark.parametrize("call, error, words", [
    (lambda: birsim.tensor_compute("add", [], np.zeros(1, F32), 0),
     ValueError, "srcs is empty"),
    (lambda: birsim.tensor_compute("add", None, np.zeros(1, F32)),
     TypeError, "srcs must be a list"),
    (lambda: birsim.tensor_compute("add", F32([1]), np.zeros(1, F32)),
     TypeError, "srcs must be a list"),
    (lambda: birsim.tensor_compute("add", [F32([1])], np.zeros(1, F32),
                                   src_dtypes=5),
     TypeError, "src_dtypes must be a list"),
    (lambda: birsim.allreduce(5), TypeError, "data must be a list"),
    (lambda: birsim.allreduce([]), ValueError, "no ranks"),
    (lambda: birsim.tensix_useful_phases("hifi4", ["bfloat16"], "bfloat16"),
     TypeError, "in0_format must be a tile format's name"),
    (lambda: birsim.tensix_mul_tiles([1.0], [1.0], "lofi", in1_format=None),
     TypeError, "in1_format must be"),
    (lambda: birsim.dma_compute(np.zeros(1, F32), None),
     TypeError, "srcs must be a list"),
    (lambda: birsim.dma_compute(np.zeros(1, F32), [F32([1])], np.add, ["x"]),
     TypeError, "scales must be numbers"),
    (lambda: birsim.dma_compute(np.zeros(1, F32), [F32([1])], np.add, 1.0),
     TypeError, "scales must be a list"),
    (lambda: birsim.dma_compute(np.zeros(1, F32), [F32([1])], 5),
     TypeError, "reduce_op must be add"),
    (lambda: birsim.dma_compute(np.zeros(1, F32), [F32([1])], np.add,
                                unique_indices="yes"),
     TypeError, "unique_indices must be True or False"),
])
def test_misuse_names_the_argument_not_pythons_internals(call, error, words):
    with pytest.raises(error, match=words):
        call()


HOSTILE = [None, 5, -1, 2**70, -2**70, 1.5, float("nan"), True, "zz", "",
           [], ["bfloat16"], (1, 2), object(), F32([np.nan]),
           np.zeros((2, 3), np.uint8), {"a": 1}, b"\x00"]


M32 = np.ones((32, 32), F32)


def _fidelity(**k):
    with birsim.fidelity(**k):
        pass


def _calls():
    """Each public function with valid arguments, by name (a fresh dst each
    time); extra arguments replace these."""
    return {
        "tensor_compute": lambda **k: birsim.tensor_compute(**{
            "op": "add", "srcs": [F32([1, 2])], "dst": np.zeros(2, F32),
            **k}),
        "tensor_cast": lambda **k: birsim.tensor_cast(**{
            "src": F32([1, 2]), "dst": np.zeros(2, np.float16), **k}),
        "dma_compute": lambda **k: birsim.dma_compute(**{
            "dst": np.zeros(2, F32), "srcs": [F32([1, 2])],
            "reduce_op": "add", "scales": None, **k}),
        "static_cast": lambda **k: birsim.static_cast(**{
            "array": F32([1, 2]), "dtype": "bfloat16", **k}),
        "psum_accumulate": lambda **k: birsim.psum_accumulate(**{
            "psum": np.uint16([0x3F80]), "matmul": F32([1]), **k}),
        "allreduce": lambda **k: birsim.allreduce(**{
            "data": [F32([1]), F32([2])], "op": "add", **k}),
        "nki_dtype_name": lambda **k: birsim.nki_dtype_name(**{
            "dtype": "bfloat16", **k}),
        "accumulate": lambda **k: birsim.accumulate(**{
            "op": "add", "dst": F32([1]), "src": F32([2]), **k}),
        "scatter_accumulate": lambda **k: birsim.scatter_accumulate(**{
            "op": "add", "dst": F32([1, 0]), "src": F32([2]),
            "indices": [1], **k}),
        "collective_reduce": lambda **k: birsim.collective_reduce(**{
            "op": "add", "acc": F32([1]), "x": F32([2]), **k}),
        "alu_op_to_memory_reduction": lambda **k:
            birsim.alu_op_to_memory_reduction(**{"alu_op": "add", **k}),
        "cast": lambda **k: birsim.cast(**{
            "x": F32([1]), "dtype": "bfloat16", **k}),
        "to_float32": lambda **k: birsim.to_float32(**{
            "bits": np.uint16([1]), "dtype": "bfloat16", **k}),
        "from_float32": lambda **k: birsim.from_float32(**{
            "x": [1.0], "dtype": "bfloat16", **k}),
        "tt_fp8_encode": lambda **k: birsim.tt_fp8_encode(**{
            "x": F32([1]), **k}),
        "tt_fp8_decode": lambda **k: birsim.tt_fp8_decode(**{
            "codes": np.uint8([1]), **k}),
        "bfp_pack": lambda **k: birsim.bfp_pack(**{
            "x": M32, "format": "bfp8_b", **k}),
        "bfp_unpack": lambda **k: birsim.bfp_unpack(**{
            "packed": birsim.bfp_pack(M32, "bfp8_b"), "format": "bfp8_b",
            **k}),
        "bfp_pack_matrix": lambda **k: birsim.bfp_pack_matrix(**{
            "m": M32, "format": "bfp8_b", **k}),
        "bfp_unpack_matrix": lambda **k: birsim.bfp_unpack_matrix(**{
            "packed": birsim.bfp_pack_matrix(M32, "bfp8_b"),
            "format": "bfp8_b", "shape": (32, 32), **k}),
        "bfp_pack_mixed": lambda **k: birsim.bfp_pack_mixed(**{
            "m": M32, "codes": [[0]], **k}),
        "bfp_unpack_mixed": lambda **k: birsim.bfp_unpack_mixed(**{
            "packed": birsim.bfp_pack_mixed(M32, [[0]]), "codes": [[0]],
            "shape": (32, 32), **k}),
        "bfp_assign_mixed": lambda **k: birsim.bfp_assign_mixed(**{
            "m": M32, **k}),
        "bfp_device_diff": lambda **k: birsim.bfp_device_diff(**{
            "x": M32, "format": "bfp8_b", "where": "fp32_dest", **k}),
        "round_trip": lambda **k: birsim.round_trip(**{
            "x": F32([1]), "to": "bfloat16", **k}),
        "ulp_distance": lambda **k: birsim.ulp_distance(**{
            "a": F32([1]), "b": F32([1]), "dtype": "bfloat16", **k}),
        "fidelity": _fidelity,
        "tensix_eltwise": lambda **k: birsim.tensix_eltwise(**{
            "a": F32([1]), "b": F32([2]), "op": "mul", **k}),
        "tensix_pack": lambda **k: birsim.tensix_pack(**{
            "dest_values": F32([1]), "to": "bfloat16", **k}),
        "tensix_mul_tiles": lambda **k: birsim.tensix_mul_tiles(**{
            "in0": F32([1]), "in1": F32([2]), "fidelity": "lofi", **k}),
        "tensix_matmul": lambda **k: birsim.tensix_matmul(**{
            "in0": M32, "in1": M32, **k}),
        "tensix_useful_phases": lambda **k: birsim.tensix_useful_phases(**{
            "fidelity": "hifi4", "in0_format": "bfloat16",
            "in1_format": "bfp4_b", **k}),
        "tensix_sfpu": lambda **k: birsim.tensix_sfpu(**{
            "x": np.uint16([0x3F80]), "op": "exp", **k}),
        "tensix_sfpu_run": lambda **k: birsim.tensix_sfpu_run(**{
            "program": "SFPLOAD 0, 0, 0, 0\nSFPSTORE 0, 0, 0, 0",
            "x": np.uint16([0x3F80]), **k}),
        "dtype_of": lambda **k: birsim.dtype_of(**{"spec": "bfloat16", **k}),
        "storage_type": lambda **k: birsim.storage_type(**{
            "dtype": "bfloat16", **k}),
        "set_num_threads": lambda **k: birsim.set_num_threads(**{
            "n": 0, **k}),
    }


def test_the_sweep_covers_every_public_function():
    functions = {name for name in birsim.__all__
                 if inspect.isfunction(getattr(birsim, name))}
    assert functions - {"active_isa"} == set(_calls())


@pytest.mark.parametrize("name", sorted(_calls()))
def test_every_argument_refuses_hostile_values_by_name(name):
    """Each argument (from the signature) of each public function, given
    each hostile value: the call works or raises the error NumPy would
    (TypeError, ValueError, IndexError) or the runtime's (BirsimError), and
    a Python error names the call or the argument, never only Python's
    internals ("object is not iterable", "unhashable type", "min() arg")."""
    call = _calls()[name]
    call()  # the valid call works
    previous = birsim.set_num_threads(0)
    parameters = inspect.signature(getattr(birsim, name)).parameters
    try:
        for argument, p in parameters.items():
            if p.kind == p.VAR_KEYWORD:
                continue
            for value in HOSTILE:
                try:
                    call(**{argument: value})
                except birsim.BirsimError:
                    pass
                except (TypeError, ValueError, IndexError) as e:
                    message = str(e)
                    assert (name in message or argument in message or
                            "read-only" in message), (
                        "%s(%s=%r): %s: %s" % (name, argument, value,
                                               type(e).__name__, message))
    finally:
        birsim.set_num_threads(previous)


# Outputs whose elements share memory, or that autograd tracks.

def test_numpy_out_with_elements_at_one_address_is_refused():
    buf = np.zeros(4, F32)
    out = np.lib.stride_tricks.as_strided(buf, shape=(2,), strides=(0,))
    with pytest.raises(ValueError, match="out has elements at one address"):
        birsim.accumulate("add", F32([1, 2]), F32([3, 4]), out=out)
    interleaved = np.lib.stride_tricks.as_strided(buf, shape=(2, 2),
                                                  strides=(4, 4))
    with pytest.raises(ValueError, match="out has elements at one address"):
        birsim.tensix_eltwise(F32([[1, 2], [3, 4]]), F32([[1, 1], [1, 1]]),
                              out=interleaved)
    assert buf.tolist() == [0, 0, 0, 0]
    # Disjoint strided and reversed views are fine.
    birsim.accumulate("add", F32([1, 2]), F32([3, 4]), out=buf[::2])
    birsim.accumulate("add", F32([1, 2]), F32([3, 4]), out=buf[:2][::-1])
    assert buf.tolist() == [6, 4, 6, 0]


def test_torch_out_expanded_or_requiring_grad_is_refused():
    torch = needs_torch()
    one = torch.zeros(1)
    with pytest.raises(ValueError, match="out has elements at one address"):
        birsim.accumulate("add", F32([1, 2]), F32([3, 4]), out=one.expand(2))
    with pytest.raises(ValueError, match="elements at one address"):
        birsim.tensor_compute("add", [F32([1, 2])], one.expand(2))
    assert one.tolist() == [0.0]
    g = torch.zeros(2, requires_grad=True)
    for call in (lambda: birsim.accumulate("add", F32([1, 2]), F32([3, 4]),
                                           out=g),
                 lambda: birsim.tensor_cast(F32([1, 2]), g),
                 lambda: birsim.psum_accumulate(
                     torch.zeros(2, dtype=torch.bfloat16, requires_grad=True),
                     F32([1, 2]), out=g)):
        with pytest.raises(ValueError, match="out requires grad"):
            call()
    assert g.tolist() == [0.0, 0.0]


# One list of tile formats.

def test_tile_formats_are_one_list_for_every_tensix_call():
    names = ([f.name for f in birsim.bfp_formats] +
             [d.name for d in birsim.dtypes] +
             ["tf32", "bf16", "bfloat8_b", "bfloat4_b", "bfloat2_b",
              "bfloat8_a"])
    a = np.ones((32, 32), F32)
    for name in names:
        verdicts = []
        for call in (lambda: birsim.tensix_useful_phases("hifi4", name, name),
                     lambda: birsim.tensix_mul_tiles(a, a, "lofi",
                                                     in0_format=name,
                                                     in1_format=name),
                     lambda: birsim.tensix_matmul(a, a, in0_format=name,
                                                  in1_format=name)):
            try:
                call()
                verdicts.append(True)
            except ValueError as e:
                assert "not a tile format the FPU takes" in str(e)
                verdicts.append(False)
        assert verdicts in ([True] * 3, [False] * 3), (name, verdicts)
        if name in ("bfp8_a", "mxfp4", "tf32"):
            assert verdicts == [False] * 3, name


# torch's dtypes come from the dtypes, not from torch's module names.

def test_torch_dtypes_survive_a_library_rebinding_their_names(monkeypatch):
    torch = needs_torch()
    from birsim import _types
    real_bf16 = torch.empty(0).bfloat16().dtype
    x = torch.tensor([1.0, 2.0, 3.0])
    # tt-lang's functional simulator rebinds these in the process.
    monkeypatch.setattr(torch, "bfloat16", torch.float32)
    monkeypatch.setattr(torch, "float16", torch.float32)
    monkeypatch.setattr(_types, "_torch_dtypes", {})  # found afresh
    got = birsim.cast(x, "bfloat16")
    assert got.dtype == real_bf16 and got.shape == (3,)
    assert got.float().tolist() == [1.0, 2.0, 3.0]
    bits = birsim.accumulate("add", got, got)
    assert bits.dtype == real_bf16 and bits.float().tolist() == [2, 4, 6]
    assert birsim.dtype_of(torch.float16).name == "float32"  # what it is now


# NKI's dma_compute with vector_offset (aws-neuron-sdk @539a73c5, D56).

def test_dma_compute_vector_offset_scatters_rows():
    table = np.zeros((4, 2), np.float16)
    data = F32([[1, 2], [3, 4]])
    got = birsim.dma_compute(table, [table, data], np.add,
                             vector_offset=np.int32([3, 1]))
    assert got is table
    assert table.tolist() == [[0, 0], [3, 4], [0, 0], [1, 2]]
    # data first, dst second: the same scatter.
    birsim.dma_compute(table, [data, table], "add", [1.0, 1.0],
                       vector_offset=[0, 2])
    assert table.tolist() == [[1, 2], [3, 4], [3, 4], [1, 2]]
    # A 1-D dst: one element per index, the bits of a dtype NumPy lacks.
    bf = birsim.from_float32([1, 1, 1], "bfloat16")
    birsim.dma_compute(bf, [bf, F32([2**-8, 0.5])], np.add, dst_dtype="bfloat16",
                       vector_offset=[2, 0])
    assert birsim.to_float32(bf, "bfloat16").tolist() == [1.5, 1, 1]


def test_dma_compute_unique_indices_refuses_a_repeated_index():
    table = np.zeros((3, 2), F32)
    data = np.full((3, 2), 2**-8, F32)
    with pytest.raises(ValueError, match="repeats index 1 .at .0, 2.. with "
                       "unique_indices=True"):
        birsim.dma_compute(table, [table, data], np.add,
                           vector_offset=[1, 0, 1])
    assert not table.any()
    # unique_indices=False: in order, each write rounding (D56), as the
    # scatter of flat indices does.
    bf = birsim.from_float32(np.ones((3, 2)), "bfloat16")
    want = birsim.scatter_accumulate("add", bf, data.reshape(-1),
                                     [2, 3, 0, 1, 2, 3], "bfloat16",
                                     src_dtype="float32")
    birsim.dma_compute(bf, [bf, data], np.add, vector_offset=[1, 0, 1],
                       unique_indices=False, dst_dtype="bfloat16")
    np.testing.assert_array_equal(bf, want)


@pytest.mark.parametrize("kwargs, error, words", [
    ({"vector_offset": [0, 5]}, IndexError, "index 5 is outside dst's 3 rows"),
    ({"vector_offset": [-1, 0]}, IndexError, "index -1 is outside"),
    ({"vector_offset": [0.5, 1]}, IndexError, "must hold integers"),
    ({"vector_offset": [0]}, ValueError, "data has 4 elements"),
    ({"vector_offset": [0, 1], "srcs": "no dst"}, ValueError,
     "srcs must be .dst, data."),
])
def test_dma_compute_vector_offset_misuse_writes_nothing(kwargs, error, words):
    table = np.zeros((3, 2), F32)
    data = np.ones((2, 2), F32)
    srcs = [data, data.copy()] if kwargs.pop("srcs", None) else [table, data]
    with pytest.raises(error, match=words):
        birsim.dma_compute(table, srcs, np.add, **kwargs)
    assert not table.any()


def test_sequences_of_arrays_may_be_any_iterable():
    ranks = [F32([1]), F32([2])]
    assert birsim.allreduce(iter(ranks)).tolist() == [3.0]
    dst = np.zeros(1, F32)
    birsim.tensor_compute("add", (r for r in ranks), dst)
    assert dst.tolist() == [3.0]


def test_dma_compute_takes_the_older_argument_order():
    # @3cd78520: dma_compute(dst, srcs, scales, reduce_op).
    psum = np.zeros(1, F32)
    birsim.dma_compute(psum, [F32([0.5]), F32([0.25])], [1.0, 1.0], np.add)
    birsim.dma_compute(psum, [F32([0.5])], None, "add")
    assert psum.tolist() == [0.5]
    with pytest.raises(ValueError, match="every scale must be 1.0"):
        birsim.dma_compute(psum, [F32([0.5])], [2.0], np.add)


# The suite runs where a peer library is missing.

def test_the_python_suite_collects_without_torch():
    """Every test file of this directory, with torch unimportable, collects
    (the tests needing torch skip with the reason when run)."""
    script = ("import sys; sys.modules['torch'] = None; import pytest; "
              "sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', "
              "'--collect-only', %r]))" % HERE)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True,
                         text=True, env=dict(os.environ))
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(r"\d+ tests? collected", run.stdout), run.stdout
    assert not re.search(r"\d+ errors?", run.stdout), run.stdout
