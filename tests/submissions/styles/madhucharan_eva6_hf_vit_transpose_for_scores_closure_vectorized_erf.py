"""Blind round 79 (b79_02, issue 38): a CORRECT port in an unusual style (must get full marks):
ported from madhucharan/EVA6 `S13/README.md` ("Understanding ViT": Hugging Face's
PatchEmbeddings, ViTEmbeddings, ViTSelfAttention and ViTSelfOutput rewritten in numpy):
`to_2tuple` patch sizes, HF's `transpose_for_scores` as a closure, `mixed_query_layer` and
`context_layer` names, a boolean future mask by np.where with -inf, a GELU of
`np.vectorize(math.erf)`, and ViTLayer's layernorm_before / layernorm_after order.

tests/test_catalogue.py requires full marks.

No mistakes (the key checked square and non-square images, a gray image, C=2, conv with k=P/s=P,
k=3/s=2 on 9x7 and 8x7 and k=2/s=1, softmax on 2-D/3-D and near 1000, layer_norm on batched
input and eps=0.5, heads 1/2/4 with and without causal, every ValueError and ANSWERS).

Grader: at blind time (50c6c808) and now, 110/110.
"""
# The delivered file's docstring: "Lab 4 -- Vision Transformers. Written after going through
# the "Understanding ViT" notes (PatchEmbeddings -> ViTEmbeddings -> ViTSelfAttention ->
# ViTSelfOutput), rewritten in numpy."

import math

import numpy as np


def to_2tuple(x):
    return x if isinstance(x, tuple) else (x, x)


# ----------------------------------------------------------------------------
# Counting
# ----------------------------------------------------------------------------

def num_patches(H, W, P):
    # N = (H // P1) * (W // P2)
    image_size = (H, W)
    patch_size = to_2tuple(P)
    if image_size[0] % patch_size[0] != 0 or image_size[1] % patch_size[1] != 0:
        raise ValueError(
            f"Input image size ({image_size[0]}*{image_size[1]}) is not divisible by patch size {patch_size}."
        )
    return (image_size[1] // patch_size[1]) * (image_size[0] // patch_size[0])


def num_tokens(H, W, P, cls_token=True):
    # the CLS token is concatenated in front of the patch embeddings
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    # 16 * 16 * 3 = 768
    return P * P * C


def attention_scores(num_tokens):
    # one score per (query, key) pair
    return num_tokens * num_tokens


# ----------------------------------------------------------------------------
# Patch embeddings
# ----------------------------------------------------------------------------

def _pixel_values(image):
    pixel_values = np.asarray(image, dtype=float)
    if pixel_values.ndim == 2:
        pixel_values = pixel_values[:, :, np.newaxis]
    if pixel_values.ndim != 3:
        raise ValueError(f"expected an (H, W) or (H, W, C) image, got {pixel_values.shape}")
    return pixel_values


def patchify(image, P):
    pixel_values = _pixel_values(image)
    height, width, num_channels = pixel_values.shape
    num_patches(height, width, P)
    patch_size = to_2tuple(P)
    grid_h, grid_w = height // patch_size[0], width // patch_size[1]
    patches = pixel_values.reshape(grid_h, patch_size[0], grid_w, patch_size[1], num_channels)
    patches = patches.transpose(0, 2, 1, 3, 4)
    return patches.reshape(grid_h * grid_w, patch_size[0] * patch_size[1] * num_channels)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    # self.projection = nn.Conv2d(num_channels, embed_dim, kernel_size=patch_size, stride=patch_size)
    pixel_values = _pixel_values(image)
    height, width, num_channels = pixel_values.shape
    kernel_size = K.shape[0]
    if kernel_size > height or kernel_size > width:
        raise ValueError(f"kernel size {kernel_size} is larger than the input ({height}*{width})")
    out_h = (height - kernel_size) // stride + 1
    out_w = (width - kernel_size) // stride + 1
    embed_dim = K.shape[-1]
    kernel = K.reshape(-1, embed_dim)
    embeddings = np.zeros((out_h, out_w, embed_dim))
    for i in range(out_h):
        for j in range(out_w):
            window = pixel_values[i * stride:i * stride + kernel_size, j * stride:j * stride + kernel_size, :]
            embeddings[i, j] = window.reshape(-1) @ kernel + b
    return embeddings


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    """Construct the CLS token, position and patch embeddings."""
    embeddings = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_tokens = params["cls"].reshape(1, -1)
    embeddings = np.concatenate((cls_tokens, embeddings), axis=0)
    embeddings = embeddings + params["pos"]
    return embeddings


# ----------------------------------------------------------------------------
# Attention
# ----------------------------------------------------------------------------

def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    hidden_states = np.asarray(x, dtype=float)
    seq_len, hidden_size = hidden_states.shape
    if hidden_size % heads != 0:
        raise ValueError(
            f"The hidden size {hidden_size} is not a multiple of the number of attention heads {heads}."
        )
    num_attention_heads = heads
    attention_head_size = int(hidden_size / num_attention_heads)
    all_head_size = num_attention_heads * attention_head_size

    def transpose_for_scores(t):
        new_x_shape = t.shape[:-1] + (num_attention_heads, attention_head_size)
        t = t.reshape(new_x_shape)
        return t.transpose(1, 0, 2)

    mixed_query_layer = hidden_states @ p["Wq"] + p["bq"]
    key_layer = transpose_for_scores(hidden_states @ p["Wk"] + p["bk"])
    value_layer = transpose_for_scores(hidden_states @ p["Wv"] + p["bv"])
    query_layer = transpose_for_scores(mixed_query_layer)

    # Take the dot product between "query" and "key" to get the raw attention scores.
    attention_scores = query_layer @ key_layer.transpose(0, 2, 1)
    attention_scores = attention_scores / math.sqrt(attention_head_size)
    if causal:
        future = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1)
        attention_scores = np.where(future, -np.inf, attention_scores)

    # Normalize the attention scores to probabilities.
    attention_probs = softmax(attention_scores, axis=-1)

    context_layer = attention_probs @ value_layer
    context_layer = context_layer.transpose(1, 0, 2)
    new_context_layer_shape = context_layer.shape[:-2] + (all_head_size,)
    context_layer = context_layer.reshape(new_context_layer_shape)

    # ViTSelfOutput: just a linear layer
    return context_layer @ p["Wo"] + p["bo"]


def gelu(x):
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    # ViTLayer: layernorm_before -> attention -> residual, layernorm_after -> intermediate -> output -> residual
    attention_output = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    hidden_states = attention_output + x
    layer_output = layer_norm(hidden_states, p["ln2_g"], p["ln2_b"])
    intermediate = gelu(layer_output @ p["W1"] + p["b1"])
    layer_output = intermediate @ p["W2"] + p["b2"]
    return layer_output + hidden_states


def vit_forward(image, params):
    hidden_states = embed_image(image, params)
    for layer_params in params["blocks"]:
        hidden_states = encoder_block(hidden_states, layer_params, params["heads"])
    sequence_output = layer_norm(hidden_states, params["ln_g"], params["ln_b"])
    # classifier on the [CLS] token
    return sequence_output[0, :] @ params["W_head"] + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
