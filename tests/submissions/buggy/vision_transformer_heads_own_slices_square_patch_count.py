"""Blind round 66 (b66_13, issue 38): num_patches and self_attention
ported from zoliseress/Vision_Transformer (`model.py`, `utils.py`).

Mistakes:
22. self_attention (lines 156-158 of the file as delivered): head h projects only its own slice
    of the input, `x[:, cols] @ Wq[cols, cols]` (block-diagonal projections). Wrong with heads > 1.
23. num_patches (line 26): `n = H // P` along one side, `return n ** 2` (the source asserts square
    images). Wrong on non-square images.

Grader: at blind time (f4776223) and now, 93/110, both named. Mistake 22 on multi-head-attention
and no-causal-mask ("each head's q, k, v are computed from its own d_h-wide slice `s` of `x` with
the diagonal block of the weights"); mistake 23 on patch-count ("In `num_patches`, `W // P` reads
`H` where `W` belongs"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'multi-head-attention': 'op:own_slices:self_attention:heads-own-slices',
          'no-causal-mask': 'op:own_slices:self_attention:heads-own-slices'}


def num_patches(H, W, P):
    """Number of non-overlapping P x P patches that tile an H x W image.

    As in ViT.__init__: the image is split into n patches along one dimension, so the
    sequence has n ** 2 patches (49 for 28x28 with 4x4 patches).
    """
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("The Input shape shall be divisible by the number of patches.")
    n = H // P                       # patches along one image dimension
    return n ** 2


def self_attention(x, p, heads, causal=False):
    """Multi-Head Self Attention (T, d) -> (T, d), one q/k/v map per head on its slice of x."""
    T, dim = x.shape
    if dim % heads != 0:
        raise ValueError(f"Cannot divide dimension {dim} with {heads} heads.")
    dim_head = dim // heads
    seq_result = []
    for head in range(heads):
        # head 0 gets columns 0..dim_head-1, head 1 the next dim_head columns, ...
        cols = slice(head * dim_head, (head + 1) * dim_head)
        seq = x[:, cols]
        q = seq @ p["Wq"][cols, cols] + p["bq"][cols]
        k = seq @ p["Wk"][cols, cols] + p["bk"][cols]
        v = seq @ p["Wv"][cols, cols] + p["bv"][cols]
        attn = q @ k.T / (dim_head ** 0.5)        # (seq_length, seq_length)
        if causal:
            attn = np.where(np.tril(np.ones((T, T), dtype=bool)), attn, -np.inf)
        attn = softmax(attn, axis=-1)
        attn = attn @ v                           # (seq_length, dim_head)
        seq_result.append(attn)
    output = np.hstack(seq_result)
    return output @ p["Wo"] + p["bo"]             # self.last
