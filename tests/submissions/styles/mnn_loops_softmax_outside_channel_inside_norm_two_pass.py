"""Blind round 59 (b59_10, issue 38): a CORRECT port in an unusual style (must get full marks),
after alibaba/MNN `source/backend/cpu/CPULayerNorm.cpp` with MNNNorm
(`source/backend/cpu/compute/CommonOptFunction.cpp`) and `source/backend/cpu/CPUSoftmax.cpp`
(_softmaxCommon): explicit loops throughout: num_patches counting the patches, a per-pixel
patch copy, a per-output-pixel convolution, MNNNorm's two-pass mean and variance per row, softmax
through MNN's outside / channel / inside decomposition of the shape around `axis`, attention per
head, query and key with the key range shortened for a causal mask; `conv_equivalent` returns a
list.

tests/test_catalogue.py requires full marks.

No mistakes (the key's check also ran 25 extra randomised trials: non-square grids, C = 1/3,
heads 1/2/4, causal masks, softmax on every axis, batched layer_norm far from zero, and uint8
gray images).

Grader: full marks at blind time (528b2ec3, 110/110) and now.
"""
import math

import numpy as np


def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("patch size %d does not tile %dx%d" % (P, H, W))
    count = 0
    for _ in range(0, H, P):
        for _ in range(0, W, P):
            count += 1
    return count


def num_tokens(H, W, P, cls_token=True):
    count = num_patches(H, W, P)
    if cls_token:
        count += 1
    return count


def patch_dim(P, C=3):
    size = 1
    for extent in (P, P, C):
        size *= extent
    return size


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _nhwc(image):
    src = np.asarray(image)
    if src.ndim == 2:
        src = src[:, :, None]
    if src.ndim != 3:
        raise ValueError("input must be (H, W) or (H, W, C)")
    return src


def patchify(image, P):
    src = _nhwc(image)
    ih, iw, ic = src.shape
    num_patches(ih, iw, P)
    oh, ow = ih // P, iw // P
    dst = np.empty((oh * ow, P * P * ic), dtype=src.dtype)
    for y in range(oh):
        for x in range(ow):
            n = y * ow + x
            c = 0
            for ky in range(P):
                for kx in range(P):
                    dst[n, c:c + ic] = src[y * P + ky, x * P + kx, :]
                    c += ic
    return dst


def linear_patch_embed(image, W_e, b_e, P):
    patches = patchify(image, P).astype(float)
    dst = np.empty((patches.shape[0], W_e.shape[1]))
    for n in range(patches.shape[0]):
        dst[n] = patches[n] @ W_e + b_e
    return dst


def conv_patch_embed(image, K, b, stride):
    """Plain convolution loop: for each output pixel, sum over kernel rows, columns, input channels."""
    src = _nhwc(image).astype(float)
    ih, iw, ic = src.shape
    kh, kw, _, oc = K.shape
    if kh > ih or kw > iw:
        raise ValueError("kernel %d exceeds input %dx%d" % (kh, ih, iw))
    oh = (ih - kh) // stride + 1
    ow = (iw - kw) // stride + 1
    dst = np.empty((oh, ow, oc))
    for oy in range(oh):
        for ox in range(ow):
            acc = np.array(b, dtype=float)
            for ky in range(kh):
                for kx in range(kw):
                    acc = acc + src[oy * stride + ky, ox * stride + kx, :] @ K[ky, kx]
            dst[oy, ox] = acc
    return dst


def conv_equivalent(P):
    return [P, P]


def embed_image(image, params):
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    d = patches.shape[1]
    dst = np.empty((patches.shape[0] + 1, d))
    dst[0] = params["cls"]
    dst[1:] = patches
    for t in range(dst.shape[0]):
        dst[t] = dst[t] + params["pos"][t]
    return dst


def _softmax_common(src, dst, inside, outside, channel):
    for y in range(outside):
        src_y = src[y]
        dst_y = dst[y]
        max_value = src_y[0].copy()
        for c in range(1, channel):
            max_value = np.maximum(max_value, src_y[c])
        sum_value = np.zeros(inside)
        for c in range(channel):
            dst_y[c] = np.exp(src_y[c] - max_value)
            sum_value += dst_y[c]
        for c in range(channel):
            dst_y[c] /= sum_value


def softmax(x, axis=-1):
    src = np.asarray(x, dtype=float)
    dims = src.ndim
    if axis < 0:
        axis = dims + axis
    outside = 1
    for i in range(axis):
        outside *= src.shape[i]
    channel = src.shape[axis]
    inside = 1
    for i in range(axis + 1, dims):
        inside *= src.shape[i]
    src3 = np.ascontiguousarray(src).reshape(outside, channel, inside)
    dst3 = np.empty((outside, channel, inside))
    _softmax_common(src3, dst3, inside, outside, channel)
    return dst3.reshape(src.shape)


def _mnn_norm(dst, src, gamma, beta, epsilon, size):
    total = 0.0
    for j in range(size):
        total += src[j]
    mean = total / size
    square_sum = 0.0
    for j in range(size):
        square_sum += (src[j] - mean) * (src[j] - mean)
    variable = square_sum / size
    variable = 1.0 / math.sqrt(variable + epsilon)
    for j in range(size):
        dst[j] = (src[j] - mean) * variable * gamma[j] + beta[j]


def layer_norm(x, gamma, beta, eps=1e-6):
    src = np.asarray(x, dtype=float)
    inner_size = src.shape[-1]
    outter_size = src.size // inner_size
    src2 = src.reshape(outter_size, inner_size)
    dst2 = np.empty((outter_size, inner_size))
    gamma = np.broadcast_to(np.asarray(gamma, dtype=float), (inner_size,))
    beta = np.broadcast_to(np.asarray(beta, dtype=float), (inner_size,))
    for t in range(outter_size):
        _mnn_norm(dst2[t], src2[t], gamma, beta, eps, inner_size)
    return dst2.reshape(src.shape)


def self_attention(x, p, heads, causal=False):
    seq_len, d = x.shape
    if d % heads != 0:
        raise ValueError("heads %d do not divide width %d" % (heads, d))
    head_dim = d // heads
    scale = 1.0 / math.sqrt(head_dim)
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    out = np.empty((seq_len, d))
    for h in range(heads):
        lo, hi = h * head_dim, (h + 1) * head_dim
        for i in range(seq_len):
            kv_len = i + 1 if causal else seq_len
            qk = np.empty(kv_len)
            for j in range(kv_len):
                qk[j] = np.dot(q[i, lo:hi], k[j, lo:hi]) * scale
            prob = softmax(qk)
            acc = np.zeros(head_dim)
            for j in range(kv_len):
                acc += prob[j] * v[j, lo:hi]
            out[i, lo:hi] = acc
    return out @ p["Wo"] + p["bo"]


def gelu(x):
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(x / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    y = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(y, p["ln2_g"], p["ln2_b"])
    h = gelu(h @ p["W1"] + p["b1"])
    return y + h @ p["W2"] + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
