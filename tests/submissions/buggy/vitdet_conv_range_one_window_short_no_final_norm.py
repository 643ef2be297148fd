"""Blind round 20 (b20_05, issue 38): conv_patch_embed and vit_forward ported from
facebookresearch/detectron2's ViTDet (detectron2/modeling/backbone/vit.py: channels-last
(B, H, W, C) tokens, PatchEmbed as a convolution then permute(0, 2, 3, 1); the backbone has no
final norm). The student's top-level helper `_bhwc` is nested in conv_patch_embed here: the
builder replaces only the solution's own definitions.

Mistakes:
1. conv_patch_embed's window loop runs `for i in range(0, H - k, stride)` (and likewise for the
   columns): the last output row / column is dropped whenever stride divides H - k (always with
   stride 1, and for tiling patches with stride = k).
2. vit_forward applies no final LayerNorm before the head (ViTDet's backbone returns its last
   block's output unnormalised): ln_g, ln_b are ignored.

Grader: at blind time and now, both named: conv_last_window_dropped ("one row or column short")
and vit_final_ln_skipped; kernel-stride's linear-map check gives its checklist, vit-checkpoint
observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_last_window_dropped', 'vit-forward': 'vit_final_ln_skipped'}


def conv_patch_embed(image, K, b, stride):
    def _bhwc(image):
        x = np.asarray(image)
        if x.ndim == 2:
            x = x[..., None]
        if x.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return x

    x = _bhwc(image)
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel_size larger than the input")
    rows = []
    for i in range(0, H - k, stride):
        cols = []
        for j in range(0, W - k, stride):
            cols.append(np.einsum("hwc,hwcd->d", x[i:i + k, j:j + k], K) + b)
        rows.append(cols)
    return np.asarray(rows, dtype=float).reshape(len(rows), -1, K.shape[-1])


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    return x[0] @ params["W_head"] + params["b_head"]
