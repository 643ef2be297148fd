"""Blind round 80 (b80_10, issue 38): ported from robin-andreasson/machine-learning
`src/modules/activations.py` (the whole file as delivered); correct: the exact GELU by
`scipy.special.erf`, an in-place relu, and a conv that sums over the kernel offsets strided
slices dotted with `K[a, b]`. It raises ValueError where the solution does, and its counts are
Python ints.

tests/test_catalogue.py requires full marks.

Grader: at blind time (a4b8673f) and now, 110/110.
"""
import numpy as np
from scipy import special

def relu(x):

    x[x < 0] = 0

    return x

def sigmoid(x): 
    return 1 / (1 + np.exp(-x))


def gelu(x):
    return 0.5 * x * (1 + special.erf(x / np.sqrt(2)))


def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("patch size does not divide the image")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    if cls_token:
        return num_patches(H, W, P) + 1
    return num_patches(H, W, P)


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def patchify(image, P):

    x = np.array(image, dtype=float)

    if x.ndim == 2:
        x = x.reshape(x.shape[0], x.shape[1], 1)
    if x.ndim != 3:
        raise ValueError("image has to be 2d or 3d")

    h, w, c = x.shape
    num_patches(h, w, P)

    x = x.reshape(h // P, P, w // P, P, c)
    x = np.swapaxes(x, 1, 2)

    return x.reshape(-1, P * P * c)


def linear_patch_embed(image, W_e, b_e, P):
    return np.dot(patchify(image, P), W_e) + b_e


def conv_patch_embed(image, K, b, stride):

    x = np.array(image, dtype=float)
    if x.ndim == 2:
        x = x.reshape(x.shape[0], x.shape[1], 1)

    h, w, c = x.shape
    k = K.shape[0]

    if k > h or k > w:
        raise ValueError("kernel is bigger than the image")

    out_h = (h - k) // stride + 1
    out_w = (w - k) // stride + 1

    out = np.zeros((out_h, out_w, K.shape[3]))

    for a in range(k):
        for bb in range(k):
            # every kernel position at once
            part = x[a:a + stride * (out_h - 1) + 1:stride, bb:bb + stride * (out_w - 1) + 1:stride, :]
            out += np.dot(part, K[a, bb])

    return out + b


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tokens = np.vstack((params["cls"], tokens))
    return tokens + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def self_attention(x, p, heads, causal=False):

    t, d = x.shape
    if d % heads != 0:
        raise ValueError("d has to be divisible by heads")
    dh = d // heads

    q = np.dot(x, p["Wq"]) + p["bq"]
    k = np.dot(x, p["Wk"]) + p["bk"]
    v = np.dot(x, p["Wv"]) + p["bv"]

    q = q.reshape(t, heads, dh).transpose(1, 0, 2)
    k = k.reshape(t, heads, dh).transpose(1, 0, 2)
    v = v.reshape(t, heads, dh).transpose(1, 0, 2)

    scores = np.matmul(q, k.transpose(0, 2, 1)) / np.sqrt(dh)

    if causal:
        hide = np.triu(np.ones((t, t), dtype=bool), k=1)
        scores[:, hide] = -np.inf

    out = np.matmul(softmax(scores, axis=-1), v)
    out = out.transpose(1, 0, 2).reshape(t, d)

    return np.dot(out, p["Wo"]) + p["bo"]


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    h = gelu(np.dot(h, p["W1"]) + p["b1"])
    return x + np.dot(h, p["W2"]) + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return np.dot(x[0], params["W_head"]) + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}


#x = np.random.uniform(-1, 1, size=(5, 5))
#x = np.ones((5, 5))
#
#print(x)
#
#x = sigmoid(x)
#
#print(x)
