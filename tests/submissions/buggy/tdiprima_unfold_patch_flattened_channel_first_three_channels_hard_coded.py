"""Blind round 35 (b35_08, issue 38): tdiprima/transformer-attention,
stage2_understanding/patchify.py (torch: img.unfold(1, P, P).unfold(2, P, P), permute(1, 2, 0,
3, 4), reshape(-1, 3 * P * P)), ported to patchify on an (H, W, C) image made [C, H, W] first.

Mistakes:
1. The permute(1, 2, 0, 3, 4) order is kept: inside a patch the flatten order is (c, p1, p2),
   not (p1, p2, c). Wrong on multi-channel images only.
2. `reshape(-1, 3 * P * P)` keeps the source's hard-coded 3 channels: a gray 4x4 image raises
   "cannot reshape array of size 16 into shape (12)", a gray 12x4 one returns shape (4, 12)
   instead of (12, 4). Right for 3-channel images.

Grader: at blind time (2f30801), observed only: "[observation] Your `patchify` returns the
expected columns in another order, the same in every row ... each row's entries flattened in
another order" (#1), the gray checks' tracebacks with `[checklist]`s and the hidden check's
"[observation] ... the expected values in the expected order, in another shape" (#2). Now both
named: #2 alone on the gray checks (op:three_channel_rows, channels.py: "`grid.reshape(..., P *
P * C)` is written `grid.reshape(-1, P * P * 3)`, as code for RGB images counts 3 channels in a
patch ..."), both together on the RGB and random checks (with op:channels_first, grids.py:
"each patch is flattened channels first, (c, p1, p2) ..."; alone it missed the gray calls of
those checks, so it was never named); vit-checkpoint observes the broken patchify. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:three_channel_rows:patchify:C-as-3-in-rows'
                      '+op:channels_first:patchify:patch-flattened-channels-first'}


def patchify(image, P):
    """patchify(img, patch_size) on our (H, W, C) image: img is first made [C, H, W] as ToTensor does."""
    img = np.asarray(image)
    if img.ndim == 2:
        img = img[:, :, None]
    elif img.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {img.shape}")
    img = img.transpose(2, 0, 1)                            # [C, H, W]
    c, h, w = img.shape
    if P <= 0 or h % P != 0 or w % P != 0:
        raise ValueError("Image must be divisible by patch_size.")

    # img.unfold(1, P, P).unfold(2, P, P) -> [C, h/P, w/P, P, P]
    patches = img.reshape(c, h // P, P, w // P, P).transpose(0, 1, 3, 2, 4)
    patches = patches.transpose(1, 2, 0, 3, 4)              # [num_h, num_w, C, P, P]
    patches = patches.reshape(-1, 3 * P * P)
    return patches
