"""Blind round 64 (b64_06, issue 38): patchify ported from DaikonPlays/SAR-Image-Recognition
`unfold_test.py` (torch's `unfold(dimension, size, step)` with step 1, here numpy's
`sliding_window_view`).

Mistakes:
7. patchify (lines 73-74 of the file as delivered): windows with step 1, so every P x P window
   is cut, (H-P+1)(W-P+1) overlapping rows instead of (H/P)(W/P) tiles. Wrong on any input with
   P > 1.

Grader: at blind time (0cd43d22) and now, 97/110, named. Mistake 7 on all four of patchify's
failed checks ("In `patchify`, every P x P window is cut, one pixel apart ((H - P + 1) * (W - P +
1) overlapping patches, ...), where the lecture's patches tile the image: (H // P) * (W // P) of
them"); vit-checkpoint shows the student's ValueError and observes patchify. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:grid_windows:patchify:grid-as-every-window'}


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C); (H, W) is one channel.

    x.unfold(2, h, 1).unfold(3, w, 1): windows of size P along the rows, then along the columns.
    """
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # raises ValueError when the patches do not tile
    # unfold(dimension, size, step)
    r = np.lib.stride_tricks.sliding_window_view(image, P, axis=0)   # (H-P+1, W, C, p1)
    r = np.lib.stride_tricks.sliding_window_view(r, P, axis=1)       # (H-P+1, W-P+1, C, p1, p2)
    r = r.transpose(0, 1, 3, 4, 2)                                    # (.., .., p1, p2, c)
    return r.reshape(-1, P * P * C)
