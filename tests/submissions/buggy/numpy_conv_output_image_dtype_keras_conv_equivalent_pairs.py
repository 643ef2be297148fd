"""Blind round 53 (b53_06, issue 38): conv_patch_embed ported from a numpy `conv2d(input, kernel,
stride, padding)` on (H, W, C) (find_string id 6462120776: loops, one kernel at a time, `output =
np.zeros(..., dtype=input.dtype)`); conv_equivalent from Keras' `Conv2D(d_model, (patch_size,
patch_size), strides=(patch_size, patch_size), padding='valid')` (find_string id 28209704360).

Mistakes:
1. conv_patch_embed's output buffer takes the image's dtype: on uint8 images every float sum
   (often negative or fractional) is cast into uint8 (187 where -581.6 is right). Float images,
   gray, C > 1 and strides that don't tile are right; the `k > H` guard is there.
2. `conv_equivalent(P)` returns Keras' pair of tuples `((P, P), (P, P))` where the API wants two
   integers, (P, P): wrong for every P.

Grader: at blind time (0ec6739e) and now, both named on kernel-stride: M1 ("In `conv_patch_embed`,
the result takes `image`'s dtype (as a buffer made with `np.zeros(..., dtype=image.dtype)` or
`np.zeros_like(image)` does): right for a float `image`, while for integer pixels (uint8, as a file
gives them) the float results are cut to integers (and wrapped into 0..255 for uint8). Make the
output float."), M2 ("In `conv_equivalent`, each number of the result `(P, P)` is written as a
(height, width) pair, `((P, P), (P, P))`, as Keras' `kernel_size=(P, P), strides=(P, P)` and
PyTorch's `_pair` take them: the result is one number each, the same in both directions for a square
patch."). Every mistake named, so in buggy/. (EXPECT keeps one name per exercise: kernel-stride
names M1 on its conv_patch_embed check and op:sizes_as_pairs:conv_equivalent:each-as-a-pair on its
conv_equivalent checks.)
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:narrowed:conv_patch_embed:result-in-image-dtype'}


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d).

    out[i, j] = sum(image[i*stride:i*stride+k, j*stride:j*stride+k, :] * K) + b, with
    H' = (H - k)//stride + 1 and W' likewise. Practice 7: with K = W_e.reshape(P, P, C, d) and
    stride P it equals linear_patch_embed. ValueError when k exceeds H or W.
    """
    input = _as_hwc(image)
    padding = 0
    input_padded = np.pad(
        input,
        ((padding, padding), (padding, padding), (0, 0)),
        mode="constant",
    )

    input_height, input_width, _ = input_padded.shape
    kernel_height, kernel_width, _, num_kernels = K.shape
    if kernel_height > input_height or kernel_width > input_width:
        raise ValueError(f"kernel {kernel_height} is larger than the {input_height}x{input_width} image")

    output_height = (input_height - kernel_height) // stride + 1
    output_width = (input_width - kernel_width) // stride + 1

    output = np.zeros((output_height, output_width, num_kernels), dtype=input.dtype)

    for k in range(num_kernels):
        for y in range(0, output_height):
            for x in range(0, output_width):
                output[y, x, k] = np.sum(
                    input_padded[
                        y * stride : y * stride + kernel_height,
                        x * stride : x * stride + kernel_width,
                    ]
                    * K[..., k]
                ) + b[k]

    return output


def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map (Practice 7)."""
    patch_size = P
    # Conv2D(d_model, (patch_size, patch_size), strides=(patch_size, patch_size), padding='valid')
    kernel_size = (patch_size, patch_size)
    strides = (patch_size, patch_size)
    return kernel_size, strides
