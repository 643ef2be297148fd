"""Blind round 15 (b15_04, issue 38): encoder block after timm's Block with DropPath, written
with the non-inverted dropout of the 2015 cs231n notes (scale by the keep probability at test
time), residual adds written in place as in numpy tutorials.

Mistakes:
1. encoder_block multiplies both residual branches (attention and MLP) by keep = 0.9 before
   adding them; at inference they are added unscaled.
2. encoder_block updates the residual stream with `x += ...` on the caller's array, overwriting
   the input. Not reported at blind time; since, each failed case says it ("`encoder_block` also
   changed `x` in place"); the points lost are the keep-probability scaling's.

Grader: at blind time the scaling got only the encoder block's checklist and the in-place update
nothing. Since blind round 15's fixes the scaling is named (both branches times 0.9, one slip at 2
places) and the in-place write said on each failed case: every mistake told, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:residual_scaled:encoder_block:self_attention-branch-times-0.9'
                          '+op:residual_scaled:encoder_block:mlp-branch-times-0.9'}


def encoder_block(x, p, heads):
    """Pre-LN block (timm Block, DropPath at eval with the keep-probability scaling of cs231n)."""
    keep = 0.9  # 1 - drop_path_rate
    x += keep * self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x += keep * (gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"])
    return x
