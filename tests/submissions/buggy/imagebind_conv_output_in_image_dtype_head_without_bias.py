"""Blind round 58 (b58_10, issue 38): conv_patch_embed and vit_forward ported from
facebookresearch/ImageBind `imagebind/models/multimodal_preprocessors.py` (PatchEmbedGeneric) and
`imagebind/models/imagebind_model.py` (the vision head: LayerNorm, SelectElement(index=0),
`nn.Linear(..., bias=False)`). The student's `_hwc` (top-level in the file) is nested in
conv_patch_embed here: the builder replaces only the solution's own definitions.

Mistakes:
16. conv_patch_embed (line 57 of the file as delivered) allocates its output with
    `np.zeros_like(img, shape=...)`, which takes the image's dtype: on an integer image (uint8)
    the results are truncated and wrap. Float images are right.
17. vit_forward (line 129) returns `x @ W_head` with no `b_head` (ImageBind's head has
    `bias=False`). Wrong whenever b_head != 0.

Grader: at blind time (ba46f523) and now, 96/110, both named. Mistake 16 on kernel-stride's
"several kernels and strides" check ("In `conv_patch_embed`, the result takes `image`'s dtype (as
a buffer made with `np.zeros(..., dtype=image.dtype)` or `np.zeros_like(image)` does) ... Make the
output float."). Mistake 17 on vit-forward's two checks ("In `vit_forward` (at the model
solution's step `linear(x[0], params['W_head'], params['b_head'])`), the bias `b` is left out of
`x @ W + b`."); vit-checkpoint observes vit_forward. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:narrowed:conv_patch_embed:result-in-image-dtype',
          'vit-forward': 'op:term:vit_forward/linear:drop-b'}


def conv_patch_embed(image, K, b, stride):
    """Convolve an (H, W, C) image with a (k, k, C, d) kernel: (H', W', d)."""
    def _hwc(img):
        img = np.asarray(img)
        if img.ndim == 2:
            img = img[..., None]
        if img.ndim != 3:
            raise ValueError("expected (H, W) or (H, W, C)")
        return img

    img = _hwc(image)
    H, W, C = img.shape
    k, embed_dim = K.shape[0], K.shape[-1]
    if k > H or k > W:
        raise ValueError("kernel_size larger than input")
    Ho = (H - k) // stride + 1
    Wo = (W - k) // stride + 1
    x = np.zeros_like(img, shape=(Ho, Wo, embed_dim))
    for i in range(Ho):
        for j in range(Wo):
            x[i, j] = np.tensordot(img[i * stride:i * stride + k, j * stride:j * stride + k], K, 3) + b
    return x


def vit_forward(image, params):
    """Class logits of one image."""
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    # vision head
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x[0]
    return x @ params["W_head"]
