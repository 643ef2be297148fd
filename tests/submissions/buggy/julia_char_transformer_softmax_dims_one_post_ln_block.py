"""Blind round 43 (b43_01, issue 38): softmax and encoder_block ported from a plain-Julia
character-level transformer script (code-search file id 23671273164: `function softmax(x;
dims=1)`, `struct LayerNorm`, `struct TransformerBlock` whose call is `x = block.ln1(x +
attn_output)`, `x = block.ln2(x + ff_output)`), rewritten in numpy for Lab 4.

Mistakes:
1. softmax: the Julia default `dims=1` (the first axis) becomes `axis=0`: a call that leaves
   the axis out normalises columns instead of the last axis; 1-D input and an explicit axis are
   right.
2. encoder_block: post-LN as the Julia TransformerBlock (LayerNorm after each residual sum)
   instead of pre-LN.

Grader: at blind time (b20830f) and now, both named: "In `softmax`, `axis` defaults to 0
(`axis=0` in the signature) ..." on every stable-softmax check that failed, and "That is a
post-LN block (LayerNorm after each residual sum, as in the 2017 Transformer) ..." on
encoder-block; vit-checkpoint observes encoder_block and softmax. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {
    'stable-softmax': 'op:default_flipped:softmax:axis-defaults-0',
    'encoder-block': 'encoder_post_ln',
}


def softmax(x, axis=0):
    """softmax(x; dims=1) from the Julia helpers: exp(x .- maximum(x, dims)) ./ sum(..., dims)."""
    x = np.asarray(x, dtype=float)
    e_x = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e_x / np.sum(e_x, axis=axis, keepdims=True)

def encoder_block(x, p, heads):
    """TransformerBlock: (block::TransformerBlock)(x) from the Julia script, rows are tokens here."""
    def ff(h):                                   # FeedForward, with the lecture's GELU
        hidden = gelu(h @ p["W1"] + p["b1"])
        return hidden @ p["W2"] + p["b2"]

    attn_output = self_attention(x, p, heads)
    x = layer_norm(x + attn_output, p["ln1_g"], p["ln1_b"])
    ff_output = ff(x)
    x = layer_norm(x + ff_output, p["ln2_g"], p["ln2_b"])
    return x
