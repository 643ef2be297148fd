"""Blind round 42 (b42_04, issue 38): encoder_block ported from JuliaMLTools/TransformerBlocks.jl
(Julia/Flux): src/block.jl, `x + m.sa(m.ln1(x)) + m.ffwd(m.ln2(x))`, and src/feed_forward.jl,
`Dense(input_dim => 4input_dim, relu)`; rows as tokens instead of Julia's columns.

Mistakes:
1. A parallel residual: the MLP reads ln2 of the block's input x, not of x after the attention
   residual, and both branches are added to the same x.
2. The MLP's activation is ReLU, not GELU.

Grader: at blind time (e77cb46) and now, both named together on encoder-block's two checks
("`layer_norm(x, p['ln2_g'], p['ln2_b'], eps)` is given `x` as it was before `x = x +
self_attention(...)`" and "the activation is ReLU where the lecture uses GELU"); vit-checkpoint
observes encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:stale:encoder_block:x-before-update.2+op:activation:encoder_block/mlp:act=relu'}


def encoder_block(x, p, heads):
    """(m::Block)(x) from TransformerBlocks.jl, rows as tokens instead of Julia's columns."""
    relu = lambda h: np.maximum(h, 0)

    def ln1(h):
        return layer_norm(h, p["ln1_g"], p["ln1_b"])

    def ln2(h):
        return layer_norm(h, p["ln2_g"], p["ln2_b"])

    def sa(h):
        return self_attention(h, p, heads)

    def ffwd(h):
        # Chain(Dense(d => 4d, relu), Dense(4d => d)); dropout is off at inference
        return relu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    return x + sa(ln1(x)) + ffwd(ln2(x))
