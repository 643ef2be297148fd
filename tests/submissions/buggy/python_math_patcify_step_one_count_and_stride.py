"""Blind round 82 (b82_05, issue 38): num_patches and conv_equivalent ported from
firephil/python-math `patcify.py` (patchify(img, (P, P), step=1)).

Mistakes:
1. num_patches (lines 8-9 of the file as delivered): counts the overlapping step-1 windows,
   `(H - P + 1) * (W - P + 1)` (224/16 gives 43681, not 196), and raises no ValueError on sizes
   that do not tile (num_tokens inherits it).
2. conv_equivalent (lines 66-67): `(P, 1)`, stride 1 (overlapping windows), not `(P, P)`.

Grader: at blind time (ee59f1b1) and now, 101/110. Mistake 1 named on patch-count ("You counted
overlapping stride-1 windows, as a CNN slides its kernel ... (H/P)(W/P)"); its missing ValueError
gets the checklist ("raise ValueError there instead of returning a count"). Mistake 2 named on
kernel-stride ("Stride 1 slides the kernel one pixel at a time ... stride P"). Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'overlapping_windows_count', 'kernel-stride': 'conv_equivalent_stride_one'}


def num_patches(H, W, P):
    # patchify(img, (P, P), step=1) gives a grid of windows
    step = 1
    return ((H - P) // step + 1) * ((W - P) // step + 1)


def conv_equivalent(P):
    step = 1
    return (P, step)
