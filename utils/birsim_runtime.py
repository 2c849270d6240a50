"""The repository's generators and table checks reach libbirsim_runtime.so
through the Python package's ctypes layer (python/birsim/_runtime.py),
without NumPy: `Runtime(path)` with the library's path."""
import importlib.util
import os

_spec = importlib.util.spec_from_file_location(
    "birsim_ctypes", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                  "..", "python", "birsim", "_runtime.py"))
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)

Runtime = _module.Runtime
Dtype = _module.Dtype
DtypeInfo = _module.DtypeInfo
