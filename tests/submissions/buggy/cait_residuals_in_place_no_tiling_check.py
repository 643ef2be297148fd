"""Blind round 19 (b19_07, issue 38): encoder_block and num_patches ported from lucidrains'
vit-pytorch / CaiT (`x = attn(x) + x` written as `x +=`, `pair`, the divisibility assert of
__init__ left out).

Mistakes:
1. encoder_block's residuals are `x += self_attention(...)` and `x += feed_forward(...)`: the
   caller's array is overwritten (the returned values are right).
2. num_patches has no tiling check: `(H // P) * (W // P)`, no ValueError when P does not tile.
The student's `pair` (top-level in the file, also used by patch_dim) is nested in num_patches and
`feed_forward` in encoder_block here: the builder replaces only the solution's own definitions.

Grader: at blind time and now, the missing check is named (floor_division_count); the in-place
residual was told exactly but as an observation with no mistake name until session 13 ("Change no array
`encoder_block` is given in place"; the measurement counted it as named), as round 18's b18_09.
Since session 13 the in-place write is named (changes_input_in_place: the worker sees the
argument change; the same hint, now a named mistake): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'encoder-block': 'changes_input_in_place'}


def num_patches(H, W, P):
    """lucidrains' pair helper (top-level in the student's file, also used by patch_dim) nested here."""
    def pair(t):
        return t if isinstance(t, tuple) else (t, t)

    patch_height, patch_width = pair(P)
    return (H // patch_height) * (W // patch_width)


def encoder_block(x, p, heads):
    """CaiT's Transformer layer; the student's feed_forward (top-level in the file) nested here."""
    def feed_forward(x, p):
        h = layer_norm(x, p["ln2_g"], p["ln2_b"])
        return gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    x += self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x += feed_forward(x, p)
    return x
