"""birsim from Python: the BIR simulator's numerics and tt-metal's BFP
conversion, exact, over libbirsim_runtime.so.0 (docs/Python.md).

Arrays are NumPy arrays, lists, ml_dtypes arrays or CPU torch tensors;
results come back in the caller's kind. Element types NumPy lacks
(bfloat16, the fp8 formats) also travel as their bits in uint16 / uint8
arrays. Every table comes from the runtime. Misuse raises TypeError,
ValueError or IndexError before any call; what the runtime rejects raises
``BirsimError`` with its status and message; either way nothing is written.

>>> import numpy as np, birsim
>>> birsim.to_float32(birsim.from_float32([1.0, 1000.0], "float8_e4m3"), "float8_e4m3")
array([  1., 240.], dtype=float32)
"""
from ._core import (ArrayLike, BfpFormat, BirsimError, Dtype, DtypeLike,
                    __version__, active_isa, bfp_formats, dtype_of, dtypes,
                    set_num_threads, storage_type, tt_fp8_policies)
from ._casts import (accumulate, alu_op_to_memory_reduction, cast,
                     collective_reduce, from_float32, roundings,
                     scatter_accumulate,
                     to_float32, tt_fp8_decode, tt_fp8_encode)
from ._bfp import (bfp_assign_mixed, bfp_device_diff, bfp_mixed_codes,
                   bfp_pack, bfp_pack_matrix, bfp_pack_mixed, bfp_unpack,
                   bfp_unpack_matrix, bfp_unpack_mixed)
from ._golden import round_trip, ulp_distance
from ._nki import (ExactValidator, allreduce, dma_compute, nki_dtype_name,
                   psum_accumulate, static_cast, tensor_cast, tensor_compute)
from ._fidelity import FidelityCounts, fidelity
from ._sfpu import SfpuError, tensix_sfpu, tensix_sfpu_ops, tensix_sfpu_run
from ._tensix import (tensix_archs, tensix_dests, tensix_eltwise,
                      tensix_fidelities, tensix_matmul, tensix_mul_tiles,
                      tensix_ops, tensix_pack, tensix_src_formats,
                      tensix_useful_phases)

__all__ = [
    "__version__", "accumulate", "active_isa", "allreduce",
    "alu_op_to_memory_reduction", "bfp_assign_mixed", "bfp_device_diff",
    "bfp_formats", "bfp_mixed_codes", "bfp_pack", "bfp_pack_matrix",
    "bfp_pack_mixed", "bfp_unpack", "bfp_unpack_matrix", "bfp_unpack_mixed",
    "BfpFormat", "BirsimError", "SfpuError", "cast", "collective_reduce", "dma_compute",
    "Dtype", "dtype_of", "dtypes", "ExactValidator", "fidelity",
    "FidelityCounts", "from_float32", "nki_dtype_name", "psum_accumulate",
    "round_trip", "roundings", "scatter_accumulate", "set_num_threads",
    "static_cast", "storage_type", "tensix_archs", "tensix_dests",
    "tensix_eltwise", "tensix_fidelities", "tensix_matmul",
    "tensix_mul_tiles", "tensix_ops", "tensix_pack", "tensix_sfpu",
    "tensix_sfpu_ops", "tensix_sfpu_run", "tensix_src_formats",
    "tensix_useful_phases", "tensor_cast", "tensor_compute", "to_float32",
    "tt_fp8_decode", "tt_fp8_encode", "tt_fp8_policies", "ulp_distance"
]

# The public names are birsim's (as NumPy's set_module does): help(),
# reprs and doctest.testmod(birsim) see them here, not in the modules by
# concern that define them.
for _name in __all__:
    _obj = globals()[_name]
    if getattr(_obj, "__module__", "").startswith("birsim."):
        _obj.__module__ = __name__
del _name, _obj
