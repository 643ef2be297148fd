"""Blind round 49 (b49_10, issue 38): conv_patch_embed after quarrying/diyconv, diy_conv.py
(`conv2d_with_stride`: `output_height = (input_height - filter_height) // stride_h + 1`, the
output preallocated with `np.empty(...)`), its C++-style six nested loops written out; the
preallocation uses `x.dtype` where the source has `np.float32`.

Mistakes:
1. The output array takes the image's dtype: a uint8 image gives a uint8 output, the float sums
   cut or wrapped. Float images match everywhere.

Grader: at blind time (7e618553) and now, named on kernel-stride: "In `conv_patch_embed`, the result takes
`image`'s dtype (as a buffer made with `np.zeros(..., dtype=image.dtype)` or
`np.zeros_like(image)` does): right for a float `image`, while for integer pixels (uint8, as a
file gives them) the float results are cut to integers. Make the output float.". Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:narrowed:conv_patch_embed:result-in-image-dtype'}


def conv_patch_embed(image, K, b, stride):
    x = _as_hwc(image)
    input_height, input_width, in_channels = x.shape
    filter_height, filter_width, _, out_channels = K.shape
    if filter_height > input_height or filter_width > input_width:
        raise ValueError(f"filter {filter_height}x{filter_width} larger than input {input_height}x{input_width}")
    stride_h = stride_w = stride
    output_height = (input_height - filter_height) // stride_h + 1
    output_width = (input_width - filter_width) // stride_w + 1
    y = np.empty((output_height, output_width, out_channels), x.dtype)
    for oh in range(output_height):
        for ow in range(output_width):
            for oc in range(out_channels):
                acc = b[oc]
                for kh in range(filter_height):
                    for kw in range(filter_width):
                        for ic in range(in_channels):
                            acc += x[oh * stride_h + kh, ow * stride_w + kw, ic] * K[kh, kw, ic, oc]
                y[oh, ow, oc] = acc
    return y
