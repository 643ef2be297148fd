"""Blind round 25 (b25_10, issue 38): conv_patch_embed ported from TensorFlow Lite Micro's reference
convolution (tensorflow/lite/kernels/internal/reference/conv.h: loops over out_y, out_x, filter_y,
filter_x with the `is_point_inside_image` test; output sizes from `ComputeOutSize` for VALID
padding), and patch_dim with C=1 as the default (NumPy-only MNIST ViT labs). The student's own
`ComputeOutSize` is nested in conv_patch_embed already.

Mistakes:
1. conv_patch_embed computes the output width from the input height,
   `ComputeOutSize(input_height, filter_width, stride)`: right on square images.
2. patch_dim defaults C to 1 instead of 3.

Grader: at blind time and now, both named: the columns of the output counted from H on
kernel-stride (the hidden random check observes "right when H == W", the kernel-P stride-P check
gives its checklist), and `C` defaulting to 1 on flatten-length. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'flatten-length': 'op:default_changed:patch_dim:C-default-1',
          'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H'}


def patch_dim(P, C=1):
    """Numbers in one flattened patch (grayscale by default, as for MNIST)."""
    return P * P * C


def conv_patch_embed(image, K, b, stride):
    """TFLM reference_ops::Conv, VALID padding, dilation 1, channels last."""
    image = _as_hwc(image)

    def ComputeOutSize(image_size, filter_size, stride):
        return (image_size + stride - filter_size) // stride

    input_height, input_width, input_depth = image.shape
    filter_height, filter_width, filter_input_depth, output_depth = K.shape
    if filter_height > input_height or filter_width > input_width:
        raise ValueError("filter larger than input")
    output_height = ComputeOutSize(input_height, filter_height, stride)
    output_width = ComputeOutSize(input_height, filter_width, stride)
    output = np.zeros((output_height, output_width, output_depth))
    for out_y in range(output_height):
        in_y_origin = out_y * stride
        for out_x in range(output_width):
            in_x_origin = out_x * stride
            total = np.zeros(output_depth)
            for filter_y in range(filter_height):
                in_y = in_y_origin + filter_y
                for filter_x in range(filter_width):
                    in_x = in_x_origin + filter_x
                    is_point_inside_image = (0 <= in_x < input_width) and (0 <= in_y < input_height)
                    if not is_point_inside_image:
                        continue
                    total += image[in_y, in_x, :] @ K[filter_y, filter_x]
            output[out_y, out_x] = total + b
    return output
