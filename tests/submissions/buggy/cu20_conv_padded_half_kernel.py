"""Blind round 79 (b79_13, issue 38): conv_patch_embed ported from cu20/pytorch `8_nn._conv.py`
(conv2d with stride and the example's padding=1).

Mistakes:
1. conv_patch_embed (line 69 of the file as delivered): the image zero-padded by k // 2 on
   every side instead of a valid convolution: (H + 2 * (k // 2) - k) // stride + 1 rows, 3x4
   instead of 2x3 for an 8x12 image with k = stride = 4. Wrong for every k >= 2.
The delivered file's top-level helpers `reshape_image` and `conv2d` are nested in
conv_patch_embed here.

Grader: at blind time (50c6c808) and now, 104/110, named on kernel-stride ("In
`conv_patch_embed`, the image is zero-padded by k // 2 on every side ... the lecture's
convolution is valid, without padding"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:padding:conv_patch_embed:pad-half-kernel'}


def conv_patch_embed(image, K, b, stride):
    def reshape_image(image):
        image = np.asarray(image, dtype=float)
        if image.ndim == 2:
            image = np.reshape(image, (image.shape[0], image.shape[1], 1))
        if image.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return image

    def conv2d(input, kernel, stride=1, padding=0):
        # input (H, W, C), kernel (k, k, C, d)
        if padding > 0:
            input = np.pad(input, ((padding, padding), (padding, padding), (0, 0)))
        H, W, C = input.shape
        k = kernel.shape[0]
        out_h = (H - k) // stride + 1
        out_w = (W - k) // stride + 1
        output = np.zeros((out_h, out_w, kernel.shape[3]))
        for i in range(out_h):
            for j in range(out_w):
                window = input[i * stride:i * stride + k, j * stride:j * stride + k, :]
                output[i, j] = np.tensordot(window, kernel, axes=([0, 1, 2], [0, 1, 2]))
        return output

    image = reshape_image(image)
    k = K.shape[0]
    if k > image.shape[0] or k > image.shape[1]:
        raise ValueError("kernel larger than image")
    output = conv2d(image, K, stride=stride, padding=k // 2)
    return output + b
