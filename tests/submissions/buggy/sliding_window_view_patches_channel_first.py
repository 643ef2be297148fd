"""Blind round 30 (b30_10, issue 38): patchify from the NumPy docs
(numpy.lib.stride_tricks.sliding_window_view(image, (P, P), axis=(0, 1))[::P, ::P]).

Mistakes:
1. sliding_window_view puts the window axes last, (nH, nW, C, P, P), and the port reshapes it
   without a transpose: each patch is flattened (c, p1, p2). Right for one channel.

Grader: at blind time and now, named: "You flattened each patch channel first, (c, p1, p2)."
(patchify_channel_first) on patchify; vit-checkpoint observes the broken patchify. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first'}


def patchify(image, P):
    """Non-overlapping P x P windows: sliding_window_view over (H, W), every P-th window kept."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # ValueError when the patches do not tile
    v = np.lib.stride_tricks.sliding_window_view(image, (P, P), axis=(0, 1))[::P, ::P]
    return v.reshape(-1, P * P * C)
