"""Blind round 57 (b57_11, issue 38): a CORRECT port in an unusual style (must get full marks),
after hkproj/pytorch-paligemma `modeling_siglip.py` (SiglipVisionEmbeddings, SiglipAttention,
SiglipMLP, SiglipEncoderLayer, SiglipVisionTransformer), a class-based PyTorch model flattened
into functions with torch-like NCHW internals: the image put `[Channels, Height, Width]`;
conv_patch_embed with the kernel as torch's `[Embed_Dim, Channels, k, k]`
(`K.transpose(3, 2, 0, 1)`) and one `np.tensordot` per window, then `[H', W', Embed_Dim]`;
patchify by a `(C, n_h, P, n_w, P)` reshape transposed to `(n_h, n_w, P, P, C)`;
linear_patch_embed as the same stride-P convolution with `W_e.reshape(P, P, C, d)` in torch's
layout, then torch's `flatten(2).transpose(1, 2)` (`reshape(d, -1).T`); positions read by
`position_ids = arange(T)`; view/transpose head split with the source's shape comments, a
`triu(k=1)` -inf mask when causal. The source's square
`num_patches = (image_size // patch_size) ** 2` was not ported: the counts use H and W.

tests/test_catalogue.py requires full marks.

No mistakes.

Grader: full marks at blind time (84f876fc, 110/110) and now.
"""
import math

import numpy as np


# --- Counting (SiglipVisionEmbeddings.__init__) --------------------------------------------

def num_patches(H, W, P):
    image_size = (H, W)
    patch_size = P
    if patch_size < 1:
        raise ValueError("patch_size must be >= 1")
    if image_size[0] % patch_size or image_size[1] % patch_size:
        raise ValueError(f"image {image_size} cannot be cut into {patch_size}x{patch_size} patches")
    num_patches_h = image_size[0] // patch_size
    num_patches_w = image_size[1] // patch_size
    return num_patches_h * num_patches_w


def num_tokens(H, W, P, cls_token=True):
    num_positions = num_patches(H, W, P)
    if cls_token:
        num_positions += 1
    return num_positions


def patch_dim(P, C=3):
    num_channels = C
    return num_channels * P * P


def attention_scores(num_tokens):
    seq_len = num_tokens
    return seq_len * seq_len


# --- SiglipVisionEmbeddings ------------------------------------------------------------------

def _pixel_values(image):
    # [Height, Width, Channels] -> [Channels, Height, Width]
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, np.newaxis]
    if image.ndim != 3:
        raise ValueError(f"pixel values should be (H, W) or (H, W, C), got {image.shape}")
    return image.transpose(2, 0, 1)


def conv2d_valid(pixel_values, weight, bias, stride):
    # pixel_values: [Channels, Height, Width]; weight: [Embed_Dim, Channels, k, k]
    channels, height, width = pixel_values.shape
    embed_dim, _, kernel_size, _ = weight.shape
    if kernel_size > height or kernel_size > width:
        raise ValueError("kernel_size is larger than the image")
    out_h = (height - kernel_size) // stride + 1
    out_w = (width - kernel_size) // stride + 1
    patch_embeds = np.zeros((embed_dim, out_h, out_w))
    for i in range(out_h):
        for j in range(out_w):
            region = pixel_values[:, i * stride:i * stride + kernel_size, j * stride:j * stride + kernel_size]
            patch_embeds[:, i, j] = np.tensordot(weight, region, axes=([1, 2, 3], [0, 1, 2])) + bias
    # [Embed_Dim, Num_Patches_H, Num_Patches_W]
    return patch_embeds


def conv_patch_embed(image, K, b, stride):
    pixel_values = _pixel_values(image).astype(float)
    weight = K.transpose(3, 2, 0, 1)          # (k, k, C, d) -> [Embed_Dim, Channels, k, k]
    patch_embeds = conv2d_valid(pixel_values, weight, b, stride)
    # [Embed_Dim, H', W'] -> [H', W', Embed_Dim]
    return patch_embeds.transpose(1, 2, 0)


def conv_equivalent(P):
    kernel_size = P
    stride = P
    return (kernel_size, stride)


def patchify(image, P):
    pixel_values = _pixel_values(image)
    channels, height, width = pixel_values.shape
    n_h, n_w = height // P, width // P
    num_patches(height, width, P)
    # [C, n_h, P, n_w, P] -> [n_h, n_w, P, P, C]
    x = pixel_values.reshape(channels, n_h, P, n_w, P).transpose(1, 3, 2, 4, 0)
    return x.reshape(n_h * n_w, P * P * channels)


