"""Blind round 6 (b6_15, issue 38): conv_patch_embed as a "true" convolution (the kernel flipped, as
scipy.signal.convolve2d and textbook convolution do), and vit_forward that indexes the first
block every time.

Mistakes:
1. conv_patch_embed: flips the kernel spatially (K[::-1, ::-1]), a convolution instead of the
   cross-correlation. Shows whenever the kernel is not symmetric under a 180-degree rotation.
2. vit_forward: applies params["blocks"][0] depth times (for i in range(len(blocks)): blocks[0]).
   Shows only with two or more blocks.

Grader: Both are named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_kernel_flipped', 'vit-forward': 'op:loop:vit_forward:block-first'}


def conv_patch_embed(image, K, b, stride):
    """Valid 2-D convolution, stride `stride`, via an im2col matrix."""
    image = _as_hwc(image)
    H, W, C = image.shape
    k, _, _, d = K.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    Ho, Wo = (H - k) // stride + 1, (W - k) // stride + 1
    kernel = K[::-1, ::-1]                       # convolution flips the kernel
    cols = np.stack([image[i * stride:i * stride + k, j * stride:j * stride + k].ravel()
                     for i in range(Ho) for j in range(Wo)])
    return (cols @ kernel.reshape(-1, d) + b).reshape(Ho, Wo, d)


def vit_forward(image, params):
    """Logits (num_classes,)."""
    x = embed_image(image, params)
    blocks = params["blocks"]
    for i in range(len(blocks)):
        x = encoder_block(x, blocks[0], params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
