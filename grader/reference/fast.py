"""The fast batched forward used by `ViT` (model.py), and so by the torch benchmark.

The same math as the plain patches.py, layers.py, attention.py and encoder.py, on [B, T, d]
batches, with what makes ViT-B/16 as fast as torch (benchmarks/reference_vs_torch.py): steps
done in place, q, k and v from one fused [d, 3d] product, a float32-only GELU, and one BLAS
thread for the small per-head products. tests/test_reference_model.py checks it against the
plain functions. Inputs are float arrays of one dtype (`ViT` casts images and parameters to
its config's), so the in-place steps never round anything down.
"""
import contextlib
import math

import numpy as np

from .attention import merge_heads, split_heads
from .counting import check_tiling
from .layers import ACTIVATIONS as PLAIN_ACTIVATIONS
from .layers import gelu as exact_gelu

try:  # optional: BLAS thread control for the per-head products (see one_blas_thread)
    from threadpoolctl import ThreadpoolController
except ImportError:
    ThreadpoolController = None
SMALL_PRODUCTS = 1 << 16  # q.size from which B*heads products run on one BLAS thread
CONTROLLER = []  # the ThreadpoolController, made at first use
CHUNK = 1 << 15  # elements per slice of the float32 GELU: 128 KB, so its ~30 passes stay in cache

# Numerical Recipes' erfc (Press et al., 2nd ed., 6.2 "erfcc"): erfc(z) = t exp(-z^2 + P(t)),
# t = 1 / (1 + z/2), z >= 0, relative error below 1.2e-7 everywhere. Highest power first; the
# constant has log(2) taken out, so the formula gives erfc(z) / 2 directly.
ERFC_T = (0.17087277, -0.82215223, 1.48851587, -1.13520398, 0.27886807, -0.18628806,
          0.09678418, 0.37409196, 1.00002368, -1.26551223 - math.log(2.0))


def embed(images, p):  # [B, H, W, C] -> [B, N+1, d]
    """Patchify every image, linear map, [CLS] as token 0, then positions."""
    B, H, W, C = images.shape
    H, W, P = check_tiling(H, W, p["P"])
    grid = images.reshape(B, H // P, P, W // P, P, C).transpose(0, 1, 3, 2, 4, 5)
    x = linear(grid.reshape(B, -1, P * P * C), p["W_e"], p["b_e"])  # [B, N, d]
    cls = np.broadcast_to(p["cls"], (B, 1, x.shape[-1]))  # [B, 1, d]
    x = np.concatenate([cls, x], axis=1)  # [B, N+1, d]
    x += p["pos"]
    return x


def linear(x, W, b):  # [..., d_in], [d_in, d_out], [d_out] -> [..., d_out]
    """x W + b as one [rows, d_in] @ W product, which BLAS runs faster than B of [T, d_in]."""
    y = (x.reshape(-1, x.shape[-1]) @ W).reshape(*x.shape[:-1], W.shape[-1])  # [..., d_out]
    y += b
    return y


def layer_norm(x, gamma, beta, eps):  # [..., d] -> [..., d]
    """layers.layer_norm with one new array, the rest in place."""
    y = x - x.mean(axis=-1, keepdims=True)  # [..., d], centred
    y /= np.sqrt(np.mean(np.square(y), axis=-1, keepdims=True) + eps)
    y *= gamma
    y += beta
    return y


def gelu(x):  # [...] -> [...]
    """Exact GELU: float32 through `gelu_float32` (about 40 times faster than erfc; GELU of
    [B, T, 4d] is otherwise most of a ViT's time), anything else through layers.gelu."""
    if x.dtype != np.float32:
        return exact_gelu(x)
    flat = np.ascontiguousarray(x).reshape(-1)
    out = np.empty_like(flat)
    for start in range(0, flat.size, CHUNK):
        gelu_float32(flat[start:start + CHUNK], out[start:start + CHUNK])
    return out.reshape(x.shape)


def gelu_float32(x, out):  # [n] float32 -> out [n]: x Phi(x), within 2.4e-7 of the exact value
    """GELU as relu(x) - |x| Phi(-|x|), Phi(-u) = erfc(u/sqrt 2)/2 from ERFC_T, in place.

    No branch and no cancellation: for x < 0 it is x Phi(x) (relatively accurate in the tail),
    for x >= 0 it is x - x Phi(-x).
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


ACTIVATIONS = {**PLAIN_ACTIVATIONS, "gelu": gelu}  # ViTConfig.activation -> function


def attention(q, k, v):  # [..., T, d_h] x 3 -> [..., T, d_h]
    """softmax(q k^T / sqrt(d_h)) v over every image and head at once, softmax in place."""
    with one_blas_thread(q.size):
        scores = q @ k.swapaxes(-1, -2)  # [..., T, T]
        scores /= math.sqrt(q.shape[-1])
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        return scores @ v


def one_blas_thread(size):  # context manager
    """One BLAS thread for the batched per-head products, when threadpoolctl is installed.

    np.matmul makes one BLAS call per image and head (96 for 8 images of 12 heads), each far
    too small ([T, d_h] @ [d_h, T]) for threads to pay: every threaded call waits for the other
    thread to wake up, which on a loaded machine takes longer than the product (measured on the
    2-core course machine: a ViT-B/16 forward 2x slower under load). Rounding may differ by an ulp.
    """
    if ThreadpoolController is None or size < SMALL_PRODUCTS:
        return contextlib.nullcontext()
    if not CONTROLLER:
        CONTROLLER.append(ThreadpoolController())
    return CONTROLLER[0].limit(limits=1, user_api="blas")


def self_attention(x, p, heads):  # [..., T, d] -> [..., T, d]; p holds Wqkv, bqkv (fuse_qkv)
    """Multi-head self-attention, q, k and v from one product; never causal."""
    qkv = split_heads(linear(x, p["Wqkv"], p["bqkv"]), 3 * heads)  # [..., 3*heads, T, d_h]
    q, k, v = np.split(qkv, 3, axis=-3)  # [..., heads, T, d_h] each
    return linear(merge_heads(attention(q, k, v)), p["Wo"], p["bo"])


def encoder_block(x, p, heads, eps, activation):  # [..., T, d] -> [..., T, d]
    """encoder.encoder_block: x + attention(LN1(x)), then + mlp(LN2(x)) in place."""
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"], eps), p, heads)
    h = activation(linear(layer_norm(x, p["ln2_g"], p["ln2_b"], eps), p["W1"], p["b1"]))
    x += linear(h, p["W2"], p["b2"])
    return x


def fuse_qkv(params):  # -> params whose blocks also hold Wqkv [d, 3d] and bqkv [3d]
    """One [d, 3d] matrix for q, k and v, columns q then k then v (one product, not three).

    Wq, Wk, Wv (and the biases) become views into the fused arrays, so the weights are held once.
    """
    blocks = []
    for block in params["blocks"]:
        block = dict(block)
        d = block["Wq"].shape[0]
        for fused, names in (("Wqkv", ("Wq", "Wk", "Wv")), ("bqkv", ("bq", "bk", "bv"))):
            block[fused] = np.concatenate([block[n] for n in names], axis=-1)
            for i, name in enumerate(names):
                block[name] = block[fused][..., i * d:(i + 1) * d]
        blocks.append(block)
    return {**params, "blocks": blocks}
