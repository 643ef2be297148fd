"""Blind round 63 (b63_09, issue 38): a CORRECT port in an unusual style (must get full marks),
after pytorch/glow's libjit `lib/LLVMIRCodeGen/libjit/libjit_conv.cpp` (libjit_conv2d_f, NHWC
loops with x / y stride counters), `libjit.cpp` (libjit_softmax_f, libjit_layernorm_f,
libjit_matmul_f) and `lib/Backends/Interpreter/InterpreterNodes.cpp` (fwdBatchMatMulInst):
explicit C-style loops everywhere: the convolution, a per-row softmax, a per-row layer norm, a
loop matmul, attention query by query.

tests/test_catalogue.py requires full marks.

No mistakes (the key's check also ran extra random trials against the solution: patchify and the
convolution on random sizes, channels, kernels and strides; heads 1, 2 and 4 with and without the
causal mask; softmax along axes 0, 1 and -1 at scale 300; layer_norm on 3-D and 1-D input).

Grader: full marks at blind time (edc81c9a, 110/110) and now.
"""
import math
import numpy as np


def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("patch size does not divide the image")
    count = 0
    for _ in range(0, H, P):
        for _ in range(0, W, P):
            count += 1
    return count


def num_tokens(H, W, P, cls_token=True):
    n = num_patches(H, W, P)
    return n + 1 if cls_token else n


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _dims(image):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image.reshape(image.shape[0], image.shape[1], 1)
    if image.ndim != 3:
        raise ValueError("expected a 2-D or 3-D image")
    return image


def patchify(image, P):
    inW = _dims(image)
    H, W, C = inW.shape
    num_patches(H, W, P)
    outW = np.empty(((H // P) * (W // P), P * P * C), dtype=inW.dtype)
    n = 0
    for py in range(H // P):
        for px in range(W // P):
            idx = 0
            for fy in range(P):
                for fx in range(P):
                    for c in range(C):
                        outW[n, idx] = inW[py * P + fy, px * P + fx, c]
                        idx += 1
            n += 1
    return outW


def _matmul(lhs, rhs):
    # libjit_matmul_f: C[m, n] = sum_k A[m, k] * B[k, n]
    lhs = np.asarray(lhs, dtype=float)
    rhs = np.asarray(rhs, dtype=float)
    m, k = lhs.shape
    k2, n = rhs.shape
    assert k == k2
    out = np.zeros((m, n))
    for i in range(m):
        for kk in range(k):
            out[i, :] += lhs[i, kk] * rhs[kk, :]
    return out


def linear_patch_embed(image, W_e, b_e, P):
    return _matmul(patchify(image, P), W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    inW = _dims(image)
    inH, inWd, inC = inW.shape
    k = K.shape[0]
    outC = K.shape[3]
    if k > inH or k > inWd:
        raise ValueError("kernel larger than the input")
    outH = (inH - k) // stride + 1
    outWd = (inWd - k) // stride + 1
    outV = np.zeros((outH, outWd, outC))
    for d in range(outC):
        x = 0
        for ax in range(outH):
            y = 0
            for ay in range(outWd):
                s = 0.0
                for fx in range(k):
                    for fy in range(k):
                        for fd in range(inC):
                            s += float(inW[x + fx, y + fy, fd]) * float(K[fx, fy, fd, d])
                outV[ax, ay, d] = s + float(b[d])
                y += stride
            x += stride
    return outV


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    d = tokens.shape[1]
    out = np.empty((tokens.shape[0] + 1, d))
    out[0] = params["cls"]
    out[1:] = tokens
    return out + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    moved = np.moveaxis(x, axis, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    res = np.empty_like(flat)
    for n in range(flat.shape[0]):
        maxVal = flat[n, 0]
        for i in range(1, flat.shape[1]):
            maxVal = max(maxVal, flat[n, i])
        s = 0.0
        for i in range(flat.shape[1]):
            e = math.exp(flat[n, i] - maxVal)
            s += e
            res[n, i] = e
        for i in range(flat.shape[1]):
            res[n, i] = res[n, i] / s
    return np.moveaxis(res.reshape(moved.shape), -1, axis)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    flat = x.reshape(-1, x.shape[-1])
    out = np.empty_like(flat)
    N = flat.shape[1]
    for r in range(flat.shape[0]):
        mean = 0.0
        for i in range(N):
            mean += flat[r, i]
        mean /= N
        var = 0.0
        for i in range(N):
            var += (flat[r, i] - mean) * (flat[r, i] - mean)
        var /= N
        inv = 1.0 / math.sqrt(var + eps)
        for i in range(N):
            out[r, i] = (flat[r, i] - mean) * inv * gamma[i] + beta[i]
    return out.reshape(x.shape)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("heads must divide the model width")
    dh = d // heads
    q = _matmul(x, p["Wq"]) + p["bq"]
    k = _matmul(x, p["Wk"]) + p["bk"]
    v = _matmul(x, p["Wv"]) + p["bv"]
    out = np.zeros((T, d))
    scale = 1.0 / math.sqrt(dh)
    for h in range(heads):
        off = h * dh
        for i in range(T):
            scores = np.empty(T)
            for j in range(T):
                acc = 0.0
                for c in range(dh):
                    acc += q[i, off + c] * k[j, off + c]
                scores[j] = acc * scale
            if causal:
                scores[i + 1:] = -np.inf
            w = softmax(scores)
            for j in range(T):
                out[i, off:off + dh] += w[j] * v[j, off:off + dh]
    return _matmul(out, p["Wo"]) + p["bo"]


def _gelu(x):
    x = np.asarray(x, dtype=float)
    out = np.empty_like(x)
    for i, val in np.ndenumerate(x):
        out[i] = 0.5 * val * (1.0 + math.erf(val / math.sqrt(2.0)))
    return out


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    h = _gelu(_matmul(h, p["W1"]) + p["b1"])
    return x + _matmul(h, p["W2"]) + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return _matmul(x[0:1], params["W_head"])[0] + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
