"""Blind round 43 (b43_05, issue 38): patchify ported from a numpy `img_to_patch(x: np.ndarray,
patch_size, flatten_channels=True)` (code-search file id 1431486356: `B, H, W, C = x.shape`,
`x.reshape(B, C, H // patch_size, patch_size, W // patch_size, patch_size)`,
`x.transpose(0, 2, 4, 1, 3, 5)`), one image instead of a batch.

Mistakes:
1. The channels-last image is reshaped as if channels-first, `x.reshape(C, H // P, P, W // P,
   P)`, and each patch flattened in (c, p1, p2) order: the channels are scrambled, wrong
   whenever C > 1 (gray and one-channel images are right). linear_patch_embed, embed_image and
   vit_forward inherit it.

Grader: at blind time (b20830f) observed, not named: the RGB check had the observation "right
for one channel, wrong for an image with 3 channels" (only_one_channel), the hidden check a
checklist. Now named on both: grids.py's `channels_read_first` (the grid reshape written
channels first with no transpose before it, each patch flattened (c, p1, p2) as torch's
`img_to_patch`); vit-checkpoint observes the broken patchify.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:channels_read_first:patchify:read-channels-first-flattened-channels-first'}


def patchify(image, P):
    """img_to_patch for one image, flatten_channels=True."""
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {x.shape}")
    H, W, C = x.shape
    num_patches(H, W, P)  # ValueError when the patches do not tile
    x = x.reshape(C, H // P, P, W // P, P)
    x = x.transpose(1, 3, 0, 2, 4)               # [H', W', C, p_H, p_W]
    return x.reshape(-1, C * P * P)              # [H'*W', C*p_H*p_W]

