"""A correct submission (blind round 20, b20_06, issue 38) in an unusual style: karpathy/llm.c
(train_gpt2.c, the CPU reference): explicit loops over tokens t, heads h and channels with flat
offsets, layernorm_forward with m, v and s = 1/sqrtf(v + eps), attention_forward with preatt / att
buffers, maxval, expsum and expsum_inv, encoder_forward adding the position rows, and
residual_forward as its own function; float32 dtypes kept as the solution keeps them.

tests/test_catalogue.py requires full marks.

Blind round 20 (b20_06, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
"""
import math

import numpy as np


def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("patch size must tile the image")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    T = num_patches(H, W, P)
    if cls_token:
        T += 1
    return T


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    T = num_tokens
    return T * T


def _hwc(image):
    inp = np.asarray(image)
    if inp.ndim == 2:
        inp = inp.reshape(inp.shape[0], inp.shape[1], 1)
    if inp.ndim != 3:
        raise ValueError("image must be 2-D or 3-D")
    return inp


def patchify(image, P):
    inp = _hwc(image)
    H, W, C = inp.shape
    N = num_patches(H, W, P)
    gw = W // P
    out = np.empty((N, P * P * C), dtype=inp.dtype)
    for n in range(N):
        py, px = n // gw, n % gw             # raster order over the grid
        idx = 0
        for i in range(P):
            for j in range(P):
                for c in range(C):
                    out[n, idx] = inp[py * P + i, px * P + j, c]
                    idx += 1
    return out


def linear_patch_embed(image, W_e, b_e, P):
    patches = patchify(image, P)
    N = patches.shape[0]
    OC = W_e.shape[1]
    out = np.empty((N, OC))
    for n in range(N):
        out[n] = b_e + patches[n] @ W_e      # matmul_forward: out = bias + inp . weight
    return out


def conv_patch_embed(image, K, b, stride):
    inp = _hwc(image)
    H, W, C = inp.shape
    k = K.shape[0]
    OC = K.shape[3]
    if k > H or k > W:
        raise ValueError("kernel larger than image")
    Ho = (H - k) // stride + 1
    Wo = (W - k) // stride + 1
    wflat = K.reshape(k * k * C, OC)
    out = np.empty((Ho, Wo, OC), dtype=np.result_type(inp.dtype, K.dtype, b, np.float32))
    for oy in range(Ho):
        for ox in range(Wo):
            y0, x0 = oy * stride, ox * stride
            out[oy, ox] = b + inp[y0:y0 + k, x0:x0 + k, :].reshape(-1) @ wflat
    return out


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    tok = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    N, C = tok.shape
    wpe = params["pos"]
    out = np.empty((N + 1, C))
    out[0] = params["cls"] + wpe[0]
    for t in range(1, N + 1):
        out[t] = tok[t - 1] + wpe[t]         # encoder_forward: token row + position row
    return out


def softmax(x, axis=-1):
    x = np.asarray(x)
    xm = np.moveaxis(x, axis, -1)
    flat = xm.reshape(-1, xm.shape[-1])
    probs = np.empty(flat.shape, dtype=np.result_type(flat.dtype, np.float32))
    for r in range(flat.shape[0]):
        maxval = flat[r].max()
        e = np.exp(flat[r] - maxval)
        expsum = e.sum()
        probs[r] = e * (1.0 / expsum)
    return np.moveaxis(probs.reshape(xm.shape), -1, axis)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x)
    C = x.shape[-1]
    flat = x.reshape(-1, C)
    out = np.empty(flat.shape, dtype=np.result_type(flat.dtype, gamma, beta, np.float32))
    for r in range(flat.shape[0]):
        m = flat[r].sum() / C
        xshift = flat[r] - m
        v = (xshift * xshift).sum() / C
        s = 1.0 / math.sqrt(v + eps)
        out[r] = s * xshift * gamma + beta
    return out.reshape(x.shape)


def self_attention(x, p, heads, causal=False):
    T, C = x.shape
    NH = heads
    if C % NH != 0:
        raise ValueError("channels must be divisible by heads")
    hs = C // NH
    scale = 1.0 / math.sqrt(hs)
    q_all = x @ p["Wq"] + p["bq"]
    k_all = x @ p["Wk"] + p["bk"]
    v_all = x @ p["Wv"] + p["bv"]
    out = np.zeros((T, C))
    for t in range(T):
        for h in range(NH):
            query_t = q_all[t, h * hs:(h + 1) * hs]
            t2_end = t + 1 if causal else T
            # pass 1: preatt and maxval
            preatt = k_all[:t2_end, h * hs:(h + 1) * hs] @ query_t * scale
            maxval = preatt.max()
            # pass 2: exp and sum
            att = np.exp(preatt - maxval)
            expsum = att.sum()
            expsum_inv = 0.0 if expsum == 0.0 else 1.0 / expsum
            att = att * expsum_inv
            # pass 4: weighted values
            out[t, h * hs:(h + 1) * hs] = att @ v_all[:t2_end, h * hs:(h + 1) * hs]
    return out @ p["Wo"] + p["bo"]


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def _residual_forward(inp1, inp2):
    return inp1 + inp2


def encoder_block(x, p, heads):
    ln1 = layer_norm(x, p["ln1_g"], p["ln1_b"])
    atty = self_attention(ln1, p, heads)
    residual2 = _residual_forward(x, atty)
    ln2 = layer_norm(residual2, p["ln2_g"], p["ln2_b"])
    fch = ln2 @ p["W1"] + p["b1"]
    fch_gelu = gelu(fch)
    fcproj = fch_gelu @ p["W2"] + p["b2"]
    return _residual_forward(residual2, fcproj)


def vit_forward(image, params):
    residual = embed_image(image, params)
    for l in range(len(params["blocks"])):
        residual = encoder_block(residual, params["blocks"][l], params["heads"])
    lnf = layer_norm(residual, params["ln_g"], params["ln_b"])
    return lnf[0] @ params["W_head"] + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
