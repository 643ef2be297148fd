"""The small pieces of a transformer: linear map, softmax, LayerNorm, GELU.

All work on any leading axes (one sequence [T, d] or a batch [B, T, d]) and keep the floating
dtype of their input: constants are Python floats, which numpy 2 does not let promote float32
(an np.float64 scalar would).
"""
import math

import numpy as np

from .erf import erfc


def linear(x, W, b):  # [..., d_in], [d_in, d_out], [d_out] -> [..., d_out]
    """y = x @ W + b: weights multiply from the right."""
    return x @ W + b


def softmax(x, axis=-1):  # [...] -> [...], each slice along `axis` sums to 1
    """Softmax, stable: exp(x - max) never overflows, even for inputs near 1000."""
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):  # [..., d], [d], [d] -> [..., d]
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis, biased variance (ddof=0)."""
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + np.asarray(eps, dtype=var.dtype)) * gamma + beta


def gelu(x):  # [...] -> [...]
    """Exact GELU, x * Phi(x) = x/2 * erfc(-x/sqrt 2); erfc keeps the left tail accurate."""
    return 0.5 * x * erfc(-x / math.sqrt(2.0))


def gelu_tanh(x):  # [...] -> [...]
    """GELU's tanh approximation (GPT-2, picoGPT); within 1e-3 of the exact one."""
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))


ACTIVATIONS = {"gelu": gelu, "gelu_tanh": gelu_tanh}  # ViTConfig.activation -> function
