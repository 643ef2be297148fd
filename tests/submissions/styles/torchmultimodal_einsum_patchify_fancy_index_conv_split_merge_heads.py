"""Blind round 63 (b63_05, issue 38): a CORRECT port in an unusual style (must get full marks),
after facebookresearch/multimodal (torchmultimodal) `modules/layers/patch_embedding.py`
(PatchEmbeddings), `modules/layers/multi_head_attention.py` (MultiHeadSelfAttention),
`modules/encoders/vision_transformer.py` (VisionTransformer) and `modules/layers/transformer.py`
(TransformerEncoderLayer, norm_first=True): einsums throughout; patchify by `ipjqc->ijpqc`; the
convolution by fancy-index windows and an einsum; an einsum layer norm; heads split and merged by
`_split_multihead` / `_merge_multihead` helpers.

tests/test_catalogue.py requires full marks.

No mistakes (the key's check also ran extra random trials against the solution: patchify and the
convolution on random sizes, channels, kernels and strides; heads 1, 2 and 4 with and without the
causal mask; softmax along axes 0, 1 and -1 at scale 300; layer_norm on 3-D and 1-D input).

Grader: full marks at blind time (edc81c9a, 110/110) and now.
"""
import math
import numpy as np


def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError(f"Image size ({H}, {W}) must be divisible by patch size {P}")
    return int((H // P) * (W // P))


def num_tokens(H, W, P, cls_token=True):
    n = num_patches(H, W, P)
    if cls_token:
        n += 1
    return n


def patch_dim(P, C=3):
    return int(P) * int(P) * int(C)


def attention_scores(num_tokens):
    return int(num_tokens) * int(num_tokens)


def _as_image(image):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"expected a 2-D or 3-D image, got {image.ndim}-D")
    return image


def patchify(image, P):
    image = _as_image(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    grid = image.reshape(H // P, P, W // P, P, C)
    patches = np.einsum("ipjqc->ijpqc", grid)
    return patches.reshape((H // P) * (W // P), P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return np.einsum("nf,fd->nd", patchify(image, P), W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    image = _as_image(image).astype(float)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel size larger than input")
    Ho = (H - k) // stride + 1
    Wo = (W - k) // stride + 1
    rows = np.arange(Ho)[:, None] * stride + np.arange(k)[None, :]   # (Ho, k)
    cols = np.arange(Wo)[:, None] * stride + np.arange(k)[None, :]   # (Wo, k)
    windows = image[rows[:, None, :, None], cols[None, :, None, :]]  # (Ho, Wo, k, k, C)
    return np.einsum("hwpqc,pqcd->hwd", windows, K) + b


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    embeddings = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_tokens = np.asarray(params["cls"]).reshape(1, -1)
    embeddings = np.concatenate((cls_tokens, embeddings), axis=0)
    return embeddings + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    z = x - np.max(x, axis=axis, keepdims=True)
    ez = np.exp(z)
    return ez / np.sum(ez, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    mu = np.einsum("...d->...", x)[..., None] / x.shape[-1]
    xc = x - mu
    var = np.einsum("...d,...d->...", xc, xc)[..., None] / x.shape[-1]
    return xc / np.sqrt(var + eps) * gamma + beta


def _split_multihead(x, n_head):
    # (T, d) -> (n_head, T, d_h)
    T, d = x.shape
    return x.reshape(T, n_head, d // n_head).transpose(1, 0, 2)


def _merge_multihead(x):
    n_head, T, dh = x.shape
    return x.transpose(1, 0, 2).reshape(T, n_head * dh)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("embed_dim must be divisible by num_heads")
    dh = d // heads
    q = _split_multihead(np.einsum("td,de->te", x, p["Wq"]) + p["bq"], heads)
    k = _split_multihead(np.einsum("td,de->te", x, p["Wk"]) + p["bk"], heads)
    v = _split_multihead(np.einsum("td,de->te", x, p["Wv"]) + p["bv"], heads)
    attn = np.einsum("htc,hsc->hts", q, k) / math.sqrt(dh)
    if causal:
        attn = np.where(np.arange(T)[None, :] > np.arange(T)[:, None], -np.inf, attn)
    attn = softmax(attn, axis=-1)
    a = np.einsum("hts,hsc->htc", attn, v)
    return np.einsum("te,ed->td", _merge_multihead(a), p["Wo"]) + p["bo"]


def _gelu(x):
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(x / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    # norm_first=True
    h = x
    inputs = layer_norm(h, p["ln1_g"], p["ln1_b"])
    h = h + self_attention(inputs, p, heads)
    inputs = layer_norm(h, p["ln2_g"], p["ln2_b"])
    ff = np.einsum("tf,fd->td", _gelu(np.einsum("td,df->tf", inputs, p["W1"]) + p["b1"]), p["W2"]) + p["b2"]
    return h + ff


def vit_forward(image, params):
    x = embed_image(image, params)
    for layer in params["blocks"]:
        x = encoder_block(x, layer, params["heads"])
    last_hidden_state = layer_norm(x, params["ln_g"], params["ln_b"])
    pooled = last_hidden_state[0]
    return np.einsum("d,dk->k", pooled, params["W_head"]) + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
