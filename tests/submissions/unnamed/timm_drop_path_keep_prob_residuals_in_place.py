"""Blind round 15 (b15_04, issue 38): encoder block after timm's Block with DropPath, written
with the non-inverted dropout of the 2015 cs231n notes (scale by the keep probability at test
time), residual adds written in place as in numpy tutorials.

Mistakes:
1. encoder_block multiplies both residual branches (attention and MLP) by keep = 0.9 before
   adding them; at inference they are added unscaled.
2. encoder_block updates the residual stream with `x += ...` on the caller's array, overwriting
   the input. No check catches it (at blind time or now), so it is kept out of EXPECT: the points
   lost are the keep-probability scaling's.

Grader: at blind time and now, the scaling gets only the encoder block's checklist; the in-place
update is not caught at all. Nothing named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': None}


def encoder_block(x, p, heads):
    """Pre-LN block (timm Block, DropPath at eval with the keep-probability scaling of cs231n)."""
    keep = 0.9  # 1 - drop_path_rate
    x += keep * self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x += keep * (gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"])
    return x
