"""Blind round 60 (b60_05, issue 38): softmax and conv_patch_embed ported from rushter/MLAlgorithms
`mla/neuralnet/activations.py` (softmax's hard-coded axis 1) and `mla/neuralnet/layers/convnet.py`
(Convolution.forward_pass, image_to_column, convoltuion_shape's float division and
`assert height % 1 == 0`). The student's top-level `_hwc`, `convoltuion_shape` and
`image_to_column` are nested in conv_patch_embed here: the builder replaces only the solution's own
definitions (the file's patchify calls image_to_column too, with kernel = stride = P on an image
already checked to tile, where it is right). The file's self_attention, right, is kept (CORRECT):
it calls softmax on each head's 2-D scores, where the solution's calls it on (heads, T, T).

Mistakes:
7. softmax (lines 100-103 of the file as delivered): the source's `np.amax(z, axis=1)` and
   `np.sum(e, axis=1)` are hard-coded and `axis` is ignored. Wrong off the 2-D / last-axis case:
   batched 3-D input normalises the wrong axis, 1-D input raises AxisError, axis=0 is ignored
   (self_attention calls it on 2-D scores, where it is right).
8. conv_patch_embed (lines 34-43, `convoltuion_shape`): the output size is a float division
   followed by `assert height % 1 == 0`, so when the windows do not tile exactly
   (`(H - k) % stride != 0`) it raises AssertionError instead of flooring (an 8x6 image with
   k = 3, stride 3; 5x5 with k = 2, stride 2).

Grader: at blind time (528b2ec3) and now, 99/110, both named. Mistake 7 on stable-softmax's small
examples, overflow and random checks ("`np.max(x, keepdims=True, axis=1)` in place of `np.max(x,
axis=axis, keepdims=True)` ... (2) ... `np.sum(e, keepdims=True, axis=1)`"); the sum-to-1
property could not judge (its AxisError). Mistake 8 on kernel-stride's value and random checks
("an image whose rows or columns the stride leaves over ... is refused (an error is raised for
it), where the model solution's floors"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:guarded:conv_patch_embed:windows-must-fit',
          'stable-softmax': 'op:axis:softmax:max.axis=1+op:axis:softmax:sum.axis=1'}
CORRECT = ('self_attention',)  # a loop over heads, softmax on 2-D scores


def conv_patch_embed(image, K, b, stride):
    def _hwc(image):
        image = np.asarray(image)
        if image.ndim == 2:
            image = image[:, :, np.newaxis]
        if image.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return image

    def convoltuion_shape(img_height, img_width, filter_shape, stride, padding):
        """Calculate output shape for convolution layer."""
        height = (img_height + 2 * padding[0] - filter_shape[0]) / float(stride[0]) + 1
        width = (img_width + 2 * padding[1] - filter_shape[1]) / float(stride[1]) + 1

        assert height % 1 == 0
        assert width % 1 == 0

        return int(height), int(width)

    def image_to_column(image, filter_shape, stride, padding):
        """Rearrange image blocks into columns; image is (height, width, n_channels)."""
        height, width, n_channels = image.shape
        f_height, f_width = filter_shape
        out_height, out_width = convoltuion_shape(height, width, (f_height, f_width), stride, padding)
        image = np.pad(image, (padding, padding, (0, 0)), mode="constant")

        col = np.zeros((f_height, f_width, n_channels, out_height, out_width), dtype=float)
        for y in range(f_height):
            y_bound = y + stride[0] * out_height
            for x in range(f_width):
                x_bound = x + stride[1] * out_width
                col[y, x, :, :, :] = image[y:y_bound:stride[0], x:x_bound:stride[1], :].transpose(2, 0, 1)

        # rows are (out_height, out_width), columns are (f_height, f_width, n_channels)
        col = col.transpose(3, 4, 0, 1, 2).reshape(out_height * out_width, -1)
        return col, out_height, out_width

    X = _hwc(image)
    height, width, n_channels = X.shape
    filter_shape = K.shape[:2]
    if filter_shape[0] > height or filter_shape[1] > width:
        raise ValueError("filter larger than the image")
    n_filters = K.shape[3]
    col, out_height, out_width = image_to_column(X, filter_shape, (stride, stride), (0, 0))
    col_W = K.reshape(-1, n_filters)
    out = np.dot(col, col_W) + b
    return out.reshape(out_height, out_width, n_filters)


def softmax(z, axis=-1):
    # Avoid numerical overflow by removing max
    e = np.exp(z - np.amax(z, axis=1, keepdims=True))
    return e / np.sum(e, axis=1, keepdims=True)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    dh = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    out = np.zeros((T, d))
    for h in range(heads):
        c = slice(h * dh, (h + 1) * dh)
        s = q[:, c] @ k[:, c].T / math.sqrt(dh)
        if causal:
            s[np.triu_indices(T, 1)] = -np.inf
        out[:, c] = softmax(s) @ v[:, c]
    return out @ p["Wo"] + p["bo"]
