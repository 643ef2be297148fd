"""The small pieces of a transformer: linear map, softmax, LayerNorm, GELU.

All work on any leading axes (one sequence [T, d] or a batch [B, T, d]) and keep the floating
dtype of their input: constants are Python floats, which numpy 2 does not let promote float32
(an np.float64 scalar would). Where a result is built in place, it is first allocated with the
dtype the plain formula would give, so the in-place steps never round a float64 down.
"""
import math

import numpy as np

from .erf import erfc

CHUNK = 1 << 15  # elements per slice of the float32 GELU: 128 KB, so its ~30 passes stay in cache


def linear(x, W, b):  # [..., d_in], [d_in, d_out], [d_out] -> [..., d_out]
    """y = x @ W + b: weights multiply from the right.

    Every row of every leading axis goes through one matrix product ([B*T, d_in] @ W), which
    BLAS runs faster than B products of [T, d_in].
    """
    x = np.asarray(x)
    y = np.matmul(x.reshape(-1, x.shape[-1]), W).reshape(*x.shape[:-1], np.shape(W)[-1])
    return _add(y, b)


def _add(y, b):  # y + b, in place when that gives what the plain sum would (dtype and shape)
    if np.result_type(y, b) != y.dtype or np.broadcast_shapes(y.shape, np.shape(b)) != y.shape:
        return y + b
    y += b
    return y


def softmax(x, axis=-1):  # [...] -> [...], each slice along `axis` sums to 1
    """Softmax, stable: exp(x - max) never overflows, even for inputs near 1000."""
    e = np.subtract(x, np.max(x, axis=axis, keepdims=True), dtype=_float_type(x))
    np.exp(e, out=e)
    e /= np.sum(e, axis=axis, keepdims=True)
    return e


def layer_norm(x, gamma, beta, eps=1e-6):  # [..., d], [d], [d] -> [..., d]
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis, biased variance (ddof=0)."""
    x, gamma, beta = np.asarray(x), np.asarray(gamma), np.asarray(beta)
    mean = np.mean(x, axis=-1, keepdims=True)
    y = np.subtract(x, mean, dtype=np.result_type(_float_type(x), gamma, beta))  # centred
    var = np.mean(np.square(y), axis=-1, keepdims=True)  # biased, as np.var computes it
    y /= np.sqrt(var + np.asarray(eps, dtype=var.dtype))
    y *= gamma
    y += beta
    return y


def _float_type(x):  # the floating dtype arithmetic on x gives (integers -> float64)
    dtype = np.asarray(x).dtype
    return dtype if np.issubdtype(dtype, np.inexact) else np.dtype(np.float64)


def gelu(x):  # [...] -> [...]
    """Exact GELU, x * Phi(x) = x/2 * erfc(-x/sqrt 2); erfc keeps the left tail accurate.

    float64 (and anything but float32) goes through Cody's erfc, to a few ulp. float32 uses
    `_gelu_float32`, a float32-only formula within 2.4e-7 of the exact value (half an ulp at
    |x| = 14), about 40 times faster: GELU of [B, T, 4d] is otherwise most of a ViT's time.
    """
    x = np.asarray(x)
    if x.dtype == np.float32:
        return _chunked(_gelu_float32, x)
    return 0.5 * x * erfc(-x / math.sqrt(2.0))


# Numerical Recipes' erfc (Press et al., 3rd ed., section 6.2.2, "erfccheb"'s older cousin in
# 2nd ed. 6.2 "erfcc"): erfc(z) = t exp(-z^2 + P(t)), t = 1 / (1 + z/2), z >= 0, relative
# error below 1.2e-7 everywhere. Highest power first; the constant has log(2) taken out, so
# the formula gives erfc(z) / 2 directly.
ERFC_T = (0.17087277, -0.82215223, 1.48851587, -1.13520398, 0.27886807, -0.18628806,
          0.09678418, 0.37409196, 1.00002368, -1.26551223 - math.log(2.0))


def _gelu_float32(x, out):  # [n] float32 -> out [n]: x * Phi(x)
    """GELU as relu(x) - |x| Phi(-|x|), with Phi(-u) = erfc(u/sqrt 2)/2 from ERFC_T.

    No branch and no cancellation: for x < 0 it is x Phi(x) (relatively accurate in the tail),
    for x >= 0 it is x - x Phi(-x). Every step writes in place.
    """
    u = np.abs(x)
    t = u * (0.5 / math.sqrt(2.0))
    t += 1.0
    np.reciprocal(t, out=t)  # t = 1 / (1 + z/2), z = u / sqrt 2
    p = t * ERFC_T[0]
    for c in ERFC_T[1:-1]:
        p += c
        p *= t
    p += ERFC_T[-1]
    z2 = u * 0.5
    z2 *= u  # z^2 = u^2 / 2
    p -= z2
    np.exp(p, out=p)
    p *= t  # Phi(-u)
    p *= u
    np.add(x, u, out=out)
    out *= 0.5  # relu(x)
    out -= p
    return out


def _chunked(fn, x):  # elementwise fn(x_slice, out_slice) over slices of CHUNK elements
    flat = np.ascontiguousarray(x).reshape(-1)
    out = np.empty_like(flat)
    for start in range(0, flat.size, CHUNK):
        fn(flat[start:start + CHUNK], out[start:start + CHUNK])
    return out.reshape(x.shape)[()]


def gelu_tanh(x):  # [...] -> [...]
    """GELU's tanh approximation (GPT-2, picoGPT); within 1e-3 of the exact one."""
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))


def quick_gelu(x):  # [...] -> [...]
    """CLIP's GELU approximation x * sigmoid(1.702 x) = x / (1 + exp(-1.702 x)).

    Relatively accurate in the left tail too (a tanh form would cancel to 0 there); where exp
    overflows, x / inf is the right limit, -0.
    """
    with np.errstate(over="ignore"):
        return x / (1.0 + np.exp(-1.702 * x))


ACTIVATIONS = {"gelu": gelu, "gelu_tanh": gelu_tanh, "quick_gelu": quick_gelu}  # ViTConfig.activation
