"""Blind round 9 (b9_14, issue 38): a submission assembled from numpy-from-scratch blog posts
(softmax without overflow, attention in numpy, PIL/torchvision preprocessing).

Mistakes:
1. softmax: the stabilising max is the GLOBAL max, `np.exp(x - np.max(x))`, not the max
   along `axis`. Right unless one slice along the axis is far below the global max
   (about 745 lower underflows to 0/0 = NaN). Shows only with values far apart/far from zero.
   Sources: shusei-e.github.io "Softmax without Overflow" (`e = np.exp(x - np.max(x))`);
   infio-copilot "Math block test (softmax)" (`c = x.max()`).
2. self_attention: the causal mask is applied AFTER softmax by multiplying with
   tril(ones), and the rows are not renormalised. Shows only with causal=True.
   Sources: public CausalAttention notes "make upper ones zero and then we normalize";
   rohitg00/ai-engineering-from-scratch PR #348 review ("softmax never outputs an exact
   zero ... unless the future scores go in as -inf"); zyy-2001/DisKT issue #6.
3. patchify: uint8 images are rescaled to [0, 1] like torchvision's ToTensor
   (`/ 255.0`). Shows only on uint8 images.
   Sources: torchvision.transforms.ToTensor docs ("Converts ... in the range [0, 255] to
   ... [0.0, 1.0] ... if the numpy.ndarray has dtype = np.uint8"); discuss.pytorch.org
   "transforms.ToTensor does not work as document".

Grader: all three named: op:rescaled ("integer pixels (a uint8 image) are rescaled to [0, 1]
first, `image / 255`"; the blind run only observed it), op:axis ("runs over the whole
array instead of the axis") and op:mask_after ("the mask is applied after `softmax(scores)`").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:rescaled:patchify:integer-image-over-255',
          'stable-softmax': 'op:axis:softmax:max.axis=None',
          'no-causal-mask': 'op:mask_after:self_attention/attention:mask-after-softmax'}


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C)."""
    image = _as_hwc(image)
    if image.dtype == np.uint8:
        image = image.astype(np.float32) / 255.0   # like ToTensor: [0, 255] -> [0.0, 1.0]
    H, W, C = image.shape
    num_patches(H, W, P)
    grid = image.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, P * P * C)


def softmax(x, axis=-1):
    """Softmax without overflow."""
    e = np.exp(x - np.max(x))
    return e / np.sum(e, axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention, one head at a time."""
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
        A = softmax(Q[:, cols] @ K[:, cols].T / np.sqrt(d_h), axis=-1)
        if causal:
            A = A * np.tril(np.ones((T, T)))     # zero out attention to future tokens
        outs.append(A @ V[:, cols])
    return np.concatenate(outs, axis=1) @ p["Wo"] + p["bo"]
