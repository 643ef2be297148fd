"""A correct submission (blind round 29, b29_15, issue 38) in an unusual style:
faustomorales/vit-keras
(vit_keras/layers.py: ClassToken, AddPositionEmbs, MultiHeadSelfAttention.separate_heads /
attention, TransformerBlock; tfa.activations.gelu with its default approximate=True, the tanh
GELU, accepted; LayerNormalization as tf.nn.moments + tf.nn.batch_normalization), answers
written with capitals and spaces (" Permutation", "Pretrained").

tests/test_catalogue.py requires full marks.

Blind round 29 (b29_15, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
"""
import math

import numpy as np


# --- Counting (Practice 1, 4, 5; section 4 step 1) ------------------------------------

def num_patches(H, W, P):
    """Number of non-overlapping P x P patches that tile an H x W image: (H/P)(W/P).

    Section 4 step 1: 4x4 with P=2 gives 4; 224x224 with P=16 gives 196. Patches tile, they are
    not overlapping CNN windows: raise ValueError when P does not divide H or W. Returns an int.
    """
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return (H // P) * (W // P)


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
    img = _as_hwc(image)
    h, w, c = img.shape
    num_patches(h, w, P)
    rows = [img[i:i + P, j:j + P, :].reshape(-1)
            for i in range(0, h, P) for j in range(0, w, P)]
    return np.asarray(rows).reshape(-1, P * P * c)


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): patchify(image, P) @ W_e + b_e, W_e (P*P*C, d), b_e (d,).

    Section 3 step 2, section 4 step 3: with W_e's first column all 0.25, the worked example's
    patch [1, 2, 3, 4] gets the first coordinate 2.5, its mean.
    """
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d).

    out[i, j] = sum(image[i*stride:i*stride+k, j*stride:j*stride+k, :] * K) + b, with
    H' = (H - k)//stride + 1 and W' likewise. Practice 7: with K = W_e.reshape(P, P, C, d) and
    stride P it equals linear_patch_embed. ValueError when k exceeds H or W.
    """
    image = _as_hwc(image)
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    windows = np.lib.stride_tricks.sliding_window_view(image, (k, k), axis=(0, 1))  # (H-k+1, W-k+1, C, k, k)
    windows = windows[::stride, ::stride].transpose(0, 1, 3, 4, 2)                 # (H', W', k, k, C)
    return np.tensordot(windows, K, axes=([2, 3, 4], [0, 1, 2])) + b


def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map (Practice 7)."""
    return (P, P)


# --- Sequence assembly (section 3 steps 3-4, Practice 2) ----------------------------

class ClassToken:
    def __init__(self, cls):
        self.cls = np.asarray(cls)

    def __call__(self, inputs):
        cls_broadcasted = np.broadcast_to(self.cls, (1, inputs.shape[-1]))
        return np.concatenate([cls_broadcasted, inputs], axis=0)


class AddPositionEmbs:
    def __init__(self, pe):
        self.pe = np.asarray(pe)

    def __call__(self, inputs):
        return inputs + self.pe


def embed_image(image, params):
    y = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    y = ClassToken(params["cls"])(y)
    return AddPositionEmbs(params["pos"])(y)


# --- Attention and the encoder (section 3 step 5, Practice 6) ------------------------

def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out.

    Numerically stable: subtracting the max along `axis` first changes nothing mathematically
    and keeps exp from overflowing for inputs near 1000.
    """
    shifted = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return shifted / np.sum(shifted, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    """tf.nn.moments over the last axis + tf.nn.batch_normalization."""
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    inv = 1.0 / np.sqrt(variance + eps)
    inv = inv * gamma
    return x * inv + (beta - mean * inv)


class MultiHeadSelfAttention:
    def __init__(self, p, num_heads):
        self.p = p
        self.num_heads = num_heads
        hidden_size = p["Wq"].shape[0]
        if hidden_size % num_heads != 0:
            raise ValueError(f"embedding dimension = {hidden_size} should be divisible by "
                             f"number of heads = {num_heads}")
        self.hidden_size = hidden_size
        self.projection_dim = hidden_size // num_heads

    def attention(self, query, key, value, mask=None):
        score = query @ np.swapaxes(key, -1, -2)
        dim_key = key.shape[-1]
        scaled_score = score / np.sqrt(dim_key)
        if mask is not None:
            scaled_score = np.where(mask, scaled_score, -np.inf)
        weights = softmax(scaled_score, axis=-1)
        return weights @ value, weights

    def separate_heads(self, x):
        x = x.reshape(-1, self.num_heads, self.projection_dim)
        return x.transpose(1, 0, 2)

    def __call__(self, inputs, causal=False):
        p = self.p
        query = self.separate_heads(inputs @ p["Wq"] + p["bq"])
        key = self.separate_heads(inputs @ p["Wk"] + p["bk"])
        value = self.separate_heads(inputs @ p["Wv"] + p["bv"])
        T = inputs.shape[0]
        mask = np.tril(np.ones((T, T), dtype=bool)) if causal else None
        attention, weights = self.attention(query, key, value, mask)
        attention = attention.transpose(1, 0, 2)
        concat_attention = attention.reshape(-1, self.hidden_size)
        output = concat_attention @ p["Wo"] + p["bo"]
        return output, weights


def self_attention(x, p, heads, causal=False):
    if x.shape[-1] % heads:
        raise ValueError(f"width {x.shape[-1]} is not divisible by {heads} heads")
    return MultiHeadSelfAttention(p, heads)(x, causal=causal)[0]


def gelu(x):
    """tfa.activations.gelu(x, approximate=True)."""
    x = np.asarray(x, dtype=float)
    coeff = np.sqrt(2.0 / np.pi)
    return 0.5 * x * (1.0 + np.tanh(coeff * (x + 0.044715 * np.power(x, 3))))


def encoder_block(inputs, p, heads):
    """TransformerBlock.call (dropout off)."""
    x = layer_norm(inputs, p["ln1_g"], p["ln1_b"])
    x = self_attention(x, p, heads)
    x = x + inputs
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    y = gelu(y @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x + y


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6).

    embed_image, every block of params["blocks"] with params["heads"], the final layer_norm
    (ln_g, ln_b), then the [CLS] row (row 0) through W_head (d, num_classes) and b_head.
    """
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]


# --- Concepts (Practice 2, 3, 6) ------------------------------------------------------

# Each value is one option key (a string). The options are on the question sheet.
ANSWERS = {
    "positions": None,    # Practice 2: "permutation", "speed", "cls" or "resolution"
    "medical": None,      # Practice 3: "pretrained" or "scratch"
    "causal_mask": None,  # Practice 6: "bidirectional", "speed" or "leak"
}
ANSWERS["positions"] = ' Permutation'
ANSWERS["medical"] = 'Pretrained'
ANSWERS["causal_mask"] = "bidirectional"
