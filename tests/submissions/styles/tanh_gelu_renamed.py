"""A correct submission with GELU's tanh approximation (GPT-2's) and its own parameter names.

Required arguments are passed by position, so any names work; the optional ones keep the
API's names (cls_token, C, axis, eps, causal). Must get full marks.
"""
import numpy as np


def num_patches(height, width, patch):
    if height % patch != 0 or width % patch != 0:
        raise ValueError(f"{patch}x{patch} patches do not tile {height}x{width}")
    return int(height / patch) * int(width / patch)


def num_tokens(height, width, patch, cls_token=True):
    return num_patches(height, width, patch) + (1 if cls_token else 0)


def patch_dim(patch, C=3):
    return int(patch * patch * C)


def attention_scores(n):
    return int(n) * int(n)


def patchify(img, patch):
    img = np.array(img, dtype=float)
    if img.ndim == 2:
        img = img[:, :, None]
    if img.ndim != 3:
        raise ValueError(f"cannot patchify an array of shape {img.shape}")
    height, width, channels = img.shape
    num_patches(height, width, patch)
    tiles = [img[r:r + patch, c:c + patch].flatten()
             for r in range(0, height, patch) for c in range(0, width, patch)]
    return np.stack(tiles)


def linear_patch_embed(img, weight, bias, patch):
    return np.matmul(patchify(img, patch), weight) + bias


def conv_patch_embed(img, kernel, bias, step):
    img = np.array(img, dtype=float)
    if img.ndim == 2:
        img = img[:, :, None]
    size = kernel.shape[0]
    if size > img.shape[0] or size > img.shape[1]:
        raise ValueError("the kernel does not fit in the image")
    out_rows = range(0, img.shape[0] - size + 1, step)
    out_cols = range(0, img.shape[1] - size + 1, step)
    flat_kernel = kernel.reshape(-1, kernel.shape[-1])
    return np.array([[img[r:r + size, c:c + size].reshape(-1) @ flat_kernel for c in out_cols]
                     for r in out_rows]) + bias


def conv_equivalent(patch):
    return (patch, patch)


def embed_image(img, weights):
    patch_tokens = linear_patch_embed(img, weights["W_e"], weights["b_e"], weights["P"])
    sequence = np.insert(patch_tokens, 0, weights["cls"], axis=0)
    return sequence + weights["pos"]


def softmax(logits, axis=-1):
    logits = logits - np.max(logits, axis=axis, keepdims=True)
    weights = np.exp(logits)
    return weights / np.sum(weights, axis=axis, keepdims=True)


def layer_norm(tokens, scale, shift, eps=1e-6):
    mean = np.mean(tokens, axis=-1, keepdims=True)
    std = np.sqrt(np.var(tokens, axis=-1, keepdims=True) + eps)
    return scale * ((tokens - mean) / std) + shift


def self_attention(tokens, weights, n_heads, causal=False):
    length, width = tokens.shape
    if width % n_heads:
        raise ValueError(f"{n_heads} heads do not divide width {width}")
    head_width = width // n_heads
    project = lambda name: tokens @ weights["W" + name] + weights["b" + name]  # noqa: E731
    query, key, value = project("q"), project("k"), project("v")
    heads_out = []
    for h in range(n_heads):
        cols = slice(h * head_width, (h + 1) * head_width)
        logits = query[:, cols] @ key[:, cols].T / np.sqrt(head_width)
        if causal:
            logits[np.triu_indices(length, k=1)] = -1e30
        heads_out.append(softmax(logits) @ value[:, cols])
    return np.concatenate(heads_out, axis=1) @ weights["Wo"] + weights["bo"]


def gelu(z):
    return 0.5 * z * (1 + np.tanh(np.sqrt(2 / np.pi) * (z + 0.044715 * z ** 3)))


def encoder_block(tokens, weights, n_heads):
    tokens = tokens + self_attention(layer_norm(tokens, weights["ln1_g"], weights["ln1_b"]), weights, n_heads)
    hidden = gelu(layer_norm(tokens, weights["ln2_g"], weights["ln2_b"]) @ weights["W1"] + weights["b1"])
    return tokens + hidden @ weights["W2"] + weights["b2"]


def vit_forward(img, weights):
    tokens = embed_image(img, weights)
    for block in weights["blocks"]:
        tokens = encoder_block(tokens, block, weights["heads"])
    tokens = layer_norm(tokens, weights["ln_g"], weights["ln_b"])
    return tokens[0] @ weights["W_head"] + weights["b_head"]


ANSWERS = {}
ANSWERS["positions"] = "permutation"
ANSWERS["medical"] = "pretrained"
ANSWERS["causal_mask"] = "bidirectional"
