"""Blind round 49 (b49_12, issue 38): encoder_block from jaymody/picoGPT's `transformer_block`
(`x = x + mha(...)`, `x = x + ffn(...)`), written as `x += ...`.

Mistakes:
1. Both residual adds are written into the caller's array: after `encoder_block(x, p, heads)` the
   caller's x holds the block output. The returned values are right; vit_forward is unaffected
   (embed_image returns a fresh array).

Grader: at blind time (7e618553) and now, named on encoder-block (both checks): "the value is right, but
`encoder_block` changed `x` in place, an array it was given" with "Change no array
`encoder_block` is given in place: compute into a new one (`x = x - m`, not `x -= m`), or copy
first. Whoever calls `encoder_block` may use the same array again (a residual adds x back).".
A wrong result that is only an in-place write is a named mistake (changes_input_in_place, as
b19_07's CaiT residuals and b47_13's openpilot softmax), so in buggy/, not in_place/ (whose two
files tests/test_in_place.py lists by name).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'changes_input_in_place'}


def encoder_block(x, p, heads):
    # multi-head self attention
    x += self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    # position-wise feed forward network
    x += gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x
