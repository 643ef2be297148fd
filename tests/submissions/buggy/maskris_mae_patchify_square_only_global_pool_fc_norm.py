"""Blind round 71 (b71_14, issue 38): patchify and vit_forward ported from naver-ai/maskris
`util/aug_mask.py` (MAE's patchify) and aicip/SatMAE `models_vit.py` (global_pool's fc_norm).

Mistakes:
1. patchify (lines 47-51 of the file as delivered): MAE's assertion `imgs.shape[2] ==
   imgs.shape[3]` as a ValueError, and `h = w = H // p`: every valid non-square image (8x12,
   P=4) is refused. Square images are right, 2-D or of any C.
2. vit_forward (lines 134-135): MAE fine-tuning's `global_pool`: the mean of the patch tokens
   `x[1:]` (no [CLS]), then the final norm (fc_norm) on that pooled row, instead of the final
   layer_norm and then row 0. Wrong on every image.
The delivered file's top-level helper `_to_chw` is nested here.

Grader: at blind time (3f040026) and now, 92/110. Mistake 1 named on patchify ("In `patchify`, a
non-square image (H != W) is refused (an error is raised for it)"); mistake 2 named on vit-forward
(at blind time "In `vit_forward`, `layer_norm(...)` comes after a pooling: `x[0]` is read as
`x[1:].mean(axis=0)`"; now: "In `vit_forward`, the model solution's `x[0]` is read as
`x[1:].mean(axis=0)` ... and that order is no part of the mistake"). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:guarded:patchify:non-square-refused',
          'vit-forward': 'op:pool_before_step:vit_forward:x[0]-mean-after-before-layer_norm'}


def patchify(image, P):
    """
    image: (H, W, C)
    x: (L, patch_size**2 * C)
    """
    def _to_chw(img):
        img = np.asarray(img, dtype=float)
        if img.ndim == 2:
            img = img[None]
        elif img.ndim == 3:
            img = img.transpose(2, 0, 1)
        else:
            raise ValueError("img must be (H, W) or (H, W, C)")
        return img

    imgs = _to_chw(image)
    p = P
    if not (imgs.shape[1] == imgs.shape[2] and imgs.shape[1] % p == 0):
        raise ValueError(f"image {imgs.shape[1]}x{imgs.shape[2]} cannot be patchified with p={p}")

    c = imgs.shape[0]
    h = w = imgs.shape[1] // p
    x = imgs.reshape(c, h, p, w, p)
    x = np.einsum('chpwq->hwpqc', x)
    x = x.reshape(h * w, p ** 2 * c)
    return x


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params['blocks']:
        x = encoder_block(x, blk, params['heads'])
    x = x[1:, :].mean(axis=0)  # global pool without cls token
    outcome = layer_norm(x, params['ln_g'], params['ln_b'])  # fc_norm
    return outcome @ params['W_head'] + params['b_head']
