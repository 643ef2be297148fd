"""Blind round 15 (b15_08, issue 38): patchify after
sklearn.feature_extraction.image.extract_patches_2d.

Mistakes:
1. patchify returns every P x P window at stride 1, (H-P+1)(W-P+1) overlapping patches, instead
   of the (H/P)(W/P) tiles at stride P.
2. patchify only checks that the patch fits (P <= H and P <= W), so sizes that do not tile
   return windows instead of raising ValueError.

Grader: at blind time and now, checklists only: the worked example's "The top-left 2x2 patch
[[1, 2], [3, 4]] must flatten to [1, 2, 3, 4] and be row 0" (true of this code already; the
fault is the 9 rows instead of 4), and the errors check's "16 does not tile 30 rows: raise
ValueError rather than dropping or padding pixels" (right about mistake 2, but a spec hint with
no misconception). Nothing named.
Since blind round 15's fixes the windows are named (every window cut where the tiles belong);
the missing tiling check got the spec's checklist. Now both are named together on the errors
checks (visible and hidden): op:tiling:patchify:none+op:grid_windows:patchify:grid-as-every-window,
weighed by refusals.named_refusal (the windows cut where the grid is, so no count refuses a size
that does not tile; a probe whose windows are too many to send back is left out).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:grid_windows:patchify:grid-as-every-window'}


def patchify(image, P):
    """All P x P patches of the image, as sklearn's extract_patches_2d, flattened (p1, p2, c)."""
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    H, W, C = image.shape
    if P <= 0 or P > H or P > W:
        raise ValueError("Height/width of the patch should be less than the image's.")
    windows = np.lib.stride_tricks.sliding_window_view(image, (P, P), axis=(0, 1))
    return windows.transpose(0, 1, 3, 4, 2).reshape(-1, P * P * C)
