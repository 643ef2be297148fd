"""Blind round 63 (b63_02, issue 38): conv_patch_embed and softmax ported from
vzhou842/cnn-from-scratch `conv.py` (Conv3x3.iterate_regions, Conv3x3.forward) and `softmax.py`
(Softmax.forward). The student's top-level `_image` and `iterate_regions` are nested in
conv_patch_embed here: the builder replaces only the solution's own definitions.

Mistakes:
3. softmax (line 94 of the file as delivered): `np.exp(x)` without subtracting the max. Wrong
   only for large inputs (overflow to inf / NaN near 1000).
4. conv_patch_embed via iterate_regions (lines 55-56): `range(0, h - k, stride)` (and `w - k`),
   the source's `h - 2` for a 3x3 kernel turned into `h - k` rather than `h - k + 1`: the last row
   and column of windows are dropped (left zero, plus the bias) whenever (H - k) % stride == 0 or
   (W - k) % stride == 0, every tiling k = stride = P case included.

Grader: at blind time (edc81c9a) and now, 100/110, both named. Mistake 3 on stable-softmax's
overflow and random checks ("exp overflowed ... Subtract the maximum along the axis first").
Mistake 4 on kernel-stride's kernels-and-strides and random checks ("the loops over window
positions stop one short, `range(0, H - k, stride)` where `range(0, H - k + 1, stride)`
belongs"); its equivalence check gets the checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_range_bias_after:conv_patch_embed:windows-range-one-short-b-after',
          'stable-softmax': 'softmax_without_max'}


def conv_patch_embed(image, K, b, stride):
    '''
    Performs a forward pass of the conv layer using the given input.
    Returns a 3d numpy array with dimensions (h', w', num_filters).
    '''
    def _image(image):
        image = np.asarray(image)
        if image.ndim == 2:
            return image[:, :, None]
        if image.ndim == 3:
            return image
        raise ValueError("bad image")

    def iterate_regions(image, k, stride):
        '''
        Generates all possible k x k image regions, moving by stride.
        - image is a 3d numpy array
        '''
        h, w, _ = image.shape

        for i in range(0, h - k, stride):
            for j in range(0, w - k, stride):
                im_region = image[i:(i + k), j:(j + k)]
                yield im_region, i // stride, j // stride

    image = _image(image)
    h, w, _ = image.shape
    k = K.shape[0]
    if k > h or k > w:
        raise ValueError("kernel larger than image")
    num_filters = K.shape[-1]
    output = np.zeros(((h - k) // stride + 1, (w - k) // stride + 1, num_filters))

    for im_region, i, j in iterate_regions(image, k, stride):
        output[i, j] = np.sum(im_region[..., None] * K, axis=(0, 1, 2))

    return output + b


def softmax(x, axis=-1):
    '''
    Performs a softmax forward pass using the given input.
    '''
    exp = np.exp(x)
    return exp / np.sum(exp, axis=axis, keepdims=True)

