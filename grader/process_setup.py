"""How a grading process sets itself up, before numpy is imported and once it is loaded: one BLAS
thread (OpenBLAS's helper threads spin on the core the student's worker needs), and long-lived
processes freeze what they loaded out of the collector's way (docs/architecture.md measures both).
"""
from __future__ import annotations

import gc
import os

BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def single_threaded_blas(environ=None) -> None:
    """One BLAS thread, unless the user chose otherwise. Only effective before numpy's import."""
    environ = os.environ if environ is None else environ
    for name in BLAS_THREADS:
        environ.setdefault(name, "1")


def freeze_loaded_objects() -> None:
    """Collect once, then keep every object alive now out of later collections (gc.freeze)."""
    gc.collect()
    gc.freeze()


def one_shot_collector() -> None:
    """No cyclic garbage collection in a process that grades one submission and exits without
    teardown (`vitgrade grade`): its ~90 collections found almost nothing to free and cost
    ~15-40 ms of its CPU (docs/architecture.md). Reference counting still frees nearly
    everything; what it cannot (cycles: classes, a few exceptions) is freed at the exit."""
    gc.disable()
