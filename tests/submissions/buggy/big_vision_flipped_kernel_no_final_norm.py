"""Blind round 9 (b9_09, issue 38): a submission ported from google-research/big_vision
models/vit.py (flax).

Mistakes:
1. conv_patch_embed: the kernel is flipped (K[::-1, ::-1]) as in the textbook / scipy
   convolve2d definition, while flax nn.Conv, lax.conv and torch conv2d are
   cross-correlations. Shows whenever k > 1 and the kernel is not symmetric.
   Sources: PyTorch forums "Functional Conv2d Produces Different Results VS Scipy
   Convolved2d" (Sam Gross: frameworks implement cross-correlation); errorhandle.ai
   "convolutional layers convolve the wrong way around"; andrescastro-itm/IA_ITM_2025-2
   correlate2d vs convolve2d notebook.
2. vit_forward: no final LayerNorm before the head. In big_vision the norm sits inside the
   Encoder module (`encoder_norm`), and the port of `_Model.__call__` only loops the blocks
   then pools. Shows on every input.
   Sources: big_vision models/vit.py (Encoder ... encoder_norm); lucidrains/vit-pytorch
   PR #274 (where the final LayerNorm goes); google-research/vision_transformer models.

Grader: both named: conv_kernel_flipped ("You flipped the kernel"; the kernel-P property gives
its checklist) and vit_final_ln_skipped ("The head reads tokens that did not go through the
final LayerNorm").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_kernel_flipped',
          'vit-forward': 'vit_final_ln_skipped'}


def conv_patch_embed(image, K, b, stride):
    """nn.Conv(features=d, kernel_size=(k, k), strides=stride, padding='VALID'), in numpy."""
    x = _as_hwc(image)
    k = K.shape[0]
    H, W, C = x.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    kernel = K[::-1, ::-1]                       # convolution: flip the kernel spatially
    Hp, Wp = (H - k) // stride + 1, (W - k) // stride + 1
    out = np.empty((Hp, Wp, K.shape[-1]))
    for i in range(Hp):
        for j in range(Wp):
            patch = x[i * stride:i * stride + k, j * stride:j * stride + k]
            out[i, j] = np.einsum("hwc,hwcd->d", patch, kernel)
    return out + b


def vit_forward(image, params):
    """big_vision _Model.__call__: stem, + posemb, [cls], Encoder, pool_type='tok', head."""
    x = embed_image(image, params)
    for block in params["blocks"]:               # Encoder: encoderblock_{lyr}
        x = encoder_block(x, block, params["heads"])
    x = x[0]                                     # pool_type == "tok"
    return x @ params["W_head"] + params["b_head"]
