"""A correct submission (blind round 21, b21_06, issue 38) in an unusual style:
google-research/scenic (scenic/projects/baselines/vit.py: AddPositionEmbs, Encoder1DBlock,
Encoder, a `classifier` switch between 'token' and 'gap', attention_layers' einsum dot-product
attention '...qhd,...khd->...hqk'), ported to numpy as functions over parameter dicts: einsum
everywhere, a [B, ...] batch axis added and removed inside each function, the patch grid built
with index arithmetic (no as_strided), softmax through logsumexp.

tests/test_catalogue.py requires full marks.

Blind round 21 (b21_06, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
"""
import math

import numpy as np


def num_patches(H, W, P):
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patches of {P} do not tile {H}x{W}")
    gh, gw = H // P, W // P
    return gh * gw


def num_tokens(H, W, P, cls_token=True):
    n = num_patches(H, W, P)
    return n + 1 if cls_token else n


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _as_hwc(image):
    image = np.asarray(image)
    if image.ndim == 2:
        return image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    return image


def patchify(image, P):
    x = _as_hwc(image)
    h, w, c = x.shape
    num_patches(h, w, P)
    gh, gw = h // P, w // P
    rows = (np.arange(gh)[:, None, None, None] * P + np.arange(P)[None, None, :, None])  # gh,1,P,1
    cols = (np.arange(gw)[None, :, None, None] * P + np.arange(P)[None, None, None, :])  # 1,gw,1,P
    patches = x[rows, cols]  # (gh, gw, P, P, c)
    return patches.reshape(gh * gw, P * P * c)


def linear_patch_embed(image, W_e, b_e, P):
    x = patchify(image, P)
    return np.einsum("nf,fd->nd", x, W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    x = _as_hwc(image)
    h, w, c = x.shape
    k = K.shape[0]
    if k > h or k > w:
        raise ValueError(f"kernel {k} does not fit in {h}x{w} with padding='VALID'")
    oh = (h - k) // stride + 1
    ow = (w - k) // stride + 1
    ii = (np.arange(oh) * stride)[:, None, None, None] + np.arange(k)[None, None, :, None]
    jj = (np.arange(ow) * stride)[None, :, None, None] + np.arange(k)[None, None, None, :]
    windows = x[ii, jj]  # (oh, ow, k, k, c)
    return np.einsum("hwijc,ijcd->hwd", windows, K) + b


def conv_equivalent(P):
    return [P, P]


def _add_position_embs(inputs, posemb):
    return inputs + posemb


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls = np.broadcast_to(params["cls"], (1, x.shape[-1]))
    x = np.concatenate([cls, x], axis=0)
    return _add_position_embs(x, params["pos"])


def _logsumexp(x, axis):
    m = np.max(x, axis=axis, keepdims=True)
    return m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    return np.exp(x - _logsumexp(x, axis))


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x)
    mean = np.mean(x, axis=-1, keepdims=True)
    mean2 = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    y = (x - mean) * (1.0 / np.sqrt(mean2 + eps))
    return y * gamma + beta


def _dense_general(x, w, b, heads, head_dim):
    # (..., d) @ (d, heads*head_dim) -> (..., heads, head_dim)
    y = np.einsum("...d,dk->...k", x, w) + b
    return y.reshape(y.shape[:-1] + (heads, head_dim))


def self_attention(x, p, heads, causal=False):
    inputs = np.asarray(x)[None]  # [B=1, q, d]
    d = inputs.shape[-1]
    if d % heads:
        raise ValueError(f"num_heads {heads} must divide the width {d}")
    head_dim = d // heads
    query = _dense_general(inputs, p["Wq"], p["bq"], heads, head_dim)   # b q h d
    key = _dense_general(inputs, p["Wk"], p["bk"], heads, head_dim)
    value = _dense_general(inputs, p["Wv"], p["bv"], heads, head_dim)
    query = query / math.sqrt(head_dim)
    logits = np.einsum("...qhd,...khd->...hqk", query, key)
    if causal:
        t = inputs.shape[1]
        allowed = np.arange(t)[:, None] >= np.arange(t)[None, :]
        logits = np.where(allowed, logits, -np.inf)
    weights = softmax(logits, axis=-1)
    out = np.einsum("...hqk,...khd->...qhd", weights, value)
    out = out.reshape(out.shape[:-2] + (d,))
    out = np.einsum("...k,kd->...d", out, p["Wo"]) + p["bo"]
    return out[0]


def _gelu(x):
    x = np.asarray(x, dtype=float)
    erf = np.vectorize(math.erf, otypes=[float])
    return x * 0.5 * (1.0 + erf(x / math.sqrt(2.0)))


gelu = _gelu


def _mlp_block(x, p):
    h = np.einsum("...d,df->...f", x, p["W1"]) + p["b1"]
    h = _gelu(h)
    return np.einsum("...f,fd->...d", h, p["W2"]) + p["b2"]


def encoder_block(x, p, heads):
    inputs = x
    y = layer_norm(inputs, p["ln1_g"], p["ln1_b"])
    y = self_attention(y, p, heads)
    x = y + inputs
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    y = _mlp_block(y, p)
    return x + y


CLASSIFIER = "token"  # scenic's config.model.classifier


def vit_forward(image, params):
    classifier = CLASSIFIER
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    encoded = layer_norm(x, params["ln_g"], params["ln_b"])
    if classifier == "token":
        rep = encoded[0]
    elif classifier == "gap":
        rep = encoded[1:].mean(axis=0)
    else:
        raise ValueError(f"unknown classifier {classifier}")
    return np.einsum("d,dc->c", rep, params["W_head"]) + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
