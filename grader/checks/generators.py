"""Generated cases: named functions that draw one argument list from a seeded rng.

A spec says `generate: {generator: tiling_sizes, count: 20, seed: 4, options: {...}}`;
the engine seeds one `np.random.default_rng(seed)` and calls the generator `count`
times, so hidden cases are random yet the same on every run. Register a new one with
`@generator("name")`; its keyword options come from the spec.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

GeneratedCase = tuple[tuple, dict]           # (args, kwargs)
GENERATORS: dict[str, Callable[..., GeneratedCase]] = {}


def generator(name: str):
    def register(fn):
        GENERATORS[name] = fn
        return fn
    return register


def generate_cases(name: str, count: int, seed: int, options: dict) -> list[GeneratedCase]:
    rng = np.random.default_rng(seed)
    return [GENERATORS[name](rng, **options) for _ in range(count)]


def _grid(rng, patch_sizes, max_grid):
    P = int(rng.choice(patch_sizes))
    return int(rng.integers(1, max_grid + 1)) * P, int(rng.integers(1, max_grid + 1)) * P, P


@generator("tiling_sizes")
def tiling_sizes(rng, patch_sizes=(1, 2, 3, 4, 7, 8, 14, 16, 32), max_grid=24) -> GeneratedCase:
    """(H, W, P) where P tiles both sides; often non-square."""
    return _grid(rng, patch_sizes, max_grid), {}


@generator("non_tiling_sizes")
def non_tiling_sizes(rng, patch_sizes=(2, 3, 4, 8, 16), max_grid=16) -> GeneratedCase:
    """(H, W, P) where P fails to tile at least one side."""
    H, W, P = _grid(rng, [p for p in patch_sizes if p > 1], max_grid)
    side = int(rng.integers(0, 3))
    H += int(rng.integers(1, P)) if side in (0, 2) else 0
    W += int(rng.integers(1, P)) if side in (1, 2) else 0
    return (H, W, P), {}


@generator("token_counts")
def token_counts(rng, patch_sizes=(2, 4, 8, 14, 16, 32), max_grid=24) -> GeneratedCase:
    """(H, W, P) plus a random cls_token keyword (sometimes left to its default)."""
    args = _grid(rng, patch_sizes, max_grid)
    choice = int(rng.integers(0, 3))
    return args, ({} if choice == 2 else {"cls_token": bool(choice)})


@generator("sequence_lengths")
def sequence_lengths(rng, low=1, high=1200) -> GeneratedCase:
    """(T,) a number of tokens."""
    return (int(rng.integers(low, high + 1)),), {}


@generator("images")
def images(rng, patch_sizes=(1, 2, 3, 4, 8), max_grid=5, channels=(1, 3, 4), grayscale=0.2, dtype="float64") -> GeneratedCase:
    """(image, P): a random image that P tiles; sometimes 2-D (grayscale)."""
    H, W, P = _grid(rng, patch_sizes, max_grid)
    if rng.random() < grayscale:
        image = rng.standard_normal((H, W))
    else:
        image = rng.standard_normal((H, W, int(rng.choice(channels))))
    return (image.astype(dtype), P), {}
