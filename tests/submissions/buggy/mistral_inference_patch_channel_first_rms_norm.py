"""Blind round 62 (b62_07, issue 38): patchify and layer_norm ported from mistralai/mistral-inference
`src/mistral_inference/vision_encoder.py` (VisionTransformer.forward: the image as c h w for
patch_conv, the "c h w -> (h w) c" flatten) and `src/mistral_inference/transformer_layers.py`
(RMSNorm, given gamma and beta).

Mistakes:
9. patchify (lines 32 and 37 of the file as delivered): the image moved to c h w and each patch
   flattened in (c, p1, p2) order (the conv weight's layout), not (p1, p2, c). Wrong only when
   C > 1 (gray images are right); linear_patch_embed, embed_image and vit_forward inherit it.
10. layer_norm (line 82): RMSNorm, `x / sqrt(mean(x**2) + eps)` then gamma and beta: no mean
    taken away. Wrong for any row whose mean is not 0; encoder_block and vit_forward inherit it.

Grader: at blind time (90d6c97e) and now, 94/110, both named. Mistake 9 on patchify's RGB and
random checks ("You flattened each patch channel first, (c, p1, p2). ... inside a patch the order
is row, column, channel, (p1, p2, c)"). Mistake 10 on layer-norm's small, eps and random checks
("In `layer_norm`, the statistics are taken about zero, as RMSNorm (T5, LLaMA) takes them: no mean
taken away ...") and by the shift property's checklist (mean_not_subtracted); vit-checkpoint
observes patchify and layer_norm. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'layer-norm': 'op:norm:layer_norm:rms-norm'}
ALIASES = ('mean_not_subtracted',)  # the shift property's verdict on mistake 10


def patchify(image, P):
    img = np.asarray(image)
    if img.ndim == 2:
        img = img[None]                       # c h w
    elif img.ndim == 3:
        img = img.transpose(2, 0, 1)          # h w c -> c h w
    else:
        raise ValueError("images are (H, W) or (H, W, C)")
    c, h, w = img.shape
    num_patches(h, w, P)
    p = img.reshape(c, h // P, P, w // P, P).transpose(1, 3, 0, 2, 4)
    return p.reshape((h // P) * (w // P), c * P * P)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    output = x * (1.0 / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps))
    return output * gamma + beta
