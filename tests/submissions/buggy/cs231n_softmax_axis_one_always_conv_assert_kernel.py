"""Blind round 17 (b17_11, issue 38): softmax and conv_patch_embed written in the style of the
Stanford CS231n assignments (softmax_loss's `shifted_logits`, conv_forward_naive's HH/WW/F and its
`assert`).

Mistakes:
1. softmax always normalises over axis 1 and ignores `axis`: right for 2-D input with the default
   axis, wrong for axis=0 and for other numbers of dimensions.
2. conv_patch_embed guards the kernel size with `assert HH <= H and WW <= W`: AssertionError, not
   ValueError, when the kernel is larger than the image.
self_attention is the student's too (CORRECT): it flattens the scores to (heads * T, T) before
calling softmax, so that the student's softmax sees 2-D input there and vit-checkpoint keeps full
marks, as it did in the student's file.

Grader: at blind time and now, the axis is named (max and sum over axis 1 instead of `axis`, one
slip at 2 places); the assert is told exactly, but as an observation with no mistake name ("Your
code refused the input with `assert` (AssertionError), where ValueError is asked for"), so in
unnamed/ (buggy/ needs a name for every mistake).
Since session 15 an `assert` where ValueError is asked for is a named mistake (refused_with_assert: the worker sees the AssertionError): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=1+op:axis:softmax:sum.axis=1',
          'kernel-stride': 'refused_with_assert'}
CORRECT = ('self_attention',)


def conv_patch_embed(image, K, b, stride):
    """cs231n conv_forward_naive, channels-last, one image; the size guard an assert."""
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, np.newaxis]
    H, W, C = x.shape
    HH, WW, _, F = K.shape
    assert HH <= H and WW <= W, "Filter larger than input"
    H_out = 1 + (H - HH) // stride
    W_out = 1 + (W - WW) // stride
    out = np.zeros((H_out, W_out, F))
    for f in range(F):
        for i in range(H_out):
            for j in range(W_out):
                h1 = i * stride
                w1 = j * stride
                window = x[h1:h1 + HH, w1:w1 + WW, :]
                out[i, j, f] = np.sum(window * K[:, :, :, f]) + b[f]
    return out


def softmax(x, axis=-1):
    """cs231n softmax_loss's probabilities, for an (N, C) score matrix: always over axis 1."""
    shifted_logits = x - np.max(x, axis=1, keepdims=True)
    Z = np.sum(np.exp(shifted_logits), axis=1, keepdims=True)
    log_probs = shifted_logits - np.log(Z)
    probs = np.exp(log_probs)
    return probs


def self_attention(x, p, heads, causal=False):
    N, D = x.shape
    if D % heads != 0:
        raise ValueError("D must be divisible by heads")
    H = heads
    Dh = D // H
    Q = (x.dot(p["Wq"]) + p["bq"]).reshape(N, H, Dh).transpose(1, 0, 2)
    K = (x.dot(p["Wk"]) + p["bk"]).reshape(N, H, Dh).transpose(1, 0, 2)
    V = (x.dot(p["Wv"]) + p["bv"]).reshape(N, H, Dh).transpose(1, 0, 2)
    scores = np.matmul(Q, K.transpose(0, 2, 1))
    scores = scores / math.sqrt(Dh)
    if causal:
        mask = np.tril(np.ones((N, N)))
        scores = np.where(mask == 0, -np.inf, scores)
    scores = scores.reshape(H * N, N)
    A = softmax(scores).reshape(H, N, N)
    Y = np.matmul(A, V).transpose(1, 0, 2).reshape(N, D)
    return Y.dot(p["Wo"]) + p["bo"]
