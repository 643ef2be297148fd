"""Blind round 59 (b59_12, issue 38): patchify and conv_patch_embed ported from
facebookresearch/dino `vision_transformer.py` (PatchEmbed; VisionTransformer.prepare_tokens'
`B, nc, w, h = x.shape` naming carried over to an (H, W, C) image). The student's top-level
`_image` is nested in patchify and conv_patch_embed here: the builder replaces only the
solution's own definitions.

Mistakes:
19. patchify (lines 43-47 of the file as delivered): `w, h, nc = x.shape`, so `w` is the height,
    then `reshape(h0, P, w0, P, nc)` takes the width's grid count for the rows. Wrong only when
    H != W (square images agree); linear_patch_embed, embed_image and vit_forward inherit it.
20. conv_patch_embed (lines 58-67): the same naming; the output is allocated `(h0, w0, d)` and
    the loops take the row count from the width. Wrong only when H != W: the wrong shape, or
    ValueError (truncated windows).

Grader: at blind time (528b2ec3), 98/110. Mistake 19 named on patchify ("In `patchify`, ...
`image.reshape(H // P, P, W // P, P, C)` is given ... `H // P` and ... `W // P` the other way
round"). Mistake 20 only observed on kernel-stride ("Your `conv_patch_embed` is right when
H == W, and raises ValueError for a 5 x 6 image: use H and W each where they belong"; the
equivalence check "failed on the inputs this property gives it"). A hint would say that
`w, h, nc = x.shape` makes `w` the height, so the output is allocated `(h0, w0)` and the loops
run the rows over the width's count, as its patchify hint says. Named since (round 59's mends:
error_model/grid_sides.py, "`w, h, nc = x.shape` reads the image's height as its width") on
kernel-stride's two conv checks: moved from unnamed/ to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped',
          'kernel-stride': 'op:grid_swapped:conv_patch_embed:windows-grid-sides-swapped-tensordot'}


def patchify(image, P):
    def _image(x):
        x = np.asarray(x)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return x

    x = _image(image)
    w, h, nc = x.shape
    num_patches(w, h, P)
    w0 = w // P
    h0 = h // P
    x = x.reshape(h0, P, w0, P, nc).transpose(0, 2, 1, 3, 4)
    return x.reshape(w0 * h0, P * P * nc)


def conv_patch_embed(image, K, b, stride):
    """PatchEmbed.proj = nn.Conv2d(in_chans, embed_dim, kernel_size, stride) on one image."""
    def _image(x):
        x = np.asarray(x)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return x

    x = _image(image).astype(float)
    w, h, nc = x.shape
    kernel_size = K.shape[0]
    if kernel_size > w or kernel_size > h:
        raise ValueError("kernel larger than the image")
    w0 = (w - kernel_size) // stride + 1
    h0 = (h - kernel_size) // stride + 1
    embed_dim = K.shape[-1]
    out = np.zeros((h0, w0, embed_dim))
    for i in range(h0):
        for j in range(w0):
            patch = x[i * stride:i * stride + kernel_size, j * stride:j * stride + kernel_size, :]
            out[i, j] = np.tensordot(patch, K, axes=3) + b
    return out
