"""How a grading process sets itself up, before numpy is imported and once it is loaded.

The grading side's own numpy work is on small arrays (expected values, comparisons): BLAS threads
cannot speed it up, and OpenBLAS's helper threads keep spinning after each product, on the core
the student's worker needs (measured: 11% of all CPU time while grading a class). Long-lived
grading processes also freeze what they loaded, so that Python's collector stops walking pytest,
numpy, the specs and the planned cases again and again (another 10%).
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
