"""Blind round 43 (b43_05, issue 38): patchify ported from a numpy `img_to_patch(x: np.ndarray,
patch_size, flatten_channels=True)` (code-search file id 1431486356: `B, H, W, C = x.shape`,
`x.reshape(B, C, H // patch_size, patch_size, W // patch_size, patch_size)`,
`x.transpose(0, 2, 4, 1, 3, 5)`), one image instead of a batch.

Mistakes:
1. The channels-last image is reshaped as if channels-first, `x.reshape(C, H // P, P, W // P,
   P)`, and each patch flattened in (c, p1, p2) order: the channels are scrambled, wrong
   whenever C > 1 (gray and one-channel images are right). linear_patch_embed, embed_image and
   vit_forward inherit it.

Grader: at blind time (b20830f) and now, observed, not named: the RGB check has the observation
"Your `patchify` is right for one channel, wrong for an image with 3 channels: look at how the
channels are read and in which order they are flattened" (only_one_channel), the hidden check
the checklist "... each flattened in (p1, p2, c) order"; vit-checkpoint observes the broken
patchify. No hint names the channels-first reshape. In unnamed/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': None}


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

