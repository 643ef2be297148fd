"""Property checks: named Python checks a spec can use (`property: NAME`).

A property receives a `PropertyContext` (call the student's functions through the
worker, a seeded rng, the spec's options) and returns a `Verdict`. This is how the
grader grows without touching the plugin: write a function, register it with
`@property_check("name")`, name it in a spec.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .student import StudentCalls


@dataclass(frozen=True)
class Verdict:
    passed: bool
    message: str = ""
    hint: str | None = None
    misconception: str | None = None


@dataclass
class PropertyContext:
    student: StudentCalls
    rng: np.random.Generator
    options: dict = field(default_factory=dict)


PROPERTIES: dict[str, Callable[[PropertyContext], Verdict]] = {}


def property_check(name: str):
    def register(fn):
        PROPERTIES[name] = fn
        return fn
    return register


def close(a, b, rtol=1e-5, atol=1e-6) -> bool:
    from .compare import as_array

    a, b = as_array(a), as_array(b)
    if not isinstance(a, np.ndarray) or not isinstance(b, np.ndarray) or a.shape != b.shape:
        return False
    return bool(np.allclose(a.astype(np.float64), b.astype(np.float64), rtol=rtol, atol=atol))


@property_check("conv_equals_linear")
def conv_equals_linear(ctx: PropertyContext) -> Verdict:
    """Practice 7: conv_patch_embed with K = W_e.reshape(P, P, C, d), stride P, equals linear_patch_embed."""
    for _ in range(int(ctx.options.get("trials", 3))):
        P = int(ctx.rng.choice([1, 2, 3, 4]))
        H, W = P * int(ctx.rng.integers(1, 5)), P * int(ctx.rng.integers(1, 5))
        C, d = int(ctx.rng.choice([1, 3])), int(ctx.rng.integers(1, 6))
        image = ctx.rng.standard_normal((H, W, C))
        W_e, b = ctx.rng.standard_normal((P * P * C, d)), ctx.rng.standard_normal(d)
        linear = ctx.student.call("linear_patch_embed", image, W_e, b, P)
        conv = ctx.student.call("conv_patch_embed", image, W_e.reshape(P, P, C, d), b, P)
        conv_flat = np.asarray(conv).reshape(-1, d) if isinstance(conv, np.ndarray) and conv.size == H * W * d // (P * P) else conv
        if not close(conv_flat, linear):
            return Verdict(False, f"with image {H}x{W}x{C}, P={P}, d={d}: conv_patch_embed(image, W_e.reshape({P}, {P}, {C}, {d}), b, {P}).reshape(-1, {d}) "
                                  f"differs from linear_patch_embed(image, W_e, b, {P})",
                           hint="the patch linear map is a convolution with kernel P and stride P: both must read a patch in (p1, p2, c) order")
    return Verdict(True)
