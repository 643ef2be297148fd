"""Blind round 29 (b29_12, issue 38): ported from Chainer (chainer/utils/conv.py get_conv_outsize
/ im2col_cpu, F.softmax(x, axis=1)); self_attention passes axis=2 explicitly and is right
(CORRECT). The student's top-level helpers `get_conv_outsize` and `im2col_cpu` are nested in
conv_patch_embed here: the builder replaces only the solution's own definitions.

Mistakes:
1. conv_patch_embed: im2col with cover_all=True (copied from a max_pooling_2d call): the output
   size is (H - k + s - 1) // s + 1 and the extra window reads zero padding. Right when H - k
   and W - k are multiples of the stride; one extra row/column otherwise.
2. softmax: Chainer's default axis=1 kept in the signature. Right for 2-D inputs; wrong for
   3-D inputs called without axis and for 1-D inputs (AxisError).

Grader: at blind time and now, named: "the image is zero-padded to ceil((H - k) / stride) + 1
outputs (a pooling's ceil_mode)" on kernel-stride; "`axis` defaults to 1 (`axis=1` in the
signature)" on stable-softmax. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:padding:conv_patch_embed:pad-ceil',
          'stable-softmax': 'op:default_flipped:softmax:axis-defaults-1'}
CORRECT = ('self_attention',)  # names its softmax axis, 2: keeps every point


def conv_patch_embed(image, K, b, stride):
    """F.convolution_2d(x, W, b, stride=stride, pad=0) on an NCHW copy, back to (H', W', d)."""
    def get_conv_outsize(size, k, s, p, cover_all=False, d=1):
        dk = k + (k - 1) * (d - 1)
        if cover_all:
            return (size + p * 2 - dk + s - 1) // s + 1
        else:
            return (size + p * 2 - dk) // s + 1

    def im2col_cpu(img, kh, kw, sy, sx, ph, pw, pval=0, cover_all=False):
        n, c, h, w = img.shape
        out_h = get_conv_outsize(h, kh, sy, ph, cover_all)
        out_w = get_conv_outsize(w, kw, sx, pw, cover_all)
        img = np.pad(img, ((0, 0), (0, 0), (ph, ph + sy - 1), (pw, pw + sx - 1)),
                     mode='constant', constant_values=(pval,))
        col = np.ndarray((n, c, kh, kw, out_h, out_w), dtype=img.dtype)
        for j in range(kh):
            j_lim = j + sy * out_h
            for i in range(kw):
                i_lim = i + sx * out_w
                col[:, :, j, i, :, :] = img[:, :, j:j_lim:sy, i:i_lim:sx]
        return col

    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[:, :, None]
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    x = image.transpose(2, 0, 1)[None]
    col = im2col_cpu(x, k, k, stride, stride, 0, 0, cover_all=True)     # (1, C, k, k, oh, ow)
    y = np.tensordot(col, K.transpose(2, 0, 1, 3), ((1, 2, 3), (0, 1, 2)))  # (1, oh, ow, d)
    return y[0] + b


def softmax(x, axis=1):
    """chainer.functions.softmax(x, axis=1)."""
    x = np.asarray(x, dtype=float)
    y = x - x.max(axis=axis, keepdims=True)
    y = np.exp(y)
    y /= y.sum(axis=axis, keepdims=True)
    return y


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q, k, v = [(x @ p["W" + n] + p["b" + n]).reshape(T, heads, d_h).transpose(1, 0, 2) for n in "qkv"]
    scores = np.matmul(q, k.transpose(0, 2, 1)) * (d_h ** -0.5)      # F.matmul(q, k, transb=True)
    if causal:
        scores = np.where(np.tri(T, dtype=bool)[None], scores, -np.inf)
    attn = softmax(scores, axis=2)
    out = np.matmul(attn, v).transpose(1, 0, 2).reshape(T, d)
    return out @ p["Wo"] + p["bo"]
