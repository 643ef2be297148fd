"""Blind round 32 (b32_08, issue 38): emla2805/vision-transformer, model.py
(VisionTransformer.__init__'s `num_patches = (image_size // patch_size) ** 2` and
`patch_dim = channels * patch_size ** 2`, right: CORRECT; MultiHeadSelfAttention as
self_attention, right: CORRECT).

Mistakes:
1. num_patches = (H // P) ** 2: assumes a square image, W is ignored: 6x4 P=2 gives 9, not 6.
2. num_patches floors instead of raising ValueError: 5x5 P=2 returns 4. (num_tokens inherits
   both; patchify still raises, from its reshape.)

Grader: at blind time (a78aae9) and now, both named: "`W // P` reads `H` where `W` belongs" on
the non-square and random checks of patch-count, and with it "2 mistakes at once: (1) ... " on
the two non-tiling checks; at a78aae9 (1) said "the tiling test `check_tiling(H, W, P)` tests
nothing", quoting the reference's test as if the file had one; now "`num_patches` refuses no
size (no tiling test) ...". token-count keeps its points. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:none+op:sibling:num_patches:W-as-H'}
CORRECT = ('patch_dim', 'self_attention')  # emla2805's patch_dim and MultiHeadSelfAttention


def num_patches(H, W, P):
    """num_patches = (image_size // patch_size) ** 2, as in VisionTransformer.__init__."""
    image_size, patch_size = H, P
    num_patches = (image_size // patch_size) ** 2
    return num_patches


def patch_dim(P, C=3):
    """self.patch_dim = channels * patch_size ** 2."""
    channels, patch_size = C, P
    return channels * patch_size ** 2


def self_attention(x, p, heads, causal=False):
    """MultiHeadSelfAttention(embed_dim, num_heads).call on one sequence."""
    embed_dim = x.shape[-1]
    num_heads = heads
    if embed_dim % num_heads != 0:
        raise ValueError(
            f"embedding dimension = {embed_dim} should be divisible by number of heads = {num_heads}"
        )
    projection_dim = embed_dim // num_heads

    def attention(query, key, value):
        score = np.matmul(query, key.transpose(0, 2, 1))
        dim_key = float(key.shape[-1])
        scaled_score = score / np.sqrt(dim_key)
        if causal:
            n = scaled_score.shape[-1]
            scaled_score = np.where(np.tril(np.ones((n, n), dtype=bool)), scaled_score, -np.inf)
        weights = softmax(scaled_score, axis=-1)
        output = np.matmul(weights, value)
        return output, weights

    def separate_heads(x):
        x = x.reshape(-1, num_heads, projection_dim)
        return x.transpose(1, 0, 2)

    query = separate_heads(x @ p["Wq"] + p["bq"])
    key = separate_heads(x @ p["Wk"] + p["bk"])
    value = separate_heads(x @ p["Wv"] + p["bv"])

    attention_out, weights = attention(query, key, value)
    attention_out = attention_out.transpose(1, 0, 2)
    concat_attention = attention_out.reshape(-1, embed_dim)
    output = concat_attention @ p["Wo"] + p["bo"]  # combine_heads
    return output
