"""A correct submission (blind round 21, b21_12, issue 38) in an unusual style: Karpathy's
micrograd and its "from scratch" ports (micrograd/nn.py: Neuron, Layer, MLP with __call__,
lists of numbers walked with zip and sum, parameters()), numpy only at the edges: tokens are
Python lists of floats inside and come back as numpy arrays; per-token and per-neuron loops,
explicit index walks for patches and windows, a math.exp softmax along any axis via np.moveaxis.

tests/test_catalogue.py requires full marks.

Blind round 21 (b21_12, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
"""
import math

import numpy as np


def num_patches(H, W, P):
    if P <= 0 or H % P or W % P:
        raise ValueError(f"{P}x{P} patches do not tile a {H}x{W} image")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _as_hwc(image):
    image = np.asarray(image)
    if image.ndim == 2:
        return image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    return image


def patchify(image, P):
    img = _as_hwc(image)
    H, W, C = img.shape
    num_patches(H, W, P)
    out = []
    for gi in range(H // P):
        for gj in range(W // P):
            vec = []
            for r in range(P):
                for c in range(P):
                    vec.extend(img[gi * P + r, gj * P + c, :].tolist())
            out.append(vec)
    return np.array(out, dtype=img.dtype).reshape(-1, P * P * C)


class Layer:
    """y = x @ W + b, one neuron per output column."""

    def __init__(self, W, b):
        self.W = np.asarray(W, dtype=float)
        self.b = np.asarray(b, dtype=float)

    def __call__(self, xs):
        cols = self.W.T  # one weight vector per neuron
        return [[float(np.dot(w, x)) + bi for w, bi in zip(cols, self.b)] for x in xs]


def linear_patch_embed(image, W_e, b_e, P):
    return np.array(Layer(W_e, b_e)(patchify(image, P).astype(float)))


def conv_patch_embed(image, K, b, stride):
    img = _as_hwc(image).astype(float)
    H, W, C = img.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"a {k}x{k} kernel does not fit a {H}x{W} image")
    Ho = (H - k) // stride + 1
    Wo = (W - k) // stride + 1
    d = K.shape[-1]
    neurons = [np.asarray(K[..., o], dtype=float).ravel() for o in range(d)]
    out = []
    for i in range(Ho):
        row = []
        for j in range(Wo):
            win = img[i * stride:i * stride + k, j * stride:j * stride + k, :].ravel()
            row.append([float(np.dot(w, win)) + float(bo) for w, bo in zip(neurons, np.asarray(b, dtype=float))])
        out.append(row)
    return np.array(out, dtype=float).reshape(Ho, Wo, d)


def conv_equivalent(P):
    kernel_size, stride = P, P
    return kernel_size, stride


def embed_image(image, params):
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"]).tolist()
    seq = [list(map(float, params["cls"]))] + patches
    return np.array(seq) + np.asarray(params["pos"], dtype=float)


def _softmax_list(v):
    m = max(v)
    exps = [math.exp(a - m) if a != -math.inf else 0.0 for a in v]
    s = sum(exps)
    if s == 0.0 or s != s:
        return [math.nan for _ in v]
    return [e / s for e in exps]


def softmax(x, axis=-1):
    arr = np.asarray(x, dtype=float)
    if arr.ndim == 0:
        return np.ones_like(arr)
    moved = np.moveaxis(arr, axis, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    out = np.array([_softmax_list(row.tolist()) for row in flat]).reshape(moved.shape)
    return np.moveaxis(out, -1, axis)


def _ln_row(v, g, bt, eps):
    n = len(v)
    mu = sum(v) / n
    var = sum((a - mu) ** 2 for a in v) / n
    inv = 1.0 / math.sqrt(var + eps)
    return [(a - mu) * inv * gi + bi for a, gi, bi in zip(v, g, bt)]


def layer_norm(x, gamma, beta, eps=1e-6):
    arr = np.asarray(x, dtype=float)
    d = arr.shape[-1]
    g = np.broadcast_to(np.asarray(gamma, dtype=float), (d,)).tolist()
    bt = np.broadcast_to(np.asarray(beta, dtype=float), (d,)).tolist()
    flat = arr.reshape(-1, d)
    out = [_ln_row(row.tolist(), g, bt, eps) for row in flat]
    return np.array(out, dtype=float).reshape(arr.shape)


def self_attention(x, p, heads, causal=False):
    x = np.asarray(x, dtype=float)
    T, d = x.shape
    if d % heads:
        raise ValueError(f"{heads} heads do not divide width {d}")
    dh = d // heads
    Q = np.array(Layer(p["Wq"], p["bq"])(x))
    K = np.array(Layer(p["Wk"], p["bk"])(x))
    V = np.array(Layer(p["Wv"], p["bv"])(x))
    scale = 1.0 / math.sqrt(dh)
    concat = [[0.0] * d for _ in range(T)]
    for h in range(heads):
        lo, hi = h * dh, (h + 1) * dh
        for i in range(T):
            qi = Q[i, lo:hi]
            visible = list(range(i + 1)) if causal else list(range(T))
            scores = [float(np.dot(qi, K[j, lo:hi])) * scale for j in visible]
            att = _softmax_list(scores)
            head_out = sum(w * V[j, lo:hi] for w, j in zip(att, visible))
            concat[i][lo:hi] = list(head_out)
    return np.array(Layer(p["Wo"], p["bo"])(concat))


def gelu(x):
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(x / math.sqrt(2.0)))


class MLP:
    def __init__(self, p):
        self.fc1 = Layer(p["W1"], p["b1"])
        self.fc2 = Layer(p["W2"], p["b2"])

    def __call__(self, xs):
        h = gelu(np.array(self.fc1(xs)))
        return np.array(self.fc2(h))


def encoder_block(x, p, heads):
    x = np.asarray(x, dtype=float)
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    return x + MLP(p)(layer_norm(x, p["ln2_g"], p["ln2_b"]))


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    cls = x[0:1]
    return np.array(Layer(params["W_head"], params["b_head"])(cls))[0]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
