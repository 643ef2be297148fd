"""Blind round 45 (b45_04, issue 38): conv_patch_embed ported from awp4211/DLAdvance,
dcgan/utils.py (`conv_out_size_same(size, stride) = ceil(size / stride)`) and the
tf.nn.conv2d(..., padding='SAME') convolution it sizes, as a numpy loop over the output.

Mistakes:
1. TensorFlow's 'SAME' zero padding, ceil(H / stride) outputs, where the lecture's convolution
   is valid, (H - k) // stride + 1 outputs: H=7, k=s=2 gives (4, 4, d) for (3, 3, d); right
   when the windows tile the image.
2. A kernel larger than the image is never refused: the image is padded up to it, so a
   (2, 5, 1) image with k=3 returns (2, 5, d) where ValueError is asked for.

Grader: at blind time (fe6e9573), mistake 1 named ("the image is zero-padded as TensorFlow's
padding='SAME' does: ceil(H / stride) outputs, ...") on "several kernels and strides" and the
hidden check; mistake 2 only observed, by its refusal check's checklist ("A 3x3 kernel does not
fit in a 2-pixel-high image: raise ValueError."). Since name45a both named: the padding as
before, and on the refusal check the pair of kernel_fit's kernel-untested-windows-taken with
the padding another check named ("2 mistakes at once: (1) ... nothing tests that the kernel fits
the image as it is given ... (2) ... zero-padded as TensorFlow's padding='SAME' does ...").
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:kernel_untested:conv_patch_embed:kernel-untested-windows-taken'
                           '+op:padding:conv_patch_embed:pad-same'}


def conv_patch_embed(image, K, b, stride):
    """Cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d)."""

    def conv_out_size_same(size, stride):
        return int(math.ceil(float(size) / float(stride)))

    image = _as_hwc(image)
    H, W, C = image.shape
    k_h, k_w, _, d = K.shape
    out_h = conv_out_size_same(H, stride)
    out_w = conv_out_size_same(W, stride)
    # padding like tf.nn.conv2d(..., padding='SAME'): the extra row/column goes at the bottom/right
    pad_h = max((out_h - 1) * stride + k_h - H, 0)
    pad_w = max((out_w - 1) * stride + k_w - W, 0)
    pad_top, pad_left = pad_h // 2, pad_w // 2
    x = np.pad(image, ((pad_top, pad_h - pad_top), (pad_left, pad_w - pad_left), (0, 0)))
    out = np.zeros((out_h, out_w, d))
    for i in range(out_h):
        for j in range(out_w):
            window = x[i * stride:i * stride + k_h, j * stride:j * stride + k_w, :]
            out[i, j] = np.tensordot(window, K, axes=3)
    return out + b
