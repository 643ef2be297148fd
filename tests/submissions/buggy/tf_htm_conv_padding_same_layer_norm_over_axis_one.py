"""Blind round 77 (b77_14, issue 38): conv_patch_embed and layer_norm ported from calumroy/tf_htm
`src/simple_extract_image_patches.py` (tf.image.extract_patches with ksizes, strides and
padding).

Mistakes:
1. conv_patch_embed (line 70 of the file as delivered): `padding="SAME"` (ceil(H / stride)
   outputs, zero-padded) instead of a valid convolution: right only where the kernel tiles the
   image exactly (k == stride), wrong for stride 1 with k > 1 and for sizes that do not tile.
2. layer_norm (lines 92-93): the mean and variance over `axis=1` instead of the last axis: the
   same for (T, d) input, wrong for batched (..., T, d) input.
The delivered file's top-level helper `extract_image_patches` is nested in conv_patch_embed
here.

Grader: at blind time (15b4065f) and now, 104/110. Mistake 1 named on kernel-stride ("the image
is zero-padded as TensorFlow's padding='SAME' does"), mistake 2 on layer-norm ("One slip, made
at 2 places ... `np.mean(x, axis=-1, keepdims=True)` taken over axis 1, in effect
`np.mean(x, keepdims=True, axis=1)`, instead of over axis -1"). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:padding:conv_patch_embed:pad-same',
          'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def conv_patch_embed(image, K, b, stride):
    def extract_image_patches(images, ksizes, strides, padding="VALID"):
        """images (H, W, C) -> (rows, cols, k*k*C), like tf.image.extract_patches."""
        H, W, C = images.shape
        kh, kw = ksizes[1], ksizes[2]
        sh, sw = strides[1], strides[2]
        if padding == "SAME":
            out_h = -(-H // sh)
            out_w = -(-W // sw)
            pad_h = max((out_h - 1) * sh + kh - H, 0)
            pad_w = max((out_w - 1) * sw + kw - W, 0)
            images = np.pad(images, ((pad_h // 2, pad_h - pad_h // 2), (pad_w // 2, pad_w - pad_w // 2), (0, 0)))
        else:
            out_h = (H - kh) // sh + 1
            out_w = (W - kw) // sw + 1
        out = np.empty((out_h, out_w, kh * kw * C))
        for r in range(out_h):
            for c in range(out_w):
                out[r, c] = images[r * sh:r * sh + kh, c * sw:c * sw + kw, :].reshape(-1)
        return out

    img = np.asarray(image, dtype=float)
    if img.ndim == 2:
        img = img[..., None]
    k = K.shape[0]
    if k > img.shape[0] or k > img.shape[1]:
        raise ValueError("kernel larger than image")
    patches = extract_image_patches(img, [1, k, k, 1], [1, stride, stride, 1], padding="SAME")
    return patches @ K.reshape(-1, K.shape[-1]) + b


def layer_norm(x, gamma, beta, eps=1e-6):
    # tf.nn.moments over the feature axis
    mean = np.mean(x, axis=1, keepdims=True)
    variance = np.mean((x - mean) ** 2, axis=1, keepdims=True)
    return (x - mean) / np.sqrt(variance + eps) * gamma + beta
