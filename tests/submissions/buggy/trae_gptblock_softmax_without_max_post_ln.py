"""Blind round 80 (b80_09, issue 38): softmax and encoder_block ported from
keqingli1129/trae-pytorch-is-easy `gptblock.py`. The delivered file's `LayerNorm` and `Linear`
classes are written here as the solution's layer_norm and plain matmuls (the same arithmetic).

Mistakes:
1. softmax (line 87 of the file as delivered): `np.exp(x)` with no max subtraction; it overflows
   for inputs near 1000 (NaN). Right on small inputs.
2. encoder_block (lines 119-122): post-LN, `x = norm1(x + attn(x)); x = norm2(x + ff(x))`,
   instead of pre-LN. Wrong on every input (and in vit_forward).

Grader: at blind time (a4b8673f) and now, 95/110. Mistake 1 named on stable-softmax ("exp
overflowed ... Subtract the maximum along the axis first"); mistake 2 named on encoder-block
("That is a post-LN block ... ViT is pre-LN"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_max', 'encoder-block': 'encoder_post_ln'}


def softmax(x, axis=-1):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def encoder_block(x, p, heads):
    def norm1(h):
        return layer_norm(h, p["ln1_g"], p["ln1_b"])

    def norm2(h):
        return layer_norm(h, p["ln2_g"], p["ln2_b"])

    def ff(h):
        return gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    attn_output = self_attention(x, p, heads)
    x = norm1(x + attn_output)
    ff_output = ff(x)
    x = norm2(x + ff_output)
    return x
