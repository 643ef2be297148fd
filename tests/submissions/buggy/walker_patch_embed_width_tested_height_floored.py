"""Blind round 33 (b33_15, issue 38), with its first mistake fixed: linear_patch_embed ported
from walker-at/Replicating-the-An-Image-is-Worth-16x16-Words-Paper (modules/ViT_pieces.py,
PatchEmbedding: a Conv2d with kernel_size = stride = patch_size), the tutorial's width assert
written `raise ValueError` (what a student told "an assert is no input check" writes next;
b33_15 itself: tests/submissions/unnamed/walker_patch_embed_width_asserted_height_floored.py).

Mistakes:
1. The tiling is tested on the width only (`image_resolution = x.shape[1]`), and the patch map
   runs as a kernel = stride = P convolution, which floors: a height P does not tile silently
   drops its last rows ((5, 6, 3), P=2 gives 6 patches where ValueError is asked for).

Grader: at blind time (c4f83ef) such code got 8/8: no check gave linear_patch_embed a height that
does not tile. Now the refusal check also asks (5, 6, 3) and (5, 5, 3) with P=2, and names it:
"2 mistakes at once: (1) ... the tiling test `check_tiling(H, W, P)` tests the width only ...
(2) ... the image is cropped to the patches that fit before it is cut" (tiling.py's width-only
test with its crop, weighed by refusals.named_refusal; (5, 5, 3) tells the width-only test from
the `|` for `or`). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'op:tiling:linear_patch_embed/patchify:width-only+op:cropped:linear_patch_embed/patchify:image-cropped-to-tile'}


def linear_patch_embed(image, W_e, b_e, P):
    patch_size = P
    x = np.asarray(image, dtype=float)
    if x.ndim == 2:
        x = x[:, :, None]

    # verify input shape
    image_resolution = x.shape[1]
    if image_resolution % patch_size != 0:
        raise ValueError(f'input image shape: {image_resolution} must be divisible by patch size: {patch_size}')

    # layer to turn an image into embedded patches: Conv2d(kernel_size=patch_size, stride=patch_size, padding=0)
    C = x.shape[-1]
    embedding_dim = W_e.shape[1]
    patchify_kernel = W_e.reshape(patch_size, patch_size, C, embedding_dim)
    x_patched = conv_patch_embed(x, patchify_kernel, b_e, patch_size)      # (H/P, W/P, d)

    # flatten the feature map dimensions into a single vector, embedding on the final dimension
    x_flattened = x_patched.reshape(-1, embedding_dim)
    return x_flattened
