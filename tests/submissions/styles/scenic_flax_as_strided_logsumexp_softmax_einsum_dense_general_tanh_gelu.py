"""A correct submission (blind round 18, b18_14, issue 38) in an unusual style: google-research
scenic / flax (einsum with named axes, DenseGeneral-shaped head kernels, patch and conv windows from
as_strided views, softmax as exp(x - logsumexp), an rsqrt layer norm with the variance as
E[(x - mu)^2] by einsum, a causal mask from np.greater_equal.outer, the tanh GELU approximation
(accepted by the lab), num_tokens adding the bool cls_token, answers written with capitals and
spaces).

tests/test_catalogue.py requires full marks.

Blind round 18 (b18_14, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
"""
import numpy as np


def num_patches(H, W, P):
    gh, rh = divmod(H, P)
    gw, rw = divmod(W, P)
    if rh or rw:
        raise ValueError(f"patch size {P} must divide image size {(H, W)}")
    return gh * gw


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + int(cls_token)


def patch_dim(P, C=3):
    return int(np.prod((P, P, C)))


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _hwc(img):
    img = np.ascontiguousarray(img, dtype=np.float64)
    if img.ndim == 2:
        img = img[..., np.newaxis]
    if img.ndim != 3:
        raise ValueError(f"expected rank 2 or 3 image, got shape {img.shape}")
    return img


def _windows(img, k, stride):
    """(H', W', k, k, C) view of every k x k window at the given stride."""
    H, W, C = img.shape
    sh, sw, sc = img.strides
    shape = ((H - k) // stride + 1, (W - k) // stride + 1, k, k, C)
    strides = (sh * stride, sw * stride, sh, sw, sc)
    return np.lib.stride_tricks.as_strided(img, shape=shape, strides=strides, writeable=False)


def patchify(image, P):
    img = _hwc(image)
    n = num_patches(img.shape[0], img.shape[1], P)
    return _windows(img, P, P).reshape(n, -1)


def linear_patch_embed(image, W_e, b_e, P):
    return np.einsum("np,pd->nd", patchify(image, P), W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    img = _hwc(image)
    k = K.shape[0]
    if k > img.shape[0] or k > img.shape[1]:
        raise ValueError("kernel does not fit the image")
    return np.einsum("hwijc,ijcd->hwd", _windows(img, k, stride), K) + b


def conv_equivalent(P):
    return [P, P]


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = np.concatenate([np.broadcast_to(params["cls"], (1, x.shape[-1])), x], axis=0)
    return x + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    m = np.max(x, axis=axis, keepdims=True)
    lse = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return np.exp(x - lse)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=np.float64)
    mean = np.mean(x, axis=-1, keepdims=True)
    xc = x - mean
    var = np.einsum("...d,...d->...", xc, xc)[..., None] / x.shape[-1]
    mul = (1.0 / np.sqrt(var + eps)) * gamma
    return xc * mul + beta


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"num_heads ({heads}) must divide the features ({d})")
    head_dim = d // heads

    def dense_general(inp, w, b):  # DenseGeneral(features=(heads, head_dim))
        return np.einsum("td,dhk->thk", inp, w.reshape(d, heads, head_dim)) + b.reshape(heads, head_dim)

    query = dense_general(x, p["Wq"], p["bq"]) / np.sqrt(head_dim)
    key = dense_general(x, p["Wk"], p["bk"])
    value = dense_general(x, p["Wv"], p["bv"])
    logits = np.einsum("qhk,thk->hqt", query, key)
    if causal:
        keep = np.greater_equal.outer(np.arange(T), np.arange(T))
        logits = np.where(keep[None], logits, np.finfo(logits.dtype).min)
    weights = softmax(logits, axis=-1)
    out = np.einsum("hqt,thk->qhk", weights, value)
    return np.einsum("qhk,hkd->qd", out, p["Wo"].reshape(heads, head_dim, d)) + p["bo"]


def gelu(x):
    x = np.asarray(x, dtype=np.float64)
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * np.power(x, 3))))


def encoder_block(x, p, heads):
    y = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = x + self_attention(y, p, heads)
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    y = gelu(np.einsum("td,df->tf", y, p["W1"]) + p["b1"])
    return x + np.einsum("tf,fd->td", y, p["W2"]) + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for p in params["blocks"]:
        x = encoder_block(x, p, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return np.einsum("d,dc->c", x[0], params["W_head"]) + params["b_head"]


ANSWERS = {
    "positions": " Permutation ",
    "medical": "PRETRAINED",
    "causal_mask": "Bidirectional",
}
