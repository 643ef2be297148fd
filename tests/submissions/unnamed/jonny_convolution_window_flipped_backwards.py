"""Blind round 67 (b67_08, issue 38): conv_patch_embed ported from
jonnythebard/jonny_deep_learnings `extra_snippet/convolution.py`.

Mistakes:
13. conv_patch_embed (line 97 of the file as delivered): the snippet's
    `output_image[i, j] += input_image[i-_i, j-_j] * kernel[_i, _j]` kept as
    `image[i*stride - _i, j*stride - _j] @ K[_i, _j]`: a flipped convolution anchored at the
    window's top-left going backwards, negative indices wrapping to the far edge. The output
    size is right, the values are not. Wrong on any input.

Grader: at blind time (d3fd340b) and now, 104/110. Mistake 13 not told: kernel-stride's three
failed checks give only the checklist (the right formula, `out[i, j] =
sum(image[i*stride:i*stride+k, j*stride:j*stride+k, :] * K) + b`). Not every mistake named, so in
unnamed/; EXPECT holds what must hold today: the points lost and no cause named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': None}


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
