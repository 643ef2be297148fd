"""The small pieces of a transformer: linear map, softmax, LayerNorm, GELU (lecture 4.2, step 5).

All take any leading axes (one sequence [T, d] or a batch [B, T, d]) and keep the floating dtype
of their input: the constants are Python floats, which numpy 2 does not let promote float32.
"""
import math

import numpy as np

from .erf import erfc


def linear(x, W, b):  # [..., d_in], [d_in, d_out], [d_out] -> [..., d_out]
    """y = x W + b: weights multiply from the right."""
    return x @ W + b  # [..., d_out]


def softmax(x, axis=-1):  # [...] -> [...], each slice along `axis` sums to 1
    """Stable softmax: exp(x - max) never overflows, even for inputs near 1000."""
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))  # [...], in (0, 1]
    return e / np.sum(e, axis=axis, keepdims=True)  # [...]


def layer_norm(x, gamma, beta, eps=1e-6):  # [..., d], [d], [d] -> [..., d]
    """Each token normalised over its features: biased variance (ddof=0), eps inside the root."""
    mean = np.mean(x, axis=-1, keepdims=True)  # [..., 1]
    var = np.var(x, axis=-1, keepdims=True)  # [..., 1]
    return (x - mean) / np.sqrt(var + eps) * gamma + beta  # [..., d]


def gelu(x):  # [...] -> [...]
    """Exact GELU, x Phi(x) = x/2 erfc(-x/sqrt 2); erfc, unlike 1 + erf, keeps the left tail."""
    return 0.5 * x * erfc(-x / math.sqrt(2.0))  # [...]


def gelu_tanh(x):  # [...] -> [...]
    """GELU's tanh approximation (GPT-2, picoGPT); within 1e-3 of the exact one."""
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))


def quick_gelu(x):  # [...] -> [...]
    """CLIP's approximation x sigmoid(1.702 x); where exp overflows, x / inf is the limit, -0."""
    with np.errstate(over="ignore"):
        return x / (1.0 + np.exp(-1.702 * x))  # [...]


ACTIVATIONS = {"gelu": gelu, "gelu_tanh": gelu_tanh, "quick_gelu": quick_gelu}  # config names
