"""Blind round 37 (b37_03, issue 38): shilu10/Swin-Transformer-TF2, swin_tiny/layers/patch_embed.py
(PatchEmbed: patches_resolution, Conv2D(kernel_size=patch_size, strides=patch_size),
tf.reshape).

Mistakes:
1. `num_patches`: patches_resolution = [H // P, W // P], then their product: it floors and never
   raises ValueError (so num_tokens does not either).
2. `linear_patch_embed`: the source's Conv2D(kernel = stride = P), i.e. conv_patch_embed with
   K = W_e.reshape(P, P, C, d), then a reshape: the convolution floors, so a size that does not
   tile is cropped silently instead of raising ValueError.

Grader: at blind time (273cad6) and now, both named: "You returned (H // P) * (W // P): floor
division silently drops the pixels" on patch-count; on linear-patch-embed "2 mistakes at once:
(1) ... there is no tiling test ... (2) ... the image is cropped to the patches that fit before
it is cut" (both true of the port; the key counts them as one). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'linear-patch-embed': 'op:tiling:linear_patch_embed/patchify:none'
                                '+op:cropped:linear_patch_embed/patchify:image-cropped-to-tile'}


def num_patches(H, W, P):
    img_size = (H, W)
    patch_size = (P, P)
    patches_resolution = [img_size[0] // patch_size[0], img_size[1] // patch_size[1]]
    return patches_resolution[0] * patches_resolution[1]


def linear_patch_embed(image, W_e, b_e, P):
    # self.proj = Conv2D(filters=embed_dim, kernel_size=patch_size, strides=patch_size)
    image = _as_hwc(image)
    H, W, C = image.shape
    embed_dim = W_e.shape[1]
    kernel = W_e.reshape(P, P, C, embed_dim)
    x = conv_patch_embed(image, kernel, b_e, P)
    x = np.reshape(x, [(H // P) * (W // P), embed_dim])
    return x
