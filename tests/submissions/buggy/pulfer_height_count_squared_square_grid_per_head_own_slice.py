"""Blind round 27 (b27_01, issue 38): num_patches, patchify and self_attention ported from Brian
Pulfer's "Vision Transformers from Scratch (PyTorch): a step-by-step guide"
(BrianPulfer/PapersReimplementations, vit/vit_torch.py: patchify(images, n_patches), which asserts
h == w and counts n_patches per side; MyMSA with one small q/k/v mapping per head).

Mistakes:
1. num_patches counts n = H // P per side and returns n ** 2, testing only H % P: wrong on
   non-square images, and a width P does not tile is not refused.
2. patchify builds an n x n grid with n = h // P: wrong on non-square images (too few patches,
   or an error).
3. self_attention maps each head's own d_h-wide slice of the token with the diagonal d_h x d_h
   block of Wq / Wk / Wv (a block-diagonal projection), instead of slicing the columns of the
   full projection: right with one head only.

Grader: at blind time and now, (1) named: `W // P` reading `H`, a copy of its sibling term, on
patch-count (with the observation that only a height P does not tile is refused); (2) and (3) not
named: patchify observed as right when H == W only, self_attention as right with one head only
(a list of the steps that depend on the number of heads); vit-checkpoint observes the broken
functions.
Since session 15 (3) is named on multi-head-attention and no-causal-mask (each head's q, k, v from
its own slice of the token with the diagonal block of the weights); (2) is still only observed.
Since session 16 (2) is named too (grids.square: the grid counted n x n from the height, as
Pulfer's `n_patches = h // patch_size`), so every mistake is named: moved to buggy/. (1)'s
height-only test is named too, with the sibling, on the hidden refusal check
(`op:tiling:num_patches:height-only+op:sibling:num_patches:W-as-H`).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'patchify': 'op:square_grid:patchify:columns-counted-from-H',
          'no-causal-mask': 'op:own_slices:self_attention:heads-own-slices',
          'multi-head-attention': 'op:own_slices:self_attention:heads-own-slices'}


def num_patches(H, W, P):
    """Number of patches: the tutorial's n_patches is per side (7 x 7 for MNIST)."""
    if P <= 0 or H % P:
        raise ValueError(f"Input shape not entirely divisible by number of patches ({H}, {P})")
    n_patches = H // P
    return n_patches ** 2


def patchify(image, P):
    """Pulfer's patchify, for one image, channels last."""
    image = _as_hwc(image)
    h, w, c = image.shape
    if h % P or w % P:
        raise ValueError("Patchify method is implemented for square images only")
    n_patches = h // P
    patches = np.zeros((n_patches ** 2, P * P * c))
    for i in range(n_patches):
        for j in range(n_patches):
            patch = image[i * P: (i + 1) * P, j * P: (j + 1) * P, :]
            patches[i * n_patches + j] = patch.flatten()
    return patches


def self_attention(x, p, heads, causal=False):
    """MyMSA: every head has its own q/k/v mapping applied to its own chunk of the token."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"Can't divide dimension {d} into {heads} heads")
    d_head = d // heads
    result = []
    for head in range(heads):
        cols = slice(head * d_head, (head + 1) * d_head)
        seq = x[:, cols]
        q = seq @ p["Wq"][cols, cols] + p["bq"][cols]
        k = seq @ p["Wk"][cols, cols] + p["bk"][cols]
        v = seq @ p["Wv"][cols, cols] + p["bv"][cols]
        attention = q @ k.T / (d_head ** 0.5)
        if causal:
            attention = attention + np.triu(np.full((T, T), -np.inf), 1)
        attention = softmax(attention, axis=-1)
        result.append(attention @ v)
    return np.hstack(result) @ p["Wo"] + p["bo"]
