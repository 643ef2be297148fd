"""A correct submission (blind round 55, b55_14, issue 38) in an unusual style: conv_patch_embed
after `conv2d_nhwc_v1` (find_string id 26286338033: an `as_strided` window view of an NHWC batch
and `np.tensordot` over (kh, kw, ic)), a batch axis added and dropped, the array's own strides
(non-contiguous inputs work), output size `(H - k) // s + 1`, a gray image given a channel axis
and an explicit ValueError when k exceeds H or W; patchify with the output size of the C++
`SConvolutionParams::ComputeConvOutputSize` (find_string id 34272458640: ceil((H + 1 - P) / P),
equal to (H - P) // P + 1) and an `as_strided` view, window = stride = P, ordered (oh, ow, P, P,
C): rows in raster order, (p1, p2, c) inside, after num_patches refuses sizes that do not tile;
conv_equivalent returns the list `[P, P]` (the API allows a list).

tests/test_catalogue.py requires full marks.

Blind round 55 (b55_14, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (cdc1de9a, 110/110) and now.
"""
import math

import numpy as np


# --- Counting (Practice 1, 4, 5; section 4 step 1) ------------------------------------

def num_patches(H, W, P):
    """Number of non-overlapping P x P patches that tile an H x W image: (H/P)(W/P).

    Section 4 step 1: 4x4 with P=2 gives 4; 224x224 with P=16 gives 196. Patches tile, they are
    not overlapping CNN windows: raise ValueError when P does not divide H or W. Returns an int.
    """
    ### BEGIN SOLUTION
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return (H // P) * (W // P)
    ### END SOLUTION


def num_tokens(H, W, P, cls_token=True):
    """Sequence length T entering the transformer: the N patches, plus one row for [CLS].

    Practice 1 and 4: 224/16 gives 197 with [CLS], 196 without. ValueError when P does not tile.
    """
    ### BEGIN SOLUTION
    return num_patches(H, W, P) + (1 if cls_token else 0)
    ### END SOLUTION


def patch_dim(P, C=3):
    """Numbers in one flattened P x P x C patch, before the linear map: P * P * C.

    Practice 5: 768 for P=16 RGB, 192 for P=8 RGB, 4 for the worked example's 2x2 gray patch.
    """
    ### BEGIN SOLUTION
    return P * P * C
    ### END SOLUTION


def attention_scores(num_tokens):
    """Scores in one attention map of one head: every token against every token, T**2.

    Section 4 step 5: 197 tokens ([CLS] included) give 38809 scores per head.
    """
    ### BEGIN SOLUTION
    return num_tokens ** 2
    ### END SOLUTION


# --- Patch embedding (Lab 4, Practice 7, the worked example) ------------------------

def _as_hwc(image):
    image = np.asarray(image)
    if image.ndim == 2:
        return image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    return image


def _conv_output_size(input_size, kernel_size, stride):
    conv_count = (input_size + 1) - kernel_size
    if conv_count % stride != 0:
        return conv_count // stride + 1
    return conv_count // stride


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C); (H, W) is one channel."""
    img = np.asarray(image)
    if img.ndim == 2:
        img = img[:, :, None]
    if img.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {img.shape}")
    ih, iw, ic = img.shape
    num_patches(ih, iw, P)
    oh = _conv_output_size(ih, P, P)
    ow = _conv_output_size(iw, P, P)
    isteph, istepw, istepc = img.strides
    x = np.lib.stride_tricks.as_strided(img, (oh, ow, P, P, ic),
                                        (isteph * P, istepw * P, isteph, istepw, istepc), writeable=False)
    return x.reshape(oh * ow, P * P * ic)


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): patchify(image, P) @ W_e + b_e, W_e (P*P*C, d), b_e (d,).

    Section 3 step 2, section 4 step 3: with W_e's first column all 0.25, the worked example's
    patch [1, 2, 3, 4] gets the first coordinate 2.5, its mean.
    """
    ### BEGIN SOLUTION
    return patchify(image, P) @ W_e + b_e
    ### END SOLUTION


def get_stride(stride):
    if isinstance(stride, int):
        return (stride, stride)
    return tuple(stride)


