"""Blind round 55 (b55_03, issue 38): conv_patch_embed ported from a numpy `conv2d(image, kernel)`
loop on HWC images in a CIFAR script (find_string id 35677094068): `image_height, image_width,
num_channels = image.shape`, the output sizes `(H - k) // stride + 1` and `(W - k) // stride + 1`,
a loop over filters, rows, columns and channels.

Mistakes:
1. The shape is unpacked as (H, W, C) straight from the source and the 2-D case is never
   handled: a gray (H, W) image raises `ValueError: not enough values to unpack`, where the API
   takes it as one channel and returns (H', W', d). (H, W, 1) and C > 1 are right, at every
   stride, tiling or not, square or not.

Grader: at blind time (cdc1de9a) and now, named on kernel-stride's "conv_patch_embed for several
kernels and strides" and its hidden check ("In `conv_patch_embed`, a 2-D (H, W) `image` is read
as it is, with no channel axis (its last axis, the width, taken for the channels, or its shape
unpacked into H, W, C): a 2-D image is one channel, (H, W, 1), `image[..., None]`."). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:not_promoted:conv_patch_embed:image-2d-not-promoted'}


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d)."""
    image = np.asarray(image)
    # Getting dimensions
    image_height, image_width, num_channels = image.shape
    kernel_height, kernel_width, _, num_filters = K.shape
    if kernel_height > image_height or kernel_width > image_width:
        raise ValueError("kernel larger than image")

    # Calculating output dimensions
    output_height = (image_height - kernel_height) // stride + 1
    output_width = (image_width - kernel_width) // stride + 1

    # Initializing output feature map
    output = np.zeros((output_height, output_width, num_filters))

    # Performing convolution
    for f in range(num_filters):
        for i in range(output_height):
            for j in range(output_width):
                for c in range(num_channels):
                    r, s = i * stride, j * stride
                    output[i, j, f] += np.sum(image[r:r+kernel_height, s:s+kernel_width, c] * K[:, :, c, f])

    return output + b
