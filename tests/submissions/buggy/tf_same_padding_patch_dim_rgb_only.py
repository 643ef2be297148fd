"""Blind round 4 (b4_09, issue 38), a TensorFlow-minded port with two mistakes: patch_dim returns
P * P * 3, the channel count fixed to RGB whatever C is (named: C taken as its default);
conv_patch_embed pads like tf.nn.conv2d(padding='SAME'): ceil(H / stride) x ceil(W / stride)
outputs over an image zero-padded at the bottom and right, right only when the windows tile
the image exactly (k == stride dividing H and W), too many rows and columns otherwise (k=3,
stride=1). The padding is named too (zero-padded to TensorFlow's 'SAME' count, at the bottom
and right).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'flatten-length': 'op:default:patch_dim:C-as-default',
          'kernel-stride': 'op:padding:conv_patch_embed:pad-same-end'}


def patch_dim(P, C=3):
    """Length of a flattened RGB patch."""
    return P * P * 3


def conv_patch_embed(image, K, b, stride):
    """tf.nn.conv2d(image, K, strides=stride, padding='SAME') + b for one image."""
    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[:, :, np.newaxis]
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    out_h = -(-H // stride)
    out_w = -(-W // stride)
    pad_h = max((out_h - 1) * stride + k - H, 0)
    pad_w = max((out_w - 1) * stride + k - W, 0)
    padded = np.pad(image, ((0, pad_h), (0, pad_w), (0, 0)))
    out = np.empty((out_h, out_w, K.shape[-1]))
    for r in range(out_h):
        for c in range(out_w):
            win = padded[r * stride:r * stride + k, c * stride:c * stride + k]
            out[r, c] = np.tensordot(win, K, axes=3) + b
    return out
