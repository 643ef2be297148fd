"""A correct submission (blind round 20, b20_15, issue 38) in an unusual style: dmlc/gluon-nlp on
MXNet's numpy interface (src/gluonnlp/attention_cell.py, layers.py): npx.reshape with its special
codes (-2 copies a dimension, -1 infers), multi_head_dot_attn with layout 'NTK',
npx.batch_dot(..., transpose_b=True), npx.masked_softmax(scores, mask, axis=-1,
temperature=sqrt(d_h)), npx.layer_norm(data, gamma, beta, axis=-1, eps); the patches read through
a strided view (as_strided) instead of a reshape; float32 dtypes kept as the solution keeps them.

tests/test_catalogue.py requires full marks.

Blind round 20 (b20_15, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
"""
import math

import numpy as np


# --- a few npx stand-ins ------------------------------------------------------------

def _npx_reshape(data, newshape):
    """MXNet npx.reshape: -2 copies the input dimension at that position, -1 is inferred."""
    out, i = [], 0
    for s in newshape:
        if s == -2:
            out.append(data.shape[i])
            i += 1
        elif s == -1:
            out.append(-1)
            i += 1
        else:
            out.append(s)
    return np.reshape(data, out)


def _batch_dot(a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


def _masked_softmax(data, mask=None, axis=-1, temperature=1.0):
    data = np.asarray(data) / temperature
    if mask is not None:
        data = np.where(mask, data, -np.inf)
    m = np.max(data, axis=axis, keepdims=True)
    e = np.exp(data - m)
    if mask is not None:
        e = np.where(mask, e, 0.0)
    return e / np.sum(e, axis=axis, keepdims=True)


def _npx_layer_norm(data, gamma, beta, axis=-1, eps=1e-5):
    mean = np.mean(data, axis=axis, keepdims=True)
    var = np.mean(np.square(data - mean), axis=axis, keepdims=True)
    return (data - mean) * (1.0 / np.sqrt(var + eps)) * gamma + beta


# --- counting -------------------------------------------------------------------------

def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("patch_size must divide both image sides")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens ** 2


# --- patches --------------------------------------------------------------------------

def _as_image(image):
    x = np.asarray(image)
    if x.ndim == 2:
        x = np.expand_dims(x, axis=-1)
    if x.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    return np.ascontiguousarray(x)


def _windows(x, k, stride, out_h, out_w):
    """(out_h, out_w, k, k, C) strided view of the k x k windows of x (H, W, C)."""
    sh, sw, sc = x.strides
    return np.lib.stride_tricks.as_strided(
        x, shape=(out_h, out_w, k, k, x.shape[2]),
        strides=(sh * stride, sw * stride, sh, sw, sc), writeable=False)


def patchify(image, P):
    x = _as_image(image)
    H, W, C = x.shape
    n = num_patches(H, W, P)
    win = _windows(x, P, P, H // P, W // P)
    return _npx_reshape(win, (n, -1)).copy()


def linear_patch_embed(image, W_e, b_e, P):
    return np.matmul(patchify(image, P), W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    x = _as_image(image)
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel is larger than the image")
    out_h = (H - k) // stride + 1
    out_w = (W - k) // stride + 1
    win = _windows(x, k, stride, out_h, out_w)
    col = _npx_reshape(win, (-2, -2, -1))
    return np.matmul(col, _npx_reshape(K, (-1, K.shape[3]))) + b


def conv_equivalent(P):
    return [P, P]


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls = np.expand_dims(params["cls"], axis=0)
    return np.concatenate([cls, tokens], axis=0) + params["pos"]


# --- attention ------------------------------------------------------------------------

def softmax(x, axis=-1):
    return _masked_softmax(x, None, axis=axis)


def layer_norm(x, gamma, beta, eps=1e-6):
    return _npx_layer_norm(x, gamma, beta, axis=-1, eps=eps)


def _multi_head_dot_attn(query, key, value, mask, num_heads):
    """layout 'NTK' without the batch: query (T, units) -> context (T, units)."""
    query = _npx_reshape(query, (-2, num_heads, -1))      # (T, heads, d_h)
    key = _npx_reshape(key, (-2, num_heads, -1))
    value = _npx_reshape(value, (-2, num_heads, -1))
    d_h = query.shape[-1]
    scores = _batch_dot(np.swapaxes(query, 0, 1), np.swapaxes(key, 0, 1), transpose_b=True)
    attn_weights = _masked_softmax(scores, mask, axis=-1, temperature=math.sqrt(d_h))
    context = _batch_dot(attn_weights, np.swapaxes(value, 0, 1))   # (heads, T, d_h)
    context = np.swapaxes(context, 0, 1)                          # (T, heads, d_h)
    return _npx_reshape(context, (-2, -1))


def self_attention(x, p, heads, causal=False):
    T, units = x.shape
    if units % heads != 0:
        raise ValueError("units must be divisible by num_heads")
    q = np.matmul(x, p["Wq"]) + p["bq"]
    k = np.matmul(x, p["Wk"]) + p["bk"]
    v = np.matmul(x, p["Wv"]) + p["bv"]
    mask = None
    if causal:
        steps = np.arange(T)
        mask = np.expand_dims(steps[:, None] >= steps[None, :], axis=0)  # gen_self_attn_mask 'causal'
    context = _multi_head_dot_attn(q, k, v, mask, heads)
    return np.matmul(context, p["Wo"]) + p["bo"]


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    out = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    out = out + x
    residual = out
    ffn = layer_norm(out, p["ln2_g"], p["ln2_b"])
    ffn = gelu(np.matmul(ffn, p["W1"]) + p["b1"])
    ffn = np.matmul(ffn, p["W2"]) + p["b2"]
    return ffn + residual


def vit_forward(image, params):
    out = embed_image(image, params)
    for layer in params["blocks"]:
        out = encoder_block(out, layer, params["heads"])
    out = layer_norm(out, params["ln_g"], params["ln_b"])
    return np.matmul(out[0], params["W_head"]) + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
