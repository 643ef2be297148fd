"""Blind round 37 (b37_01, issue 38): akshathmangudi/Re-Implementation (utils/methods.py
patchify(images, n_patches), utils/classes.py MSA, models/vit.py ViTClassifier).

Mistakes:
1. `num_patches`: n_patches = H // P per side, returned squared (the source asserts square
   images): W is ignored. Wrong only on non-square images.
2. `patchify`: loops i, j over range(H // P) for both axes, rows of width h*w*c // n**2: a
   non-square image raises ValueError (a broadcast into the wrong row width).
3. `self_attention`: MSA style, one loop over the heads and np.hstack; no output projection (the
   result is never multiplied by Wo, bo never added).

Grader: at blind time (273cad6), 1 and 3 named ("In `num_patches`, `W // P` reads `H` where `W`
belongs"; "the step `linear(out, p['Wo'], p['bo'])` is left out" on no-causal-mask, "apply the
output projection" on multi-head-attention); 2 observed only: "Your `patchify` is right when
H == W, and raises ValueError for a 4 x 6 image" (an [observation]): grids.square_grid's loop
fills rows of P * P * C (a wider image cropped), this one's rows are H * W * C // n ** 2 wide
and numpy's broadcast raises. Since port37a 2 is named too (grids.square_rows: "the grid of
patches is counted n x n from the height, `n = H // P` for both loops ..., and each row is
`H * W * C // n ** 2` values wide", reproducing numpy's own ValueError message). vit-checkpoint
observes patchify and self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'patchify': 'op:square_rows:patchify:columns-counted-from-H-rows-from-size',
          'no-causal-mask': 'op:skip:self_attention:skip-linear.4',
          'multi-head-attention': 'attention_no_output_projection'}


def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("Input shape not entirely divisible by number of patches")
    n_patches = H // P
    return n_patches ** 2


def patchify(image, P):
    image = _as_hwc(image)
    h, w, c = image.shape
    if P <= 0 or h % P != 0 or w % P != 0:
        raise ValueError("Input shape not entirely divisible by number of patches")
    n_patches = h // P
    patch_size = P
    patches = np.zeros((n_patches ** 2, h * w * c // n_patches ** 2))

    for i in range(n_patches):
        for j in range(n_patches):
            patch = image[i * patch_size:(i + 1) * patch_size, j * patch_size:(j + 1) * patch_size, :]
            patches[i * n_patches + j] = patch.flatten()
    return patches


def self_attention(x, p, heads, causal=False):
    """MSA: one loop over the heads, each head on its slice of d_head columns."""
    sequence = x
    d = sequence.shape[-1]
    if d % heads != 0:
        raise ValueError(f"{d} is not divisible by {heads} heads")
    n_heads = heads
    d_head = d // n_heads
    queries = sequence @ p["Wq"] + p["bq"]
    keys = sequence @ p["Wk"] + p["bk"]
    values = sequence @ p["Wv"] + p["bv"]
    T = sequence.shape[0]

    seq_result = []
    for head in range(n_heads):
        q = queries[:, head * d_head:(head + 1) * d_head]
        k = keys[:, head * d_head:(head + 1) * d_head]
        v = values[:, head * d_head:(head + 1) * d_head]
        scores = q @ k.T / (d_head ** 0.5)
        if causal:
            scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
        attention = softmax(scores, axis=-1)
        seq_result.append(attention @ v)
    return np.hstack(seq_result)
