"""A correct submission (blind round 18, b18_15, issue 38) in an unusual style: pure-Python /
CS231n-assignment loops (np.atleast_3d for gray images, patches by np.vsplit / np.hsplit, a conv
loop over output pixels with np.tensordot, a head loop that sums head_out @ Wo[rows of the head]
instead of concatenating, the causal mask by np.triu_indices, exact GELU as x * Phi(x) with Phi from
math.erf(x * sqrt(2) / 2), a two-pass layer norm on rows, softmax by np.moveaxis to the last axis
and back).

tests/test_catalogue.py requires full marks.

Blind round 18 (b18_15, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
"""
import math

import numpy as np


def num_patches(H, W, P):
    if not (H % P == 0 and W % P == 0):
        raise ValueError("the patches must tile the image")
    rows = H // P
    cols = W // P
    return rows * cols


def num_tokens(H, W, P, cls_token=True):
    count = num_patches(H, W, P)
    return count + 1 if cls_token else count


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens ** 2


def _image(image):
    img = np.asarray(image, dtype=float)
    if img.ndim not in (2, 3):
        raise ValueError("image must be 2-D or 3-D")
    return np.atleast_3d(img)


def patchify(image, P):
    img = _image(image)
    H, W, C = img.shape
    num_patches(H, W, P)
    out = []
    for band in np.vsplit(img, H // P):            # top to bottom
        for tile in np.hsplit(band, W // P):       # left to right
            out.append(tile.ravel())               # (p1, p2, c)
    return np.array(out)


def linear_patch_embed(image, W_e, b_e, P):
    X = patchify(image, P)
    return X.dot(W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    img = _image(image)
    H, W, C = img.shape
    HH = K.shape[0]
    if HH > H or HH > W:
        raise ValueError("filter larger than input")
    H_out = 1 + (H - HH) // stride
    W_out = 1 + (W - HH) // stride
    out = np.zeros((H_out, W_out, K.shape[3]))
    for i in range(H_out):
        for j in range(W_out):
            hs, ws = i * stride, j * stride
            out[i, j] = np.tensordot(img[hs:hs + HH, ws:ws + HH, :], K, axes=3) + b
    return out


def conv_equivalent(P):
    kernel_size = P
    stride = P
    return kernel_size, stride


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    seq = np.empty((tokens.shape[0] + 1, tokens.shape[1]))
    seq[0] = params["cls"]
    seq[1:] = tokens
    return seq + params["pos"]


def softmax(x, axis=-1):
    z = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out = e / e.sum(axis=-1, keepdims=True)
    return np.moveaxis(out, -1, axis)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    rows = x.reshape(-1, d)
    out = np.empty_like(rows)
    for r in range(rows.shape[0]):
        mu = rows[r].sum() / d
        centred = rows[r] - mu
        var = (centred ** 2).sum() / d
        out[r] = centred / math.sqrt(var + eps)
    return out.reshape(x.shape) * gamma + beta


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("d must be a multiple of heads")
    dh = d // heads
    Q = x.dot(p["Wq"]) + p["bq"]
    K = x.dot(p["Wk"]) + p["bk"]
    V = x.dot(p["Wv"]) + p["bv"]
    out = np.tile(p["bo"].astype(float), (T, 1))
    for h in range(heads):
        lo, hi = h * dh, (h + 1) * dh
        S = Q[:, lo:hi].dot(K[:, lo:hi].T) / math.sqrt(dh)
        if causal:
            iu = np.triu_indices(T, k=1)
            S[iu] = -np.inf
        A = softmax(S, axis=-1)
        out += A.dot(V[:, lo:hi]).dot(p["Wo"][lo:hi, :])
    return out


def gelu(x):
    x = np.asarray(x, dtype=float)
    phi = np.array([0.5 * (1.0 + math.erf(v * math.sqrt(2.0) / 2.0)) for v in x.ravel()])
    return x * phi.reshape(x.shape)


def encoder_block(x, p, heads):
    a = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + a
    m = layer_norm(x, p["ln2_g"], p["ln2_b"]).dot(p["W1"]) + p["b1"]
    m = gelu(m).dot(p["W2"]) + p["b2"]
    return x + m


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    cls_row = layer_norm(x[0], params["ln_g"], params["ln_b"])
    return cls_row.dot(params["W_head"]) + params["b_head"]


ANSWERS = dict(positions="permutation", medical="pretrained", causal_mask="bidirectional")
