"""Blind round 62 (b62_05, issue 38): a CORRECT port in an unusual style (must get full marks),
after tensorflow/tflite-micro `tensorflow/lite/kernels/internal/reference/conv.h` (Conv, float:
out_y / out_x / out_channel / filter_y / filter_x / in_channel loops, padding VALID) and
`.../reference/softmax.h` (Softmax, float): explicit C++-style loops throughout; patchify by
loops over (py, px, y, x, c); softmax row by row after `np.moveaxis(x, axis, -1)`, with a
running max and sum; a per-row loop layer norm; attention scores by per-head (i, j) loops with
the causal entries set to -inf; GELU element by element with `np.ndenumerate`.

tests/test_catalogue.py requires full marks.

No mistakes (the key's check also ran extra trials: uint8 images, 2-D and non-square, for
patchify and the convolution; a 4-D layer_norm; softmax along axes 0 and 2 and near 5000; heads
1, 6 and 12 with and without the causal mask; refusals of widths heads do not divide and of
sizes that do not tile).

Grader: full marks at blind time (90d6c97e, 110/110) and now.
"""
import math

import numpy as np


def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("patch size must tile the image")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    if cls_token:
        return num_patches(H, W, P) + 1
    return num_patches(H, W, P)


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _hwc(image):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    return image


def patchify(image, P):
    input_data = _hwc(image)
    input_height, input_width, input_depth = input_data.shape
    num_patches(input_height, input_width, P)
    out = []
    for py in range(input_height // P):
        for px in range(input_width // P):
            flat = []
            for y in range(P):
                for x in range(P):
                    for c in range(input_depth):
                        flat.append(input_data[py * P + y, px * P + x, c])
            out.append(flat)
    return np.array(out, dtype=float)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    """reference_ops::Conv with padding VALID, dilation 1, NHWC input, HWIO kernel."""
    input_data = _hwc(image)
    input_height, input_width, input_depth = input_data.shape
    filter_height, filter_width, _, output_depth = K.shape
    if filter_height > input_height or filter_width > input_width:
        raise ValueError("filter larger than input")
    stride_height = stride_width = stride
    output_height = (input_height - filter_height) // stride_height + 1
    output_width = (input_width - filter_width) // stride_width + 1
    output_data = np.zeros((output_height, output_width, output_depth))
    for out_y in range(output_height):
        in_y_origin = out_y * stride_height
        for out_x in range(output_width):
            in_x_origin = out_x * stride_width
            for out_channel in range(output_depth):
                total = 0.0
                for filter_y in range(filter_height):
                    in_y = in_y_origin + filter_y
                    for filter_x in range(filter_width):
                        in_x = in_x_origin + filter_x
                        for in_channel in range(input_depth):
                            input_value = input_data[in_y, in_x, in_channel]
                            filter_value = K[filter_y, filter_x, in_channel, out_channel]
                            total += input_value * filter_value
                bias_value = b[out_channel]
                output_data[out_y, out_x, out_channel] = total + bias_value
    return output_data


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    seq = np.zeros((patches.shape[0] + 1, patches.shape[1]))
    seq[0] = params["cls"]
    seq[1:] = patches
    return seq + params["pos"]


def softmax(x, axis=-1):
    """reference_ops::Softmax (beta = 1) on the given axis, moved last."""
    x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
    output_data = np.empty_like(x)
    depth = x.shape[-1]
    flat_in = x.reshape(-1, depth)
    flat_out = output_data.reshape(-1, depth)
    for i in range(flat_in.shape[0]):
        max_val = -np.inf
        for c in range(depth):
            max_val = max(max_val, flat_in[i, c])
        sum_val = 0.0
        for c in range(depth):
            exp_c = math.exp(flat_in[i, c] - max_val) if flat_in[i, c] != -np.inf else 0.0
            flat_out[i, c] = exp_c
            sum_val += exp_c
        for c in range(depth):
            flat_out[i, c] = flat_out[i, c] / sum_val
    return np.moveaxis(flat_out.reshape(x.shape), -1, axis)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    depth = x.shape[-1]
    flat = x.reshape(-1, depth)
    out = np.empty_like(flat)
    for i in range(flat.shape[0]):
        mean = 0.0
        for c in range(depth):
            mean += flat[i, c]
        mean /= depth
        var = 0.0
        for c in range(depth):
            var += (flat[i, c] - mean) ** 2
        var /= depth
        inv = 1.0 / math.sqrt(var + eps)
        for c in range(depth):
            out[i, c] = (flat[i, c] - mean) * inv * gamma[c] + beta[c]
    return out.reshape(x.shape)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("heads must divide the width")
    d_h = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    concat = np.zeros((T, d))
    for h in range(heads):
        lo, hi = h * d_h, (h + 1) * d_h
        scores = np.zeros((T, T))
        for i in range(T):
            for j in range(T):
                if causal and j > i:
                    scores[i, j] = -np.inf
                else:
                    scores[i, j] = np.dot(q[i, lo:hi], k[j, lo:hi]) / math.sqrt(d_h)
        weights = softmax(scores, axis=-1)
        concat[:, lo:hi] = weights @ v[:, lo:hi]
    return concat @ p["Wo"] + p["bo"]


def gelu(x):
    x = np.asarray(x, dtype=float)
    out = np.empty_like(x)
    for idx, val in np.ndenumerate(x):
        out[idx] = 0.5 * val * (1.0 + math.erf(val / math.sqrt(2.0)))
    return out


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    hidden = gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"])
    return x + hidden @ p["W2"] + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
