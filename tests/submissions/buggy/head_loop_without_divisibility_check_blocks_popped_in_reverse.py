"""Blind round 13 (b13_09, issue 38): a head loop writing into a preallocated output with no
divisibility check, and a forward that consumes the blocks with list.pop().

Mistakes:
1. self_attention: no `d % heads` check; a head count that does not divide d leaves the last
   columns zero and returns instead of raising ValueError.
2. vit_forward: `while blocks: x = encoder_block(x, blocks.pop(), heads)` -- last block first.

Grader: the blocks in reverse order are named (choices.loop_reversed); the missing check is
named (heads.unchecked_heads: the refusal case's value is the lecture's with the heads d // heads
wide and the last d % heads columns left zero).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:unchecked_heads:self_attention:heads-unchecked-last-columns-unattended', 'vit-forward': 'op:reversed:vit_forward:block-reversed'}


def self_attention(x, p, heads, causal=False):
    """Multi-head attention, each head written into its own columns of the output."""
    T, d = x.shape
    d_h = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    out = np.zeros_like(q)
    mask = np.tril(np.ones((T, T), dtype=bool))
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        att = q[:, cols] @ k[:, cols].T / math.sqrt(d_h)
        if causal:
            att = np.where(mask, att, -np.inf)
        out[:, cols] = softmax(att, axis=-1) @ v[:, cols]
    return out @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    """Embed, run the blocks, final norm, classify the [CLS] row."""
    x = embed_image(image, params)
    blocks = list(params["blocks"])
    while blocks:
        x = encoder_block(x, blocks.pop(), params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
