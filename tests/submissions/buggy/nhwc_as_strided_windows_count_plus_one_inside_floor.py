"""Blind round 39 (b39_06, issue 38): conv_patch_embed built on the NHWC as_strided get_windows
helper of a numpy/numba conv layer (code-search file id 48110401954: get_windows(input_tensor,
kernel_shape, stride)). The student's helper is nested in conv_patch_embed, as in the file.

Mistakes:
1. conv_patch_embed: the output size is the source's `(height - kernel_height + 1) // stride`
   (and width likewise) instead of (H - k) // stride + 1: one row/column too few unless
   (H - k) % stride == stride - 1 (always right for stride 1, wrong for k = stride = P on a
   tiling image); the windows computed are right.

Grader: at blind time (b589706) and now, named: "the number of window positions is computed as
`(H - k + 1) // stride` where `(H - k) // stride + 1` belongs" on "several kernels and strides"
and the hidden check; the equivalence check (kernel P, stride P) gets the generic checklist.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count_floored:conv_patch_embed:windows-count-floored'}


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d)."""
    from numpy.lib.stride_tricks import as_strided

    def get_windows(input_tensor, kernel_shape, stride):
        """Windows of shape (batch, out_h, out_w, kernel_h, kernel_w, channels_in)."""
        # --- Dimensions ---
        batch_size, height, width, input_channels = input_tensor.shape
        kernel_height, kernel_width, _, output_channels = kernel_shape
        # --- Output Dimensions ---
        output_height = (height - kernel_height + 1) // stride[0]
        output_width = (width - kernel_width + 1) // stride[1]
        batch_stride, height_stride, width_stride, channel_stride = input_tensor.strides
        strides = (
            batch_stride,
            height_stride * stride[0],
            width_stride * stride[1],
            height_stride,
            width_stride,
            channel_stride,
        )
        return as_strided(
            input_tensor,
            shape=(batch_size, output_height, output_width, kernel_height, kernel_width, input_channels),
            strides=strides,
        )

    image = np.ascontiguousarray(_as_hwc(image), dtype=float)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    windows = get_windows(image[None], K.shape, [stride, stride])
    out = np.einsum("bhwijc,ijcd->bhwd", windows, K) + b
    return out[0]
