"""Blind round 10 (b10_04, issue 38): patchify and the patch embedding ported from MAE
(facebookresearch/mae models_mae.py: patchify's `torch.einsum('nchpwq->nhwpqc', x)` on a batch of
NCHW images; forward_loss's norm_pix_loss `(target - mean) / (var + 1.e-6)**.5`, torch's unbiased var).

Mistakes:
1. patchify takes a 4-D array as a batch and returns all its patches, no ValueError. 4-D input only.
2. linear_patch_embed normalises each patch by its own mean and unbiased variance before @ W_e.
   Every input (the worked example's first coordinate is 0, not 2.5).

Grader: patchify's errors check says "A 4-D array is not one image: raise ValueError." (its
checklist, which is this mistake); the normalised patches, linear-patch-embed's checklist on one
check and no hint on the other two in the blind round, are named since (sequence.standardised).
Since session 14 the batch is observed on the errors check (refusals: "returns a value for a
4-D array: the lecture's for each of its images, one after the other", batch_accepted): an
observation, not a named mistake, so still in unnamed/.
Since session 16 (tiling): the batch is named (tiling.batched: a 4-D array's images stacked, their
patches one image after the other): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:batched:patchify:4d-as-batch',
          'linear-patch-embed': 'op:standardised:linear_patch_embed:standardised-unbiased-before-linear'}


def patchify(image, P):
    """imgs: (N, H, W, C) or one (H, W, C) / (H, W) image -> (L, P**2 * C) (MAE patchify)."""
    imgs = np.asarray(image)
    if imgs.ndim == 2:
        imgs = imgs[:, :, None]
    if imgs.ndim == 3:
        imgs = imgs[None]                          # a batch of one
    imgs = imgs.transpose(0, 3, 1, 2)              # NHWC -> NCHW, MAE's layout
    n, c, H, W = imgs.shape
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not divide {H}x{W}")
    h, w = H // P, W // P
    x = imgs.reshape(n, c, h, P, w, P)
    x = np.einsum('nchpwq->nhwpqc', x)
    return x.reshape(n * h * w, P * P * c)


def linear_patch_embed(image, W_e, b_e, P, norm_pix=True):
    """Patch tokens: the (normalised) patches through the linear map."""
    target = patchify(image, P)
    if norm_pix:
        mean = target.mean(axis=-1, keepdims=True)
        var = target.var(axis=-1, keepdims=True, ddof=1)
        target = (target - mean) / (var + 1.e-6) ** .5
    return target @ W_e + b_e
