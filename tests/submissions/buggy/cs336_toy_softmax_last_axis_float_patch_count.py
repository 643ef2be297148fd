"""Blind round 75 (b75_15, issue 38): num_patches and softmax ported from lllldj/cs336
`cs336_basics/myFunctional.py` (`toy_softmax`: `x - x.max(-1, keepdim=True)`, `exp`, `/ sum(-1)`).

Mistakes:
1. softmax (lines 82-88 of the file as delivered): delegates to `toy_softmax`, which always works
   on the last axis; `axis` is ignored. Wrong whenever another axis is passed.
2. num_patches (line 15): `return H * W / (P * P)`, a float (196.0), not an int.
The delivered file's top-level helper `toy_softmax` is nested in softmax here.

Grader: at blind time (db1f63a6) and now, 100/110. Mistake 1 named on stable-softmax ("In
`softmax`, `axis` is taken as its default, -1, whatever is given."; its property's checklist,
softmax_wrong_axis, in ALIASES), mistake 2 on patch-count ("In `num_patches`, the number is right
but it is a float ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area',
          'stable-softmax': 'op:default:softmax:axis-as-default'}
ALIASES = ('softmax_wrong_axis',)


def num_patches(H, W, P):
    """N = HW / P^2 (section 4 step 1)."""
    if H % P != 0 or W % P != 0:
        raise ValueError(f"P={P} does not tile {H}x{W}")
    return H * W / (P * P)


def softmax(x, axis=-1):
    def toy_softmax(x):
        sx = x - x.max(-1, keepdims=True)
        ex = np.exp(sx)
        return ex / ex.sum(-1, keepdims=True)
    return toy_softmax(np.asarray(x, dtype=float))
