"""Known-wrong implementations, one per misconception students are known to have.

A spec's check says `misconceptions: [{like: NAME, hint: "..."}]`; when the student's
answer matches what the function registered under NAME returns on the same inputs,
the student sees that hint. Each function takes the same arguments as the student-API
name it imitates.
"""
from __future__ import annotations

from typing import Callable

MISCONCEPTIONS: dict[str, Callable] = {}


def misconception(name: str):
    def register(fn):
        MISCONCEPTIONS[name] = fn
        return fn
    return register


@misconception("overlapping_windows_count")
def overlapping_windows_count(H, W, P):
    """Counting stride-1 CNN windows: (H - P + 1)(W - P + 1)."""
    return (H - P + 1) * (W - P + 1)


@misconception("pixels_over_patch_area")
def pixels_over_patch_area(H, W, P):
    """N = HW / P^2 as a float, without checking that the patches tile."""
    return H * W / P ** 2


@misconception("floor_division_count")
def floor_division_count(H, W, P):
    """(H // P)(W // P): silently drops the pixels that do not tile."""
    return (H // P) * (W // P)


@misconception("cls_forgotten")
def cls_forgotten(H, W, P, cls_token=True):
    return (H // P) * (W // P)


@misconception("cls_always")
def cls_always(H, W, P, cls_token=True):
    return (H // P) * (W // P) + 1


@misconception("scores_linear")
def scores_linear(num_tokens):
    """T scores instead of T**2: one score per token, not per pair."""
    return num_tokens


@misconception("channels_forgotten")
def channels_forgotten(P, C=3):
    return P * P
