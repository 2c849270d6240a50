"""The fidelity counters (docs/Fidelity.md) as a context manager."""
import contextlib
import ctypes
from typing import (Dict, Iterator, Optional, Union)


from ._core import (_FIDELITY_FIELDS, _check, _lib, _rt)
from ._bfp import (_site)


def _counter_values() -> Dict[str, Dict[str, int]]:
    raw = (ctypes.c_uint64 * len(_FIDELITY_FIELDS))()
    _check(_lib.birsim_fidelity_counters_sized(raw, ctypes.sizeof(raw)))
    values: Dict[str, Dict[str, int]] = {}
    for (family, key), v in zip(_FIDELITY_FIELDS, raw):
        values.setdefault(family, {})[key] = int(v)
    return values


class FidelityCounts:
    """The run-time counters since the context's entry (docs/Fidelity.md):
    ``counts[family][key]``, ``elements`` included."""

    def __init__(self) -> None:
        self._start = _counter_values()
        self._end: Optional[Dict[str, Dict[str, int]]] = None

    @property
    def counts(self) -> Dict[str, Dict[str, int]]:
        now = self._end if self._end is not None else _counter_values()
        return {f: {k: now[f][k] - self._start[f][k] for k in keys}
                for f, keys in now.items()}

    def __getitem__(self, family: str) -> Dict[str, int]:
        return self.counts[family]


@contextlib.contextmanager
def fidelity(*, where: Union[str, int] = "fp32_dest"
             ) -> Iterator[FidelityCounts]:
    """Counts what the simulator's numerics do to values inside the block:
    enables the run-time counters, yields a FidelityCounts whose counts are
    the difference since entry (nested contexts work), and restores the
    previous enable state. The counters are process-wide: calls from other
    threads inside the block count too.

    `where` is the device site bfp_pack's device_differs compares host
    packs with ("fp32_dest", "fp32_dest_e8m6", "bf16_dest",
    "bf16_dest_e8m6"; docs/Fidelity.md), restored on exit.

    >>> with birsim.fidelity() as f:
    ...     _ = birsim.cast(np.float32([1000.0]), "float8e4")
    >>> f["cast"]["saturated"]
    1
    """
    site = _site(where)
    previous_site = _lib.birsim_fidelity_device_site()
    if _lib.birsim_fidelity_set_device_site(site):
        raise ValueError("fidelity: where=%r: %s" % (where, _rt.error()))
    previous = _lib.birsim_fidelity_enabled()
    _lib.birsim_fidelity_enable(1)
    counts = FidelityCounts()
    try:
        yield counts
    finally:
        counts._end = _counter_values()
        _lib.birsim_fidelity_enable(previous)
        _lib.birsim_fidelity_set_device_site(previous_site)
