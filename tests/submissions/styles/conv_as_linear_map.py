"""A correct submission (blind round 10, b10_15, issue 38) in an unusual style: the linear patch map
computed as the kernel-P, stride-P convolution, timm's fused qkv, GPT-2's tanh GELU, the final
LayerNorm on the [CLS] row only.

tests/test_catalogue.py requires full marks.

Blind round 10, file 15: a CORRECT port in an unusual style (must get full marks).

Sources ported:
- The lecture's Practice 7 equivalence used as the implementation: linear_patch_embed through
  conv_patch_embed with K = W_e.reshape(P, P, C, d), stride P (as timm's PatchEmbed uses a conv).
- conv_patch_embed as explicit output-position loops with np.tensordot (d2l corr2d, multi-channel).
- timm Attention with a fused qkv: `qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)`
  (Wq, Wk, Wv concatenated), and an additive causal mask built with np.triu.
- GPT-2's tanh GELU inside the block (the API accepts the tanh approximation).
- vit_forward: the final LayerNorm on the [CLS] row only (LayerNorm is per token), as
  timm's forward_head does with fc_norm on the pooled token.
No mistakes.
"""
import math

import numpy as np


# --- Counting (Practice 1, 4, 5; section 4 step 1) ------------------------------------

def num_patches(H, W, P):
    """divmod both sides; any remainder means the patches do not tile."""
    if P < 1:
        raise ValueError("patch size must be positive")
    gh, rh = divmod(H, P)
    gw, rw = divmod(W, P)
    if rh or rw:
        raise ValueError(f"{P} does not tile {H}x{W}")
    return gh * gw


def num_tokens(H, W, P, cls_token=True):
    """Sequence length T entering the transformer: the N patches, plus one row for [CLS].

    Practice 1 and 4: 224/16 gives 197 with [CLS], 196 without. ValueError when P does not tile.
    """
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    """Numbers in one flattened P x P x C patch, before the linear map: P * P * C.

    Practice 5: 768 for P=16 RGB, 192 for P=8 RGB, 4 for the worked example's 2x2 gray patch.
    """
    return P * P * C


def attention_scores(num_tokens):
    """Scores in one attention map of one head: every token against every token, T**2.

    Section 4 step 5: 197 tokens ([CLS] included) give 38809 scores per head.
    """
    return num_tokens ** 2


# --- Patch embedding (Lab 4, Practice 7, the worked example) ------------------------

def _as_hwc(image):
    image = np.asarray(image)
    if image.ndim == 2:
        return image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    return image


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C); (H, W) is one channel.

    Lab 4, section 4 step 2. Row n is patch n in raster order over the patch grid (left to
    right, then top to bottom); inside a patch the order is row, column, channel (p1, p2, c):
    the worked example's top-left patch [[1, 2], [3, 4]] becomes [1, 2, 3, 4].
    ValueError when P does not tile the image or `image` is not 2-D or 3-D.
    """
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # raises ValueError when the patches do not tile
    grid = image.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    """The patch linear map as the kernel-P, stride-P convolution (Practice 7)."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    d = W_e.shape[1]
    return conv_patch_embed(image, W_e.reshape(P, P, C, d), b_e, P).reshape(-1, d)


def conv_patch_embed(image, K, b, stride):
    """Loops over output positions, each window contracted with the kernel."""
    image = _as_hwc(image)
    k = K.shape[0]
    H, W, _ = image.shape
    if k > min(H, W):
        raise ValueError("kernel larger than the image")
    Ho, Wo = (H - k) // stride + 1, (W - k) // stride + 1
    out = np.zeros((Ho, Wo, K.shape[3]))
    for i in range(Ho):
        for j in range(Wo):
            win = image[i * stride:i * stride + k, j * stride:j * stride + k]
            out[i, j] = np.tensordot(win, K, axes=3)
    return out + b


def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map (Practice 7)."""
    return (P, P)


# --- Sequence assembly (section 3 steps 3-4, Practice 2) ----------------------------

def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4).

    linear_patch_embed with params["P"], ["W_e"], ["b_e"]; the learned [CLS] params["cls"] (d,)
    prepended as row 0; then the positions params["pos"] (N + 1, d) added to every row.
    """
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tokens = np.concatenate([params["cls"][None, :], tokens], axis=0)
    return tokens + params["pos"]


# --- Attention and the encoder (section 3 step 5, Practice 6) ------------------------

def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out.

    Numerically stable: subtracting the max along `axis` first changes nothing mathematically
    and keeps exp from overflowing for inputs near 1000.
    """
    shifted = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return shifted / np.sum(shifted, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis: (..., d), (d,), (d,) -> (..., d).

    The biased variance (ddof=0), eps inside the square root; each token is normalised on its own.
    """
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    """timm Attention with a fused qkv projection."""
    N, C = x.shape
    if C % heads:
        raise ValueError("dim should be divisible by num_heads")
    head_dim = C // heads
    W_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ W_qkv + b_qkv).reshape(N, 3, heads, head_dim).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]
    attn = (q * head_dim ** -0.5) @ np.swapaxes(k, -2, -1)
    if causal:
        attn = attn + np.triu(np.full((N, N), -np.inf), k=1)
    attn = softmax(attn, axis=-1)
    out = np.swapaxes(attn @ v, 0, 1).reshape(N, C)
    return out @ p["Wo"] + p["bo"]


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    """Pre-LN block with GPT-2's tanh GELU."""
    def gelu_tanh(h):
        return 0.5 * h * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * h ** 3)))

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    return x + gelu_tanh(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def vit_forward(image, params):
    """Blocks, then the final LayerNorm on the [CLS] row only, then the head."""
    tokens = embed_image(image, params)
    for blk in params["blocks"]:
        tokens = encoder_block(tokens, blk, params["heads"])
    cls = layer_norm(tokens[0], params["ln_g"], params["ln_b"])
    return cls @ params["W_head"] + params["b_head"]


# --- Concepts (Practice 2, 3, 6) ------------------------------------------------------

# Each value is one option key (a string). The options are on the question sheet.
ANSWERS = {
    "positions": None,    # Practice 2: "permutation", "speed", "cls" or "resolution"
    "medical": None,      # Practice 3: "pretrained" or "scratch"
    "causal_mask": None,  # Practice 6: "bidirectional", "speed" or "leak"
}
ANSWERS["positions"] = "permutation"
ANSWERS["medical"] = "pretrained"
ANSWERS["causal_mask"] = "bidirectional"
