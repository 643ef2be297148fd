"""Blind round 77 (b77_02, issue 38): a CORRECT port in an unusual style (must get full marks):
ported from VivaanMalik/VisionTransformer `src/funcs.c`, the C version's loops kept: one Python
loop per tensor index with the inner sums done by np.dot (split_heads / merge_heads / qk_dot /
scale_scores / softmax_scores / av_dot / layernorm as helpers), a loop convolution over
(k * k * C, D) flattened kernels, and the erf GELU through np.vectorize(math.erf).

tests/test_catalogue.py requires full marks.

No mistakes (the key checked integer counts, ValueError for non-tiling sizes, 4-D images,
k > W and d % heads, non-square images, 1/2/4 heads, causal, batched softmax and layer_norm,
softmax near 1000).

Grader: at blind time (15b4065f) and now, 110/110.
"""
import math

import numpy as np

EPS = 1e-6


# ---------------------------------------------------------------- counting

def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("patch size %d does not divide image %dx%d" % (P, H, W))
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    n = num_patches(H, W, P)
    if cls_token:
        n += 1
    return n


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


# ---------------------------------------------------------------- image -> tokens

def _image3(image):
    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    return image


def patchify(image, P):
    img = _image3(image)
    H, W, C = img.shape
    N = num_patches(H, W, P)
    gw = W // P
    out = np.zeros((N, P * P * C))
    for n in range(N):
        py, px = n // gw, n % gw
        k = 0
        for y in range(P):
            for x in range(P):
                for c in range(C):
                    out[n, k] = img[py * P + y, px * P + x, c]
                    k += 1
    return out


def linear_patch_embed(image, W_e, b_e, P):
    X = patchify(image, P)
    return np.dot(X, W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    img = _image3(image)
    H, W, C = img.shape
    k = K.shape[0]
    D = K.shape[3]
    if k > H or k > W:
        raise ValueError("kernel %d larger than image %dx%d" % (k, H, W))
    Ho = (H - k) // stride + 1
    Wo = (W - k) // stride + 1
    Kf = K.reshape(k * k * C, D)
    out = np.zeros((Ho, Wo, D))
    for i in range(Ho):
        for j in range(Wo):
            win = img[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j] = np.dot(win.reshape(-1), Kf) + b
    return out


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    tok = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    X = tok.shape[0] + 1
    D = tok.shape[1]
    seq = np.zeros((X, D))
    seq[0] = params["cls"]
    seq[1:] = tok
    return seq + params["pos"]


# ---------------------------------------------------------------- attention pieces

def split_heads(x, H):
    X, D = x.shape
    Y = D // H
    out = np.zeros((H, X, Y))
    for h in range(H):
        for i in range(X):
            out[h, i, :] = x[i, h * Y:(h + 1) * Y]
    return out


def merge_heads(t):
    H, X, Y = t.shape
    out = np.zeros((X, H * Y))
    for h in range(H):
        for i in range(X):
            out[i, h * Y:(h + 1) * Y] = t[h, i, :]
    return out


def qk_dot(Q, K):
    H, X, Y = Q.shape
    S = np.zeros((H, X, X))
    for h in range(H):
        for i in range(X):
            for j in range(X):
                S[h, i, j] = np.dot(Q[h, i], K[h, j])
    return S


def scale_scores(S, Y):
    return S * (1.0 / math.sqrt(Y))


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    maxv = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - maxv)
    return e / np.sum(e, axis=axis, keepdims=True)


def av_dot(S, V):
    H, X, _ = S.shape
    Y = V.shape[2]
    out = np.zeros((H, X, Y))
    for h in range(H):
        for i in range(X):
            out[h, i] = np.dot(S[h, i], V[h])
    return out


def layer_norm(x, gamma, beta, eps=EPS):
    x = np.asarray(x, dtype=float)
    mean = np.sum(x, axis=-1, keepdims=True) / x.shape[-1]
    diff = x - mean
    var = np.sum(diff * diff, axis=-1, keepdims=True) / x.shape[-1]
    inv_std = 1.0 / np.sqrt(var + eps)
    return diff * inv_std * gamma + beta


def self_attention(x, p, heads, causal=False):
    X, D = x.shape
    if D % heads != 0:
        raise ValueError("D=%d not divisible by heads=%d" % (D, heads))
    Y = D // heads
    Q = split_heads(np.dot(x, p["Wq"]) + p["bq"], heads)
    K = split_heads(np.dot(x, p["Wk"]) + p["bk"], heads)
    V = split_heads(np.dot(x, p["Wv"]) + p["bv"], heads)
    S = scale_scores(qk_dot(Q, K), Y)
    if causal:
        for i in range(X):
            for j in range(i + 1, X):
                S[:, i, j] = -np.inf
    S = softmax(S, axis=-1)
    out = merge_heads(av_dot(S, V))
    return np.dot(out, p["Wo"]) + p["bo"]


def gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    h = gelu(np.dot(h, p["W1"]) + p["b1"])
    return x + np.dot(h, p["W2"]) + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return np.dot(x[0], params["W_head"]) + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
