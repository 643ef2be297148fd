"""Blind round 53 (b53_02, issue 38): patchify and patch_dim ported from
yilin-bao/unofficial-SiameseMAE, util/patchify.py (JAX `patchify`/`unpatchify` for [B, C, H, W],
with 3 channels fixed in `unpatchify`).

Mistakes:
1. patchify moves the image to the source's layout with `x[None].transpose(0, 3, 1, 2)`, which
   needs a 3-D image: a gray (H, W) image raises `ValueError: axes don't match array` where the
   API returns (N, P*P). 3-D images (C = 1 too) are right. linear_patch_embed, embed_image and
   vit_forward raise on gray images too.
2. `patch_dim` returns `P ** 2 * 3`, the source's fixed RGB constant, ignoring C (patch_dim(2,
   C=1) is 12, not 4); right for C = 3 only.

Grader: at blind time (0ec6739e) and now, both named: M1 on patchify ("In `patchify`, `image`'s axes
are permuted as three, an (H, W, C) image's (`image.transpose(2, 0, 1)` or another order, channels
first, as code written for (H, W, C) images only does), which a 2-D (H, W) image does not have:
numpy's ValueError, axes don't match array; a 2-D image is one channel, (H, W, 1), `image[...,
None]`."), M2 on flatten-length ("In `patch_dim`, `C` is taken as its default, 3, whatever is
given."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:axes_permuted:patchify:image-2d-axes-permuted-as-three',
          'flatten-length': 'op:default:patch_dim:C-as-default'}


def patch_dim(P, C=3):
    """Numbers in one flattened P x P x C patch, before the linear map: P * P * C.

    Practice 5: 768 for P=16 RGB, 192 for P=8 RGB, 4 for the worked example's 2x2 gray patch.
    """
    return P ** 2 * 3


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C); (H, W) is one channel.

    Lab 4, section 4 step 2. Row n is patch n in raster order over the patch grid (left to
    right, then top to bottom); inside a patch the order is row, column, channel (p1, p2, c):
    the worked example's top-left patch [[1, 2], [3, 4]] becomes [1, 2, 3, 4].
    ValueError when P does not tile the image or `image` is not 2-D or 3-D.
    """
    patch_size = P
    x = np.asarray(image)
    x = x[None].transpose(0, 3, 1, 2)    # [B, C, H, W]
    B, C, H, W = x.shape
    if H % patch_size != 0 or W % patch_size != 0:
        raise ValueError(f"patch size {patch_size} does not tile a {H}x{W} image")

    x = x.reshape(B, C, H//patch_size, patch_size, W//patch_size, patch_size)
    x = x.transpose(0, 2, 4, 3, 5, 1)    # [B, H', W', p_H, p_W, C]
    x = x.reshape(B, -1, *x.shape[3:])   # [B, H'*W', p_H, p_W, C]
    x = x.reshape(B, x.shape[1], -1)     # [B, H'*W', p_H*p_W*C]

    return x[0]