def conv2d_nhwc_v1(img, kernel, stride):
    batch_size, ih, iw, _ic = img.shape
    kh, kw, ic, oc = kernel.shape
    assert _ic == ic
    sh, sw = get_stride(stride)
    oh = (ih - kh) // sh + 1
    ow = (iw - kw) // sw + 1
    istepb, isteph, istepw, istepc = img.strides
    x = np.lib.stride_tricks.as_strided(img, (batch_size, oh, ow, kh, kw, ic),
                                        (istepb, isteph * sh, istepw * sw, isteph, istepw, istepc), writeable=False)
    xw = np.tensordot(x, kernel, ([-3, -2, -1], [0, 1, 2]))
    return xw


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d)."""
    img = np.asarray(image)
    if img.ndim == 2:
        img = img[:, :, None]
    kh, kw = K.shape[:2]
    if kh > img.shape[0] or kw > img.shape[1]:
        raise ValueError(f"kernel {kh}x{kw} is larger than the {img.shape[0]}x{img.shape[1]} image")
    return conv2d_nhwc_v1(img[None], K, int(stride))[0] + b


def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map."""
    return [P, P]


# --- Sequence assembly (section 3 steps 3-4, Practice 2) ----------------------------

def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4).

    linear_patch_embed with params["P"], ["W_e"], ["b_e"]; the learned [CLS] params["cls"] (d,)
    prepended as row 0; then the positions params["pos"] (N + 1, d) added to every row.
    """
    ### BEGIN SOLUTION
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tokens = np.concatenate([params["cls"][None, :], tokens], axis=0)
    return tokens + params["pos"]
    ### END SOLUTION


# --- Attention and the encoder (section 3 step 5, Practice 6) ------------------------

def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out.

    Numerically stable: subtracting the max along `axis` first changes nothing mathematically
    and keeps exp from overflowing for inputs near 1000.
    """
    ### BEGIN SOLUTION
    shifted = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return shifted / np.sum(shifted, axis=axis, keepdims=True)
    ### END SOLUTION


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis: (..., d), (d,), (d,) -> (..., d).

    The biased variance (ddof=0), eps inside the square root; each token is normalised on its own.
    """
    ### BEGIN SOLUTION
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
    ### END SOLUTION


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    q = x @ Wq + bq (likewise k, v); head h uses columns h*d_h:(h+1)*d_h, d_h = d // heads;
    softmax(q_h k_h^T / sqrt(d_h)) v_h per head, heads side by side, then @ Wo + bo.
    No mask by default (every patch sees every patch); causal=True hides later tokens as GPT
    does. ValueError when heads does not divide d.
    """
    ### BEGIN SOLUTION
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads

    def split(y):                                   # (T, d) -> (heads, T, d_h)
        return y.reshape(T, heads, d_h).transpose(1, 0, 2)

    q, k, v = (split(x @ p[f"W{n}"] + p[f"b{n}"]) for n in "qkv")
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_h)  # (heads, T, T)
    if causal:
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    out = softmax(scores, axis=-1) @ v                  # (heads, T, d_h)
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
    ### END SOLUTION


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    ### BEGIN SOLUTION
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    ### END SOLUTION


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6).

    embed_image, every block of params["blocks"] with params["heads"], the final layer_norm
    (ln_g, ln_b), then the [CLS] row (row 0) through W_head (d, num_classes) and b_head.
    """
    ### BEGIN SOLUTION
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
    ### END SOLUTION


# --- Concepts (Practice 2, 3, 6) ------------------------------------------------------

# Each value is one option key (a string). The options are on the question sheet.
ANSWERS = {
    "positions": None,    # Practice 2: "permutation", "speed", "cls" or "resolution"
    "medical": None,      # Practice 3: "pretrained" or "scratch"
    "causal_mask": None,  # Practice 6: "bidirectional", "speed" or "leak"
}
### BEGIN SOLUTION
ANSWERS["positions"] = "permutation"
ANSWERS["medical"] = "pretrained"
ANSWERS["causal_mask"] = "bidirectional"
### END SOLUTION
