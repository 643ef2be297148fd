"""Blind round 11 (b11_08, issue 38): patchify ported from a PyTorch unfold patchify.

Source: the torch idiom x.unfold(2, p, p).unfold(3, p, p) on (C, H, W) tensors (e.g. Brian
Pulfer's "Vision Transformers from Scratch (PyTorch)" and many forum answers, which start with
`H, W = x.shape[-2:]`), ported with sliding_window_view on the numpy (H, W, C) image.
Mistakes:
 1. H, W = image.shape[-2:] (the torch (C, H, W) habit) on a channels-last image: gray 2-D
    images are right; RGB images use (W, C) as the size, so e.g. a 4x4x3 image with P=2
    raises ValueError, and other sizes may pass the check wrongly.

Grader: observed ("right for one channel, wrong for an image with 3 channels: look at how the
channels are read ..."); since session 17 the shape[-2:] reading is named (tiling.py's last_two:
the tiling test made on the image array's last two axes), weighed by checks/kinds/refusals.py on
the cases and the probe images (it must raise, by type, exactly where this code raises, and
return the reference's value elsewhere).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:last_two:patchify:last-two-axes'}


def patchify(image, P):
    """unfold(0, P, P).unfold(1, P, P), then (p1, p2, c) inside each patch."""
    image = np.asarray(image)
    if image.ndim not in (2, 3):
        raise ValueError(f"expected a 2-D or 3-D image, got {image.shape}")
    H, W = image.shape[-2:]
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile {H}x{W}")
    if image.ndim == 2:
        image = image[:, :, None]
    C = image.shape[-1]
    h, w = image.shape[0] // P, image.shape[1] // P
    patches = np.lib.stride_tricks.sliding_window_view(image, (P, P), axis=(0, 1))[::P, ::P]
    patches = patches[:h, :w].transpose(0, 1, 3, 4, 2)      # (h, w, C, P, P) -> (h, w, P, P, C)
    return patches.reshape(h * w, P * P * C)