def linear_patch_embed(image, W_e, b_e, P):
    pixel_values = _pixel_values(image)
    channels, height, width = pixel_values.shape
    num_patches(height, width, P)
    embed_dim = W_e.shape[1]
    weight = W_e.reshape(P, P, channels, embed_dim).transpose(3, 2, 0, 1)
    patch_embeds = conv2d_valid(pixel_values.astype(float), weight, b_e, P)
    # [Embed_Dim, Num_Patches_H, Num_Patches_W] -> [Embed_Dim, Num_Patches] -> [Num_Patches, Embed_Dim]
    embeddings = patch_embeds.reshape(embed_dim, -1)
    return embeddings.T


def embed_image(image, params):
    embeddings = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    class_embedding = np.asarray(params["cls"])[np.newaxis, :]
    embeddings = np.concatenate([class_embedding, embeddings], axis=0)
    position_ids = np.arange(embeddings.shape[0])
    embeddings = embeddings + params["pos"][position_ids]
    return embeddings


# --- SiglipAttention --------------------------------------------------------------------------

def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    x_max = np.max(x, axis=axis, keepdims=True)
    exps = np.exp(x - x_max)
    return exps / np.sum(exps, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    # nn.LayerNorm(self.embed_dim, eps=config.layer_norm_eps)
    mean = x.mean(axis=-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    hidden_states = x
    seq_len, embed_dim = hidden_states.shape
    num_heads = heads
    if embed_dim % num_heads != 0:
        raise ValueError(f"embed_dim {embed_dim} must be divisible by num_heads {num_heads}")
    head_dim = embed_dim // num_heads
    scale = head_dim ** -0.5

    query_states = hidden_states @ p["Wq"] + p["bq"]
    key_states = hidden_states @ p["Wk"] + p["bk"]
    value_states = hidden_states @ p["Wv"] + p["bv"]
    # [Num_Patches, Embed_Dim] -> [Num_Heads, Num_Patches, Head_Dim]
    query_states = query_states.reshape(seq_len, num_heads, head_dim).transpose(1, 0, 2)
    key_states = key_states.reshape(seq_len, num_heads, head_dim).transpose(1, 0, 2)
    value_states = value_states.reshape(seq_len, num_heads, head_dim).transpose(1, 0, 2)

    attn_weights = np.matmul(query_states, key_states.transpose(0, 2, 1)) * scale
    if attn_weights.shape != (num_heads, seq_len, seq_len):
        raise ValueError(f"Attention weights should be of size {(num_heads, seq_len, seq_len)}")
    if causal:
        causal_mask = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1)
        attn_weights = np.where(causal_mask, -np.inf, attn_weights)
    attn_weights = softmax(attn_weights, axis=-1)
    attn_output = np.matmul(attn_weights, value_states)
    # [Num_Heads, Num_Patches, Head_Dim] -> [Num_Patches, Num_Heads, Head_Dim] -> [Num_Patches, Embed_Dim]
    attn_output = attn_output.transpose(1, 0, 2).reshape(seq_len, embed_dim)
    attn_output = attn_output @ p["Wo"] + p["bo"]
    return attn_output


# --- SiglipMLP / SiglipEncoderLayer / SiglipVisionTransformer ------------------------------------

def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def siglip_mlp(hidden_states, p):
    hidden_states = hidden_states @ p["W1"] + p["b1"]
    hidden_states = gelu(hidden_states)
    hidden_states = hidden_states @ p["W2"] + p["b2"]
    return hidden_states


def encoder_block(x, p, heads):
    residual = x
    hidden_states = layer_norm(x, p["ln1_g"], p["ln1_b"])
    hidden_states = self_attention(hidden_states, p, heads)
    hidden_states = residual + hidden_states
    residual = hidden_states
    hidden_states = layer_norm(hidden_states, p["ln2_g"], p["ln2_b"])
    hidden_states = siglip_mlp(hidden_states, p)
    hidden_states = residual + hidden_states
    return hidden_states


def vit_forward(image, params):
    hidden_states = embed_image(image, params)
    for encoder_layer in params["blocks"]:
        hidden_states = encoder_block(hidden_states, encoder_layer, params["heads"])
    last_hidden_state = layer_norm(hidden_states, params["ln_g"], params["ln_b"])
    pooled_output = last_hidden_state[0]
    return pooled_output @ params["W_head"] + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
