"""Blind round 77 (b77_15, issue 38): num_patches and conv_equivalent ported from xiaochuany/blog
`docs/posts/2025-11-17-convolution.md` (its reminders of a "valid" convolution's shapes).

Mistakes:
1. num_patches (line 17 of the file as delivered): counts the overlapping stride-1 windows,
   `(H - P + 1) * (W - P + 1)` (the lecture's "overlapping CNN windows" trap); it still raises
   ValueError when P does not tile. 224/16 gives 43681 instead of 196.
2. conv_equivalent (line 69): returns `(P, 1)`, the stride left at its default 1, instead of
   `(P, P)`.

Grader: at blind time (15b4065f) and now, 103/110. Mistake 1 named on patch-count ("You counted
overlapping stride-1 windows"), mistake 2 on kernel-stride ("the kernel moves by a whole patch:
stride P"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'overlapping_windows_count',
          'kernel-stride': 'conv_equivalent_stride_one'}


def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError(f"{P} does not divide {H} and {W}")
    # one window per valid position of a P x P kernel
    return (H - P + 1) * (W - P + 1)


def conv_equivalent(P):
    # kernel (P, P); stride left at the default
    return (P, 1)
