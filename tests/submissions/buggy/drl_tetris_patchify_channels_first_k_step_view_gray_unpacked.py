"""Blind round 82 (b82_15, issue 38): patchify and conv_patch_embed ported from
mightypirate1/DRL-Tetris `agents/agent_utils/fcns.py` (k_step_view through as_strided). The
delivered file's top-level helpers `_to_hwc` and `k_step_view` are nested in the functions that
call them here.

Mistakes:
1. patchify (line 39 of the file as delivered): `transpose(0, 2, 4, 1, 3)`, each patch flattened
   (c, p1, p2) instead of (p1, p2, c): right for C == 1, wrong for C > 1 (linear_patch_embed,
   embed_image and vit_forward inherit it).
2. conv_patch_embed (k_step_view, line 49): `H, W, C = x.shape` with no (H, W) -> (H, W, 1)
   promotion: a 2-D image raises ValueError from the tuple unpacking; 3-D images are right.

Grader: at blind time (ee59f1b1) and now, 96/110. Mistake 1 named on patchify ("You flattened each
patch channel first, (c, p1, p2) ... (p1, p2, c)"); mistake 2 named on kernel-stride ("a 2-D (H,
W) `image` is read as it is ... its shape unpacked into H, W, C ... `image[..., None]`"). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'kernel-stride': 'op:not_promoted:conv_patch_embed:image-2d-not-promoted'}


def patchify(image, P):
    def _to_hwc(image):
        image = np.asarray(image, dtype=float)
        if image.ndim == 2:
            image = image[..., None]
        if image.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return image

    image = _to_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    gh, gw = H // P, W // P
    patches = image.reshape(gh, P, gw, P, C).transpose(0, 2, 4, 1, 3)
    return patches.reshape(gh * gw, P * P * C)


def conv_patch_embed(image, K, b, stride):
    def k_step_view(x, k, stride):
        from numpy.lib.stride_tricks import as_strided
        # reshapes (H, W, C) -> (H', W', k, k, C) with full data-sharing
        H, W, C = x.shape
        shape = ((H - k) // stride + 1, (W - k) // stride + 1, k, k, C)
        strides = (x.strides[0] * stride, x.strides[1] * stride) + x.strides
        return as_strided(x, shape=shape, strides=strides)

    x = np.ascontiguousarray(image, dtype=float)
    k = K.shape[0]
    if k > x.shape[0] or k > x.shape[1]:
        raise ValueError("kernel larger than image")
    w = k_step_view(x, k, stride)
    return np.einsum("ijabc,abcd->ijd", w, K) + b
