"""Blind round 18 (b18_03, issue 38): patchify and self_attention in the style of the "Vision
Transformer from scratch in numpy" blog posts (loops over the patch grid and the heads into
preallocated buffers).

Mistakes:
1. patchify writes patch (i, j) to row `i * n_h + j` instead of `i * n_w + j`: right on square
   images; on a wide image patches overwrite each other and rows stay zero, on a tall one the index
   runs past the buffer (IndexError).
2. self_attention's head buffers are `[np.zeros((T, d_h))] * heads`, one array listed `heads`
   times: every head block ends up holding the last head's output (right with one head).

Grader: at blind time and now, both observed only: "right when H == W, wrong for a 4 x 6 image"
(only_square_images) and "right with one head, wrong with heads=2" (only_one_head, on
multi-head-attention and no-causal-mask); neither cause named. Not every mistake named.
Since session 15 the flat index is named on patchify (results.flat_index: rows written at
`i * (H // P) + j` where `i * (W // P) + j` belongs); since session 16 the head buffers are
named on both attention exercises (heads.head_buffers: every head's block the last head's).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:flat_index:patchify:rows-strided-by-row-count', 'multi-head-attention': 'op:head_buffers:self_attention:head-buffers-aliased-last-head', 'no-causal-mask': 'op:head_buffers:self_attention:head-buffers-aliased-last-head'}


def patchify(image, P):
    img = np.asarray(image, dtype=float)
    if img.ndim == 2:
        img = img[:, :, np.newaxis]
    if img.ndim != 3:
        raise ValueError("image must be 2-D or 3-D")
    H, W, C = img.shape
    num_patches(H, W, P)
    n_h, n_w = H // P, W // P
    patches = np.zeros((n_h * n_w, P * P * C))
    for i in range(n_h):
        for j in range(n_w):
            patch = img[i * P:(i + 1) * P, j * P:(j + 1) * P, :]
            patches[i * n_h + j] = patch.flatten()
    return patches


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("d must be divisible by the number of heads")
    d_h = d // heads
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    head_outputs = [np.zeros((T, d_h))] * heads
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        scores = Q[:, cols] @ K[:, cols].T / math.sqrt(d_h)
        if causal:
            for i in range(T):
                for j in range(i + 1, T):
                    scores[i, j] = -np.inf
        weights = softmax(scores, axis=-1)
        head_outputs[h][:] = weights @ V[:, cols]
    concat = np.concatenate(head_outputs, axis=1)
    return concat @ p["Wo"] + p["bo"]
