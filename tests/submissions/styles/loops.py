"""A correct submission written with explicit Python loops (what a careful beginner writes).

tests/test_catalogue.py requires full marks: slow loops, plain lists and math.erf are fine.
"""
import math

import numpy as np


def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError("the patches do not tile the image")
    count = 0
    for row in range(0, H, P):
        for col in range(0, W, P):
            count += 1
    return count


def num_tokens(H, W, P, cls_token=True):
    n = num_patches(H, W, P)
    if cls_token:
        n += 1
    return n


def patch_dim(P, C=3):
    total = 0
    for _ in range(P):
        for _ in range(P):
            total += C
    return total


def attention_scores(num_tokens):
    scores = 0
    for _ in range(num_tokens):
        scores += num_tokens
    return scores


def patchify(image, P):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, np.newaxis]
    if image.ndim != 3:
        raise ValueError("an image is 2-D or 3-D")
    H, W, C = image.shape
    num_patches(H, W, P)
    rows = []
    for top in range(0, H, P):
        for left in range(0, W, P):
            flat = []
            for i in range(P):
                for j in range(P):
                    for c in range(C):
                        flat.append(image[top + i, left + j, c])
            rows.append(flat)
    return np.array(rows, dtype=image.dtype).reshape(len(rows), P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    patches = patchify(image, P)
    N, D = patches.shape
    d = W_e.shape[1]
    out = np.zeros((N, d))
    for n in range(N):
        for o in range(d):
            total = b_e[o]
            for i in range(D):
                total += patches[n, i] * W_e[i, o]
            out[n, o] = total
    return out


def conv_patch_embed(image, K, b, stride):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    H, W, C = image.shape
    k, _, _, d = K.shape
    if k > H or k > W:
        raise ValueError("kernel larger than the image")
    out_h = (H - k) // stride + 1
    out_w = (W - k) // stride + 1
    out = np.zeros((out_h, out_w, d))
    for i in range(out_h):
        for j in range(out_w):
            window = image[i * stride:i * stride + k, j * stride:j * stride + k, :]
            for o in range(d):
                out[i, j, o] = np.sum(window * K[:, :, :, o]) + b[o]
    return out


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    rows = [params["cls"]] + [tokens[n] for n in range(len(tokens))]
    out = np.array(rows, dtype=float)
    for t in range(len(out)):
        out[t] = out[t] + params["pos"][t]
    return out


def _softmax_list(values):
    top = max(values)
    exps = [math.exp(v - top) for v in values]
    total = sum(exps)
    return [e / total for e in exps]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    moved = np.moveaxis(x, axis, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    out = np.array([_softmax_list(list(row)) for row in flat]).reshape(moved.shape)
    return np.moveaxis(out, -1, axis)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    flat = x.reshape(-1, x.shape[-1])
    out = np.zeros_like(flat)
    d = flat.shape[1]
    for r in range(len(flat)):
        mean = sum(flat[r]) / d
        var = sum((v - mean) ** 2 for v in flat[r]) / d
        for i in range(d):
            out[r, i] = (flat[r, i] - mean) / math.sqrt(var + eps) * gamma[i] + beta[i]
    return out.reshape(x.shape)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("heads must divide d")
    d_h = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    merged = np.zeros((T, d))
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        for i in range(T):
            visible = range(i + 1) if causal else range(T)
            scores = [float(q[i, cols] @ k[j, cols]) / math.sqrt(d_h) for j in visible]
            weights = _softmax_list(scores)
            for w, j in zip(weights, visible):
                merged[i, cols] += w * v[j, cols]
    return merged @ p["Wo"] + p["bo"]


def gelu(x):
    out = np.zeros_like(x, dtype=float)
    for idx, value in np.ndenumerate(x):
        out[idx] = 0.5 * value * (1 + math.erf(value / math.sqrt(2)))
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
    cls_row = x[0]
    return cls_row @ params["W_head"] + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
