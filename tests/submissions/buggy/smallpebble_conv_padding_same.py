"""Blind round 60 (b60_09, issue 38): conv_patch_embed ported from sradc/SmallPebble
`smallpebble/smallpebble.py` (conv2d with its TF-style default `padding="SAME"`, pad,
patches_index). The student's top-level `_as_image`, `patches_index` and `padding_same` are nested
in conv_patch_embed here: the builder replaces only the solution's own definitions (the file's
patchify uses patches_index too, with kernel = stride = P, where it is right).

Mistakes:
16. conv_patch_embed (lines 69-79 of the file as delivered) keeps conv2d's default
    `padding="SAME"`, zero-padding to ceil(H/stride) x ceil(W/stride) outputs. Wrong only when the
    windows do not tile exactly ((7, 9) with k = 3, s = 2 gives 4x5, not 3x4; (5, 7) with k = 2,
    s = 1 gives 5x7, not 4x6). With k = stride = P on a tiling image the padding is 0, so the
    Practice 7 equivalence holds.

Grader: at blind time (528b2ec3) and now, 106/110, named on kernel-stride's value and random
checks ("In `conv_patch_embed`, the image is zero-padded as TensorFlow's padding='SAME' does:
ceil(H / stride) outputs, ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:padding:conv_patch_embed:pad-same'}


def conv_patch_embed(image, K, b, stride, padding="SAME"):
    def _as_image(image):
        image = np.asarray(image)
        if image.ndim == 2:
            image = image[:, :, np.newaxis]
        if image.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return image

    def patches_index(imheight, imwidth, kernheight, kernwidth, stride_y, stride_x):
        "Index to get image patches, e.g. for 2d convolution."
        max_y_idx = imheight - kernheight + 1
        max_x_idx = imwidth - kernwidth + 1
        row_major_index = np.arange(imheight * imwidth).reshape([imheight, imwidth])
        patch_corners = row_major_index[0:max_y_idx:stride_y, 0:max_x_idx:stride_x]
        elements_relative = row_major_index[0:kernheight, 0:kernwidth]
        index_of_patches = patch_corners.reshape([-1, 1]) + elements_relative.reshape([1, -1])
        index_of_patches = np.unravel_index(index_of_patches, shape=[imheight, imwidth])
        outheight, outwidth = patch_corners.shape
        return index_of_patches, outheight, outwidth

    def padding_same(imheight, imwidth, kernheight, kernwidth, stride_y, stride_x):
        out_h = math.ceil(imheight / stride_y)
        out_w = math.ceil(imwidth / stride_x)
        pad_h = max((out_h - 1) * stride_y + kernheight - imheight, 0)
        pad_w = max((out_w - 1) * stride_x + kernwidth - imwidth, 0)
        return (pad_h // 2, pad_h - pad_h // 2), (pad_w // 2, pad_w - pad_w // 2)

    images = _as_image(image).astype(float)
    imheight, imwidth, n_channels = images.shape
    kernheight, kernwidth, channels_in, channels_out = K.shape
    if kernheight > imheight or kernwidth > imwidth:
        raise ValueError("kernel larger than image")
    stride_y, stride_x = stride, stride
    if padding == "SAME":
        pad_y, pad_x = padding_same(imheight, imwidth, kernheight, kernwidth, stride_y, stride_x)
        images = np.pad(images, [pad_y, pad_x, (0, 0)])
        imheight, imwidth = images.shape[:2]
    idx, outheight, outwidth = patches_index(imheight, imwidth, kernheight, kernwidth, stride_y, stride_x)
    patches = images[idx].reshape(outheight * outwidth, -1)      # (p1 p2 c)
    kernels = K.reshape(-1, channels_out)
    result = np.matmul(patches, kernels) + b
    return result.reshape(outheight, outwidth, channels_out)
