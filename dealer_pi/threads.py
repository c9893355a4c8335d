"""One BLAS thread for NumPy, asked for before NumPy is imported.

NumPy's BLAS starts a thread per core for every matrix product, however small. The card reader's
products are tiny and many (a few hundred glyph pairs a frame), and the vision thread shares the
cores with the web server and the shoe: on a loaded 2-core machine a frame took 2.3 times as
long with those threads as with one (``benchmarks/blas_threads.py``; ``models/REPORT.md``, "One
BLAS thread"). Values already set in the environment are kept.
"""

from __future__ import annotations

import os

BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def one_blas_thread() -> None:
    """Ask NumPy's BLAS for one thread: has effect only before NumPy is first imported."""
    for var in BLAS_THREADS:
        os.environ.setdefault(var, "1")
