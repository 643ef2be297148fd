"""Blind round 72 (b72_11, issue 38): conv_patch_embed (with its `_to_chw`) ported from
psj0919/Segmentation_ROS_View `vehicle_segmentation-main/model/Segmenter/vit.py`
(PatchEmbedding's Conv2d(kernel=stride=patch) on a (B, C, H, W) image).

Mistakes:
1. conv_patch_embed (lines 60-63 of the file as delivered): the image is moved to (C, H, W)
   and each window is flattened in (c, i, j) order, but the weight is `K.reshape(-1, d)`,
   flattened in (i, j, c) order. Wrong with C > 1 only (a 2-D or C=1 image passes), at any
   stride. patchify is right (it transposes back).
The delivered file's top-level helper `_to_chw` (patchify uses it too) is nested here.

Grader: at blind time (2df48139) and now, 104/110, named on kernel-stride ("In
`conv_patch_embed`, each window and the kernel are flattened each in its own order and
multiplied position by position ... Each window is read channel first, (c, p1, p2), torch's
weight order, while the kernel is flattened (p1, p2, c), the course's: right for one channel
only. Flatten each window in the kernel's order"). The kernel/stride equivalence check gets
its checklist only, true. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:flattened_apart:conv_patch_embed:windows-K-flattened-apart'}


def conv_patch_embed(image, K, b, stride):
    def _to_chw(im):
        im = np.asarray(im, dtype=np.float64)
        if im.ndim == 2:
            im = im[None]
        elif im.ndim == 3:
            im = im.transpose(2, 0, 1)  # H, W, C -> C, H, W
        else:
            raise ValueError("image must be 2-D or 3-D")
        return im

    im = _to_chw(image)
    C, H, W = im.shape
    k, d = K.shape[0], K.shape[-1]
    if k > H or k > W:
        raise ValueError("kernel size larger than image")
    out_h = (H - k) // stride + 1
    out_w = (W - k) // stride + 1
    weight = K.reshape(-1, d)
    cols = np.stack([
        im[:, i * stride:i * stride + k, j * stride:j * stride + k].reshape(-1)
        for i in range(out_h) for j in range(out_w)
    ])
    x = cols @ weight + b
    return x.reshape(out_h, out_w, d)
