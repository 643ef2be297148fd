"""Blind round 42 (b42_12, issue 38): num_patches and self_attention ported from a PyTorch ViT script
(code-search file id 7885883494: Tokenizer's `n_patches = int(np.prod(im_shape[1:]) //
patch_size**2)`; MultiHeadAttention's `self.W_q(x).view(bs, -1, seq_len, self.k_emb_size)` with
the `.transpose(1, 2)` results thrown away), one sequence, with Wo, bo.

Mistakes:
1. num_patches computes H*W // P**2 with no tiling check: (24, 40, 16) gives 3 and (20, 20, 16)
   gives 1 instead of ValueError.
2. self_attention splits the heads by reshaping the (T, d) projections straight to
   (heads, T, d_h), with no transpose; the merge does transpose back, so tokens and heads get
   mixed. One head agrees.

Grader: at blind time (e77cb46) and now, mistake 1 named on patch-count's two checks (two parts of
the one mistake: "there is no tiling test" and at blind time "the patches are counted by area, `H *
W // (P * P)`", now: "the patches are counted by area (N = HW / P**2), where the lecture counts the
rows of patches times the columns ..."); mistake 2 named ("is done with a reshape alone ... only a
transpose moves them") on no-causal-mask's and multi-head-attention's checks with several heads;
why-positions runs the file's self_attention (attention_not_equivariant); vit-checkpoint observes
both functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:none+op:count_by_area:num_patches:count-by-area',
          'no-causal-mask': 'op:reshape_for_transpose:self_attention/split_heads*:reshape-instead-of-swapaxes',
          'multi-head-attention': 'op:reshape_for_transpose:self_attention/split_heads*:reshape-instead-of-swapaxes',
          'why-positions': 'attention_not_equivariant'}


def num_patches(H, W, P):
    """n_patches from the Tokenizer: pixels of one channel over pixels of one patch."""
    im_shape = (H, W)
    return int(np.prod(im_shape) // P ** 2)


def self_attention(x, p, heads, causal=False):
    """MultiHeadAttention.forward for one sequence, with the output projection Wo, bo."""
    seq_len, emb_size = x.shape
    if emb_size % heads:
        raise ValueError(f"width {emb_size} is not divisible by {heads} heads")
    num_heads = heads
    k_emb_size = emb_size // num_heads

    # split into multiple heads
    queries = (x @ p["Wq"] + p["bq"]).reshape(-1, seq_len, k_emb_size)
    keys = (x @ p["Wk"] + p["bk"]).reshape(-1, seq_len, k_emb_size)
    values = (x @ p["Wv"] + p["bv"]).reshape(-1, seq_len, k_emb_size)

    scores = queries @ keys.transpose(0, 2, 1) / k_emb_size ** 0.5
    if causal:
        scores = np.where(np.tril(np.ones((seq_len, seq_len), dtype=bool)), scores, -np.inf)
    scores = softmax(scores, axis=-1)

    hidden = scores @ values                                  # (heads, seq_len, k_emb_size)
    concat = hidden.transpose(1, 0, 2).reshape(seq_len, emb_size)
    return concat @ p["Wo"] + p["bo"]
