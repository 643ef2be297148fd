"""The activations a student may use in the MLP instead of GELU, by name: what the error
model's activation operators swap in (operators.activation) and tell slips of alternatives
apart from (alternatives.py).
"""
from __future__ import annotations

import numpy as np

from ..layers import gelu, gelu_tanh, quick_gelu


def _relu(x):
    return np.maximum(x, 0.0)


def _silu(x):
    with np.errstate(over="ignore"):
        return x / (1.0 + np.exp(-x))


def _sigmoid(x):
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-x))


def _elu(x):
    return np.where(x > 0, x, np.expm1(np.minimum(x, 0.0)))


ACTIVATIONS = {  # name -> (words, function)
    "gelu": ("the exact GELU", gelu), "gelu_tanh": ("GELU's tanh approximation", gelu_tanh),
    "relu": ("ReLU", _relu), "silu": ("SiLU (x * sigmoid(x))", _silu),
    "quick_gelu": ("CLIP's quick GELU, x * sigmoid(1.702 x)", quick_gelu),
    "sigmoid": ("a sigmoid", _sigmoid), "elu": ("ELU (exp(x) - 1 below zero)", _elu),
    "tanh": ("tanh", np.tanh),
    "identity": ("no activation", None)}
