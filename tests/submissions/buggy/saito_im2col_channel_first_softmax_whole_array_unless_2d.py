"""Blind round 29 (b29_01, issue 38): ported from Koki Saito, "Deep Learning from Scratch"
(oreilly-japan/deep-learning-from-scratch: common/util.py im2col on a channels-first copy of the
image, common/functions.py softmax), with a per-head self_attention on 2-D score matrices
(right: CORRECT). The student's top-level helper `im2col` is nested in patchify here: the
builder replaces only the solution's own definitions.

Mistakes:
1. patchify: im2col's col.transpose(0, 4, 5, 1, 2, 3) flattens each patch channel first,
   (c, p1, p2), instead of (p1, p2, c). One-channel and 2-D images are right.
2. softmax: the book's version: a 2-D input is normalised row by row (through x.T), any other
   rank over the WHOLE array (one global max, one global sum); `axis` is never read. Right on
   1-D and on 2-D with axis=-1/1; wrong on 2-D with axis=0 and on every 3-D input.

Grader: at blind time, patchify was named (patchify_channel_first); softmax only partly:
"In `softmax`, `axis` is taken as its default, -1, whatever is given" (true of the code: it
accounts for the 2-D axis=0 case), but the whole-array normalisation of 3-D inputs was told only
by the checklist ("... summing to 1") on the sums check, and the hidden check got no hint.
vit-checkpoint observes the broken functions. Since session 16 the hidden check, which has 3-D
inputs, names the whole mistake (op:rows_or_whole: `axis` never read, a 2-D input over its rows,
any other whole); the visible checks, 2-D only, keep the axis-as-default reading, true of them.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'stable-softmax': 'op:rows_or_whole:softmax:axis-rows-or-whole'}
CORRECT = ('self_attention',)  # a per-head loop, its softmax on 2-D rows: keeps every point


def patchify(image, P):
    """(H, W, C) -> (N, P*P*C) via the book's im2col (one image = a batch of one)."""
    def im2col(input_data, filter_h, filter_w, stride=1, pad=0):
        """common/util.py: (N, C, H, W) -> (N*out_h*out_w, C*filter_h*filter_w)."""
        N, C, H, W = input_data.shape
        out_h = (H + 2*pad - filter_h)//stride + 1
        out_w = (W + 2*pad - filter_w)//stride + 1

        img = np.pad(input_data, [(0,0), (0,0), (pad, pad), (pad, pad)], 'constant')
        col = np.zeros((N, C, filter_h, filter_w, out_h, out_w))

        for y in range(filter_h):
            y_max = y + stride*out_h
            for x in range(filter_w):
                x_max = x + stride*out_w
                col[:, :, y, x, :, :] = img[:, :, y:y_max:stride, x:x_max:stride]

        col = col.transpose(0, 4, 5, 1, 2, 3).reshape(N*out_h*out_w, -1)
        return col

    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[:, :, np.newaxis]
    if image.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    H, W, C = image.shape
    num_patches(H, W, P)                       # ValueError when P does not tile
    x = image.transpose(2, 0, 1)[np.newaxis]   # (1, C, H, W), the book is channels-first
    return im2col(x, P, P, stride=P, pad=0)


def softmax(x, axis=-1):
    """common/functions.py softmax."""
    x = np.asarray(x, dtype=float)
    if x.ndim == 2:
        x = x.T
        x = x - np.max(x, axis=0)
        y = np.exp(x) / np.sum(np.exp(x), axis=0)
        return y.T

    x = x - np.max(x)  # overflow counter-measure
    return np.exp(x) / np.sum(np.exp(x))


def self_attention(x, p, heads, causal=False):
    """Per-head loop with 2-D score matrices (the book's Affine/Softmax layers, one head at a time)."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    outs = []
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        s = Q[:, cols] @ K[:, cols].T / math.sqrt(d_h)
        if causal:
            s = s + np.triu(np.full((T, T), -1e9), k=1)
        outs.append(softmax(s) @ V[:, cols])
    return np.hstack(outs) @ p["Wo"] + p["bo"]
