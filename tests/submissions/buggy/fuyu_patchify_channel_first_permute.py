"""Blind round 28 (b28_12, issue 38): patchify ported from Hugging Face transformers
FuyuImageProcessor.patchify_image (image.unfold(2, ph, ph).unfold(3, pw, pw),
view(batch, channels, -1, ph, pw), permute, reshape to (batch, -1, channels * ph * pw)), on a
channels-first copy of the image. The student's top-level helper `_unfold` (torch's
Tensor.unfold) is nested in patchify here: the builder replaces only the solution's own
definitions.

Mistakes:
1. The permute after the view is (0, 2, 1, 3, 4) instead of Fuyu's (0, 2, 3, 4, 1): each patch
   is flattened channel first, (c, p1, p2). One-channel images are right.

Grader: at blind time and now, named: each patch flattened channel first
(patchify_channel_first) on patchify; vit-checkpoint observes the broken patchify. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first'}


def patchify(image, P):
    def _unfold(t, dimension, size, step):
        """torch.Tensor.unfold: windows along `dimension` appended as a new last axis."""
        n = (t.shape[dimension] - size) // step + 1
        idx = np.arange(n)[:, None] * step + np.arange(size)[None, :]
        w = np.take(t, idx, axis=dimension)               # dimension -> (n, size)
        return np.moveaxis(w, dimension + 1, -1)

    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    image = image.transpose(2, 0, 1)[None]            # (batch, channels, H, W)
    batch_size, channels, _, _ = image.shape
    patch_height = patch_width = P
    unfolded_along_height = _unfold(image, 2, patch_height, patch_height)
    patches = _unfold(unfolded_along_height, 3, patch_width, patch_width)
    patches = patches.reshape(batch_size, channels, -1, patch_height, patch_width)
    patches = patches.transpose(0, 2, 1, 3, 4)
    patches = patches.reshape(batch_size, -1, channels * patch_height * patch_width)
    return patches[0]
