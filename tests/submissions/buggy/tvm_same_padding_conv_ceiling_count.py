"""Blind round 24 (b24_12, issue 38): num_patches and conv_patch_embed ported from Apache TVM's topi
(`get_pad_tuple("SAME", kernel)`: pad_h = kernel - 1, whatever the stride, and `conv2d_nhwc` with
an HWIO kernel), padding="SAME" by default. The student's top-level helper `get_pad_tuple` is
nested in both functions here: the builder replaces only the solution's own definitions.

Mistakes:
1. num_patches counts with SAME padding, `(H - P + P - 1) // P + 1`: rounds up and never raises.
2. conv_patch_embed zero-pads by k - 1 (k // 2 at the top and left) before the convolution.

Grader: at blind time the count was named and the padding got only the kernel-P stride-P check's
checklist (no hint on the two direct conv checks); now both named: rounded up on patch-count, and
the image zero-padded by k - 1 rows and columns whatever the stride (TVM's get_pad_tuple, since
52f7c42) on kernel-stride. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'ceiling_count',
          'kernel-stride': 'op:padding:conv_patch_embed:pad-kernel-less-one'}


def num_patches(H, W, P, padding="SAME"):
    def get_pad_tuple(padding, kernel):
        """topi.nn.utils.get_pad_tuple"""
        if padding == "VALID":
            return 0, 0, 0, 0
        if padding == "SAME":
            pad_h, pad_w = kernel[0] - 1, kernel[1] - 1
        else:
            raise ValueError(padding)
        pad_top = (pad_h + 1) // 2
        pad_left = (pad_w + 1) // 2
        return pad_top, pad_left, pad_h - pad_top, pad_w - pad_left

    pad_top, pad_left, pad_down, pad_right = get_pad_tuple(padding, (P, P))
    out_height = (H - P + pad_top + pad_down) // P + 1
    out_width = (W - P + pad_left + pad_right) // P + 1
    return out_height * out_width


def conv_patch_embed(image, K, b, stride, padding="SAME"):
    """topi.nn.conv2d_nhwc, HWIO kernel."""
    def get_pad_tuple(padding, kernel):
        """topi.nn.utils.get_pad_tuple"""
        if padding == "VALID":
            return 0, 0, 0, 0
        if padding == "SAME":
            pad_h, pad_w = kernel[0] - 1, kernel[1] - 1
        else:
            raise ValueError(padding)
        pad_top = (pad_h + 1) // 2
        pad_left = (pad_w + 1) // 2
        return pad_top, pad_left, pad_h - pad_top, pad_w - pad_left

    Input = _as_hwc(image)
    kernel_h, kernel_w, in_channel, num_filter = K.shape
    in_height, in_width, _ = Input.shape
    if kernel_h > in_height or kernel_w > in_width:
        raise ValueError(f"kernel {kernel_h} is larger than the {in_height}x{in_width} image")
    pad_top, pad_left, pad_down, pad_right = get_pad_tuple(padding, (kernel_h, kernel_w))
    out_height = (in_height - kernel_h + pad_top + pad_down) // stride + 1
    out_width = (in_width - kernel_w + pad_left + pad_right) // stride + 1
    PaddedInput = np.pad(Input, ((pad_top, pad_down), (pad_left, pad_right), (0, 0)))
    Output = np.zeros((out_height, out_width, num_filter))
    for yy in range(out_height):
        for xx in range(out_width):
            win = PaddedInput[yy * stride:yy * stride + kernel_h, xx * stride:xx * stride + kernel_w, :]
            Output[yy, xx] = np.einsum("ijc,ijcf->f", win, K)
    return Output + b
