"""Blind round 67 (b67_08, issue 38): conv_patch_embed ported from jonnythebard/jonny_deep_learnings
`extra_snippet/convolution.py` (four loops over output pixel and kernel offset, accumulate input
times kernel), given a stride and the lecture's (k, k, C, d) kernel.

Mistakes:
13. conv_patch_embed (line 97 of the file as delivered): the snippet's `output_image[i, j] +=
    input_image[i-_i, j-_j] * kernel[_i, _j]` kept as `image[i * stride - _i, j * stride - _j] @
    K[_i, _j]`: each window read backwards from its anchor (a textbook convolution's `x[i - k]`,
    the kernel flipped over the window that ends there), the rows and columns before the image's
    start numpy's negative indices, which wrap round to its bottom and right edges. The output's
    size is right, its values are not, for any kernel, stride and image.

Grader: at blind time (35fd1d88) kernel-stride 3/9, its three failed checks (several kernels and
strides, kernel P stride P equals the linear map, hidden) told only their checklists. Now named
by error_model.contractions' `kernel_flipped`, which reads the windows backwards too, with the
student's own line.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:kernel_flipped:conv_patch_embed:windows-read-backwards'}


def conv_patch_embed(image, K, b, stride):
    """Valid convolution (H, W, C) * (k, k, C, d) + b -> (H', W', d)."""
    image = _as_hwc(image)
    INPUT_HEIGHT, INPUT_WIDTH, C = image.shape
    KERNEL_HEIGHT, KERNEL_WIDTH = K.shape[0], K.shape[1]
    if KERNEL_HEIGHT > INPUT_HEIGHT or KERNEL_WIDTH > INPUT_WIDTH:
        raise ValueError(f"kernel {KERNEL_HEIGHT} is larger than the {INPUT_HEIGHT}x{INPUT_WIDTH} image")
    output_height = (INPUT_HEIGHT - KERNEL_HEIGHT) // stride + 1
    output_width = (INPUT_WIDTH - KERNEL_WIDTH) // stride + 1
    output_image = np.zeros((output_height, output_width, K.shape[3]))
    for i in range(0, output_height):
        for j in range(0, output_width):
            for _i in range(0, KERNEL_HEIGHT):
                for _j in range(0, KERNEL_WIDTH):
                    output_image[i, j] += image[i * stride - _i, j * stride - _j] @ K[_i, _j]
    return output_image + b
