"""Blind round 50 (b50_05, issue 38): conv_patch_embed ported from soyail/Cuda_Practice,
Convolution/conv2d_cpu.cc (the naive C loops, `in_x = x*stride + kx`, `in_y = y*stride + ky`,
with their bounds check), extended to C_in and C_out; the output buffer has the input's type, as
the C code's does.

Mistakes:
1. `output = np.zeros(..., dtype=image.dtype)`: a uint8 image gives a uint8 output, every sum
   cut or wrapped into 0..255. Float images are right.
2. `input_height, input_width, in_channels = image.shape` with no 2-D handling: a gray (H, W)
   image raises ValueError where the API treats it as one channel.

Grader: at blind time (593126bb) and now, both named on kernel-stride: "2 mistakes at once: (1)
In `conv_patch_embed`, the result takes `image`'s dtype (as a buffer made with `np.zeros(...,
dtype=image.dtype)` or `np.zeros_like(image)` does): right for a float `image`, while for integer
pixels (uint8, as a file gives them) the float results are cut to integers. Make the output
float. (2) In `conv_patch_embed`, a 2-D (H, W) `image` is read as it is, with no channel axis
(its last axis, the width, taken for the channels, or its shape unpacked into H, W, C): a 2-D
image is one channel, (H, W, 1), `image[..., None]`." (the hidden check names (2) alone). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:narrowed:conv_patch_embed:result-in-image-dtype'
                           '+op:not_promoted:conv_patch_embed:image-2d-not-promoted'}


def conv_patch_embed(image, K, b, stride):
    input_height, input_width, in_channels = image.shape
    kernel_size = K.shape[0]
    out_channels = K.shape[3]
    if kernel_size > input_height or kernel_size > input_width:
        raise ValueError(f"kernel {kernel_size} is larger than the {input_height}x{input_width} image")
    output_height = (input_height - kernel_size) // stride + 1
    output_width = (input_width - kernel_size) // stride + 1
    output = np.zeros((output_height, output_width, out_channels), dtype=image.dtype)

    for y in range(output_height):
        for x in range(output_width):
            for o in range(out_channels):
                result = b[o]
                for ky in range(kernel_size):
                    for kx in range(kernel_size):
                        in_x = x * stride + kx
                        in_y = y * stride + ky
                        if 0 <= in_x < input_width and 0 <= in_y < input_height:
                            result += np.dot(image[in_y, in_x, :], K[ky, kx, :, o])
                output[y, x, o] = result
    return output
