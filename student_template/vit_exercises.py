"""Lecture 4.2, Vision Transformers: your exercises.

Every name of the student API (docs: shared/curriculum/student-api.md). Images are
(H, W, C) numpy arrays, channels last; weights multiply from the right (y = x @ W + b).
Replace each `raise NotImplementedError()` with your code, then run
`vitgrade grade vit_exercises.py` to see your score and feedback.
"""
import math

import numpy as np


# --- Counting (Practice 1, 4, 5; section 4 step 1) ------------------------------------

def num_patches(H, W, P):
    """Number of non-overlapping P x P patches of an H x W image: (H/P)(W/P)."""
    # YOUR CODE HERE
    raise NotImplementedError()


def num_tokens(H, W, P, cls_token=True):
    """Sequence length entering the transformer: patches, plus one for [CLS]."""
    # YOUR CODE HERE
    raise NotImplementedError()


def patch_dim(P, C=3):
    """Numbers in one flattened patch: P * P * C (768 for P=16, RGB)."""
    # YOUR CODE HERE
    raise NotImplementedError()


def attention_scores(num_tokens):
    """Scores in one attention map of one head: T**2 (38809 for 197 tokens)."""
    # YOUR CODE HERE
    raise NotImplementedError()


# --- Patch embedding (Lab 4, Practice 7, the worked example) ------------------------

def _as_hwc(image):
    image = np.asarray(image)
    if image.ndim == 2:
        return image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    return image


def patchify(image, P):
    """(N, P*P*C) flattened patches, raster order, (p1, p2, c) inside a patch."""
    # YOUR CODE HERE
    raise NotImplementedError()


def linear_patch_embed(image, W_e, b_e, P):
    """(N, d) patch tokens: patchify(image, P) @ W_e + b_e."""
    # YOUR CODE HERE
    raise NotImplementedError()


def conv_patch_embed(image, K, b, stride):
    """(H', W', d) valid cross-correlation with kernel K (k, k, C, d) and bias b (d,)."""
    # YOUR CODE HERE
    raise NotImplementedError()


def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map."""
    # YOUR CODE HERE
    raise NotImplementedError()


# --- Sequence assembly (section 3 steps 3-4, Practice 2) ----------------------------

def embed_image(image, params):
    """(N + 1, d): patch tokens, [CLS] prepended as row 0, then positions added."""
    # YOUR CODE HERE
    raise NotImplementedError()


# --- Attention and the encoder (section 3 step 5, Practice 6) ------------------------

def softmax(x, axis=-1):
    """Numerically stable softmax: subtract the max before exp."""
    # YOUR CODE HERE
    raise NotImplementedError()


def layer_norm(x, gamma, beta, eps=1e-6):
    """Normalise the last axis (biased variance, eps inside the sqrt), then scale and shift."""
    # YOUR CODE HERE
    raise NotImplementedError()


def self_attention(x, p, heads, causal=False):
    """(T, d) multi-head self-attention; contiguous head split; no mask unless causal."""
    # YOUR CODE HERE
    raise NotImplementedError()


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    """Pre-LN block: attention and MLP, each on a LayerNorm of the residual stream."""
    # YOUR CODE HERE
    raise NotImplementedError()


def vit_forward(image, params):
    """Logits (num_classes,): embed, every block, final LayerNorm, [CLS] through the head."""
    # YOUR CODE HERE
    raise NotImplementedError()


# --- Concepts (Practice 2, 3, 6) ------------------------------------------------------

# Each value is one option key (a string). The options are on the question sheet.
ANSWERS = {
    "positions": None,    # Practice 2: "permutation", "speed", "cls" or "resolution"
    "medical": None,      # Practice 3: "pretrained" or "scratch"
    "causal_mask": None,  # Practice 6: "bidirectional", "speed" or "leak"
}
# YOUR CODE HERE
