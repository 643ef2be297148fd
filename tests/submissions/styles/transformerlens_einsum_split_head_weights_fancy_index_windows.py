"""Blind round 60 (b60_11, issue 38): a CORRECT port in an unusual style (must get full marks),
after TransformerLensOrg/TransformerLens `transformer_lens/components/abstract_attention.py`
(calculate_qkv_matrices, calculate_attention_scores, apply_causal_mask, calculate_z_scores),
`components/layer_norm.py`, `components/mlps/mlp.py`, `components/transformer_block.py`,
`components/embed.py` / `pos_embed.py`: heavy einsum; Wq, Wk and Wv split into (n_heads, d_model,
d_head) and Wo into (n_heads, d_head, d_model) by a top-level `_split_heads`; a module-level
`IGNORE = -np.inf` for the causal mask; layer_norm centre-then-scale (`np.power(mean(x**2) + eps,
0.5)`); conv_patch_embed's windows gathered by fancy index arrays, (Ho, Wo, k, k, C), and
`np.einsum("ijyxc,yxcd->ijd")`; the residual names (`resid_pre`, `resid_mid`, `resid_post`) kept.

tests/test_catalogue.py requires full marks.

No mistakes (the key's check also ran 30 extra randomised trials: non-square grids, C = 1/2/3, 2-D
and uint8 images, heads 1/2/4, causal masks, batched layer_norm / softmax).

Grader: full marks at blind time (528b2ec3, 110/110) and now.
"""
import math

import numpy as np

IGNORE = -np.inf


def num_patches(H, W, P):
    if P <= 0 or H % P or W % P:
        raise ValueError(f"{P}x{P} patches do not tile a {H}x{W} image")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + int(bool(cls_token))


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens ** 2


def _image(image):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[..., None]
    if image.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    return image


def patchify(image, P):
    image = _image(image)
    H, W, C = image.shape
    n = num_patches(H, W, P)
    grid = image.reshape(H // P, P, W // P, P, C)
    return np.einsum("hpwqc->hwpqc", grid).reshape(n, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    patches = patchify(image, P)
    # pos d_patch, d_patch d_model -> pos d_model
    return np.einsum("nk,km->nm", patches, W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    image = _image(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} does not fit a {H}x{W} image")
    Ho, Wo = (H - k) // stride + 1, (W - k) // stride + 1
    rows = (np.arange(Ho) * stride)[:, None] + np.arange(k)[None, :]      # (Ho, k)
    cols = (np.arange(Wo) * stride)[:, None] + np.arange(k)[None, :]      # (Wo, k)
    windows = image[rows[:, None, :, None], cols[None, :, None, :]]        # (Ho, Wo, k, k, C)
    return np.einsum("ijyxc,yxcd->ijd", windows, K) + b


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    embed = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    residual = np.concatenate([params["cls"][None, :], embed], axis=0)
    pos_embed = params["pos"][: residual.shape[0]]
    return residual + pos_embed


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    x_max = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - x_max)
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = x - x.mean(-1, keepdims=True)  # [batch, pos, length]
    scale = np.power(np.mean(np.power(x, 2), axis=-1, keepdims=True) + eps, 0.5)
    x = x / scale  # [batch, pos, length]
    return x * gamma + beta


def _split_heads(W, b, n_heads):
    d_model, d = W.shape
    d_head = d // n_heads
    return W.reshape(d_model, n_heads, d_head).transpose(1, 0, 2), b.reshape(n_heads, d_head)


def self_attention(x, p, heads, causal=False):
    pos, d_model = x.shape
    if d_model % heads:
        raise ValueError("d_model must be divisible by n_heads")
    n_heads = heads
    d_head = d_model // n_heads
    attn_scale = np.sqrt(d_head)

    W_Q, b_Q = _split_heads(p["Wq"], p["bq"], n_heads)
    W_K, b_K = _split_heads(p["Wk"], p["bk"], n_heads)
    W_V, b_V = _split_heads(p["Wv"], p["bv"], n_heads)
    W_O = p["Wo"].reshape(n_heads, d_head, d_model)
    b_O = p["bo"]

    q = np.einsum("pm,hmd->phd", x, W_Q) + b_Q          # [pos, head_index, d_head]
    k = np.einsum("pm,hmd->phd", x, W_K) + b_K
    v = np.einsum("pm,hmd->phd", x, W_V) + b_V

    attn_scores = np.einsum("qhd,khd->hqk", q, k) / attn_scale   # [head_index, query_pos, key_pos]
    if causal:
        mask = np.tril(np.ones((pos, pos), dtype=bool))
        attn_scores = np.where(mask, attn_scores, IGNORE)
    pattern = softmax(attn_scores, axis=-1)

    z = np.einsum("khd,hqk->qhd", v, pattern)               # [pos, head_index, d_head]
    out = np.einsum("qhd,hdm->qm", z, W_O) + b_O
    return out


def gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(x / math.sqrt(2.0)))


def mlp(x, p):
    pre_act = np.einsum("pm,mn->pn", x, p["W1"]) + p["b1"]
    post_act = gelu(pre_act)
    return np.einsum("pn,nm->pm", post_act, p["W2"]) + p["b2"]


def encoder_block(x, p, heads):
    resid_pre = x
    attn_out = self_attention(layer_norm(resid_pre, p["ln1_g"], p["ln1_b"]), p, heads)
    resid_mid = resid_pre + attn_out
    mlp_out = mlp(layer_norm(resid_mid, p["ln2_g"], p["ln2_b"]), p)
    resid_post = resid_mid + mlp_out
    return resid_post


def vit_forward(image, params):
    residual = embed_image(image, params)
    for block in params["blocks"]:
        residual = encoder_block(residual, block, params["heads"])
    residual = layer_norm(residual, params["ln_g"], params["ln_b"])
    return np.einsum("m,mc->c", residual[0], params["W_head"]) + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
