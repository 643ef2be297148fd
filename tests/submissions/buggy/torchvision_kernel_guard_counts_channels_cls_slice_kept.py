"""Blind round 18 (b18_01, issue 38): conv_patch_embed and vit_forward ported from
torchvision's models/vision_transformer.py (conv_proj, VisionTransformer.forward's `x = x[:, 0]`).

Mistakes:
1. conv_patch_embed guards the kernel size with `if k > min(image.shape)`, on the image as passed:
   for an (H, W, C) image the channel count is compared too, so a kernel larger than C (k=4 on
   8x8x3, k=2 on (H, W, 1)) raises ValueError although it fits; 2-D images are right.
2. vit_forward keeps torchvision's class-token slice as `x[:1]`: the logits have shape
   (1, num_classes) instead of (num_classes,).
The student's `_to_hwc` helper (the solution's `_as_hwc` but for a float cast the function does
first) is called as `_as_hwc` here: the builder replaces only the solution's own definitions.

Grader: at blind time and now, the extra axis is told exactly ("returns the right values, with an
extra axis of length 1 (a batch axis kept from batched code?)", one_axis_off); the guard gets no
hint: the ValueError's traceback on kernel-stride's call checks and "failed on the inputs this
property gives it" on its property. Not every mistake named.
Since session 14 the slice is named on vit-forward (results.row_as_slice); vit-checkpoint still
observes it (one_axis_off).
Since session 17 the guard is named on kernel-stride (kernel_fit.kernel_fit, weighed by
`checks/kinds/refusals.py` with its probe images: `k > min(image.shape)` on the image as
passed): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:kernel_fit:conv_patch_embed:min-of-given-shape', 'vit-forward': 'op:row_as_slice:vit_forward:x[0]-as-slice'}


def conv_patch_embed(image, K, b, stride):
    # conv_proj: nn.Conv2d(in_channels=3, out_channels=hidden_dim, kernel_size=patch_size, stride=patch_size)
    image = np.asarray(image, dtype=float)
    kernel_size = K.shape[0]
    if kernel_size > min(image.shape):
        raise ValueError(f"kernel {kernel_size} does not fit in image {image.shape}")
    x = _as_hwc(image)
    h, w, c = x.shape
    out_h = (h - kernel_size) // stride + 1
    out_w = (w - kernel_size) // stride + 1
    hidden_dim = K.shape[-1]
    weight = K.reshape(kernel_size * kernel_size * c, hidden_dim)
    out = np.empty((out_h, out_w, hidden_dim))
    for i in range(out_h):
        for j in range(out_w):
            window = x[i * stride:i * stride + kernel_size, j * stride:j * stride + kernel_size, :]
            out[i, j] = window.reshape(-1) @ weight
    return out + b


def vit_forward(image, params):
    x = embed_image(image, params)
    for layer in params["blocks"]:
        x = encoder_block(x, layer, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    # Classifier "token" as used by standard language architectures
    x = x[:1]
    return x @ params["W_head"] + params["b_head"]
