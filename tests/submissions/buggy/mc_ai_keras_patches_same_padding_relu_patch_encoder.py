"""Blind round 72 (b72_04, issue 38): patchify (with its `_extract_patches`) and
linear_patch_embed (with its `_relu`) ported from sudharshan2001/MC-AI-kaggle `utils.py` (Keras
`Patches` with `tf.image.extract_patches(padding='SAME')`, `PatchEncoder`'s Dense with
`activation=tf.nn.relu`).

Mistakes:
1. patchify (line 66 of the file as delivered, `padding="SAME"` in `_extract_patches`, lines
   41-46): an image that P does not tile is zero-padded (TF's SAME split, the odd row or
   column at the bottom or right) instead of raising ValueError. Wrong on non-tiling images
   only (num_patches itself still raises).
2. linear_patch_embed (line 80): `return _relu(patch @ W_e + b_e)`, ReLU on the patch
   projection (the source's Dense activation). Wrong whenever a projected value is negative.
The delivered file's top-level helpers `_extract_patches` (conv_patch_embed uses it too, with
padding="VALID") and `_relu` are nested here.

Grader: at blind time (2df48139) and now, 96/110. Mistake 1 named on patchify ("In `patchify`,
the image is zero-padded evenly on both sides, the odd row or column at the bottom or right, to
a multiple of `P` before it is cut (vintage-models' PatchConverter), ... raise ValueError
instead of padding"); mistake 2 named on linear-patch-embed ("In `linear_patch_embed`, the
linear map's output ... goes through ReLU before it is returned, as in a layer built with its
activation, Keras' `Dense(n, activation='relu')` ... Return them without it."). At blind time the patchify hint
credited the code to a library the student did not use ("(vintage-models' PatchConverter)", the
judge's wrong hint 4, minor); now such a credit is said as a comparison, "as some libraries do
(vintage-models' PatchConverter)" (the error model's sentences, 855463cc). vit-checkpoint runs the
broken linear_patch_embed and says so.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:padded:patchify:image-padded-evenly-to-tile',
          'linear-patch-embed': 'op:stem_activation:linear_patch_embed:result-through-relu'}


def patchify(image, P):
    def _extract_patches(images, sizes, strides, padding="SAME"):
        """numpy stand-in for tf.image.extract_patches (rates 1), images (H, W, C)."""
        H, W, C = images.shape
        kh, kw = sizes
        sh, sw = strides
        if padding == "SAME":
            out_h, out_w = -(-H // sh), -(-W // sw)
            pad_h = max((out_h - 1) * sh + kh - H, 0)
            pad_w = max((out_w - 1) * sw + kw - W, 0)
            images = np.pad(images, ((pad_h // 2, pad_h - pad_h // 2),
                                     (pad_w // 2, pad_w - pad_w // 2), (0, 0)))
        else:
            out_h, out_w = (H - kh) // sh + 1, (W - kw) // sw + 1
        patches = np.empty((out_h, out_w, kh * kw * C))
        for i in range(out_h):
            for j in range(out_w):
                patches[i, j] = images[i * sh:i * sh + kh, j * sw:j * sw + kw, :].reshape(-1)
        return patches

    images = np.asarray(image, dtype=float)
    if images.ndim == 2:
        images = images[..., None]
    if images.ndim != 3:
        raise ValueError("expected an (H, W) or (H, W, C) image")
    patches = _extract_patches(
        images=images,
        sizes=[P, P],
        strides=[P, P],
        padding="SAME",
    )
    patch_dims = patches.shape[-1]
    patches = np.reshape(patches, [-1, patch_dims])
    return patches


def linear_patch_embed(image, W_e, b_e, P):
    def _relu(x):
        return np.maximum(x, 0)

    # PatchEncoder.projection = Dense(units=projection_dim, activation=tf.nn.relu)
    patch = patchify(image, P)
    return _relu(patch @ W_e + b_e)
