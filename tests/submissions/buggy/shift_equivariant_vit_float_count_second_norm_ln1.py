"""Blind round 83 (b83_06, issue 38): num_patches and encoder_block ported from
willding123/Shift-Equivariant-Vision-Transformers `test_cyclic.py`.

Mistakes:
1. num_patches (line 9 of the file as delivered): `H * W / (P * P)`, true division, so the
   count is a float (196.0) on every input (num_tokens inherits it).
2. encoder_block (line 118): the second norm is given `ln1_g`, `ln1_b` instead of `ln2_g`,
   `ln2_b` (a copy-paste): wrong whenever the two norms' parameters differ (vit_forward
   inherits it).

Grader: at blind time (2774dae9) and now, 94/110. Mistake 1 named on patch-count ("the count is
a float (at your line `return H * W / (P * P)`) ... `//`"); mistake 2 named on encoder-block
("`layer_norm(x, p['ln2_g'], p['ln2_b'], eps)` is given p['ln1_g'], p['ln1_b']"). Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area',
          'encoder-block': 'op:step_parameters:encoder_block:ln2_g-as-ln1_g-in-layer_norm'}


def num_patches(H, W, P):
    if P < 1 or H % P != 0 or W % P != 0:
        raise ValueError(f"H={H}, W={W} not divisible by window size {P}")
    return H * W / (P * P)


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln1_g"], p["ln1_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
