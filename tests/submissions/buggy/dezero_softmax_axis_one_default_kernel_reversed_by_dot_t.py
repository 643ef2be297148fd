"""Blind round 57 (b57_07, issue 38): softmax and conv_patch_embed ported from
oreilly-japan/deep-learning-from-scratch-3 (DeZero): `dezero/functions.py` (`Softmax(axis=1)`,
`linear`), `dezero/functions_conv.py` (`conv2d_simple`, `im2col_array`) and `dezero/utils.py`
(`get_conv_outsize`, `pair`), the image put NCHW. The student's helpers (top-level in the file)
are nested in conv_patch_embed here: the builder replaces only the solution's own definitions.

Mistakes:
11. softmax (line 137 of the file as delivered) keeps DeZero's default `axis=1` instead of the
    API's `axis=-1`: a call without `axis` normalises the wrong axis of a 3-D (batched) input
    and raises AxisError on a 1-D one; 2-D inputs and calls that name `axis` are right.
12. conv_patch_embed (line 107) turns the `(k, k, C, d)` kernel into DeZero's `(OC, C, KH, KW)`
    with `K.T`, which reverses every axis, `(d, C, KW, KH)`: the kernel is read transposed
    spatially. Wrong for every kernel not symmetric in its two spatial axes (random kernels);
    it breaks the conv / linear_patch_embed equivalence.

Grader: at blind time (84f876fc) and now, both named. Mistake 11 on stable-softmax's small
examples, "no overflow near 1000" and hidden checks ("In `softmax`, `axis` defaults to 1
(`axis=1` in the signature): a call that leaves it out gets axis=1, where the student API's
default is -1; a call that names it is right."). Mistake 12 on kernel-stride's "several kernels
and strides" and hidden checks ("In `conv_patch_embed`, `K` is read with its first two axes
swapped, `K.swapaxes(0, 1)` (rows for columns).": the code writes `K.T`, whose effect on the
output this is); its "kernel P, stride P equals the linear map" check tells the
checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:transposed_argument:conv_patch_embed:K-axes-swapped',
          'stable-softmax': 'op:default_flipped:softmax:axis-defaults-1'}


def conv_patch_embed(image, K, b, stride):
    """Valid convolution (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d), through im2col."""
    def pair(x):
        if isinstance(x, int):
            return (x, x)
        elif isinstance(x, tuple):
            assert len(x) == 2
            return x
        else:
            raise ValueError

    def get_conv_outsize(input_size, kernel_size, stride, pad):
        return (input_size + pad * 2 - kernel_size) // stride + 1

    def im2col_array(img, kernel_size, stride, pad, to_matrix=True):
        N, C, H, W = img.shape
        KH, KW = pair(kernel_size)
        SH, SW = pair(stride)
        PH, PW = pair(pad)
        OH = get_conv_outsize(H, KH, SH, PH)
        OW = get_conv_outsize(W, KW, SW, PW)

        img = np.pad(img, ((0, 0), (0, 0), (PH, PH + SH - 1), (PW, PW + SW - 1)),
                     mode='constant', constant_values=(0,))
        col = np.ndarray((N, C, KH, KW, OH, OW), dtype=img.dtype)

        for j in range(KH):
            j_lim = j + SH * OH
            for i in range(KW):
                i_lim = i + SW * OW
                col[:, :, j, i, :, :] = img[:, :, j:j_lim:SH, i:i_lim:SW]

        if to_matrix:
            col = col.transpose((0, 4, 5, 1, 2, 3)).reshape((N * OH * OW, -1))
        return col

    def linear(x, W, b=None):
        t = x @ W
        if b is None:
            return t
        return t + b

    def conv2d_simple(x, W, b=None, stride=1, pad=0):
        Weight = W
        N, C, H, W = x.shape
        OC, C, KH, KW = Weight.shape
        SH, SW = pair(stride)
        PH, PW = pair(pad)
        OH = get_conv_outsize(H, KH, SH, PH)
        OW = get_conv_outsize(W, KW, SW, PW)

        col = im2col_array(x, (KH, KW), stride, pad, to_matrix=True)
        Weight = Weight.reshape(OC, -1).transpose()
        t = linear(col, Weight, b)
        y = t.reshape(N, OH, OW, OC).transpose(0, 3, 1, 2)
        return y

    def _to_nchw(image):
        x = np.asarray(image)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return x.transpose(2, 0, 1)[None]

    x = _to_nchw(image).astype(float)
    k = K.shape[0]
    if k > x.shape[2] or k > x.shape[3]:
        raise ValueError("kernel is larger than the image")
    W = K.T
    y = conv2d_simple(x, W, b, stride=stride, pad=0)
    return y[0].transpose(1, 2, 0)


def softmax(x, axis=1):
    """exp(x) normalised to sum to 1 along `axis`."""
    x = np.asarray(x, dtype=float)
    y = x - x.max(axis=axis, keepdims=True)
    y = np.exp(y)
    y /= y.sum(axis=axis, keepdims=True)
    return y
