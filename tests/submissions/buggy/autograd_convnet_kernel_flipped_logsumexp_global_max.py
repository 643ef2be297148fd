"""Blind round 57 (b57_04, issue 38): conv_patch_embed and softmax ported from HIPS/autograd
`examples/convnet.py` (conv_layer's `convolve(inputs, params, axes=([0, 1], [2, 3]),
dot_axes=([2], [0]), mode='valid')`, a true convolution as `scipy.signal.convolve` computes it,
and the example's `logsumexp`, `X - logsumexp(X, axis=1, keepdims=True)`). The student's
`convolve_valid` and `logsumexp` (top-level in the file) are nested in the functions that call
them here: the builder replaces only the solution's own definitions.

Mistakes:
7. conv_patch_embed's `convolve_valid` (lines 63-66 of the file as delivered) flips the kernel in
   both spatial axes, `params[:, :, ::-1, ::-1]`: a true convolution, not the cross-correlation
   the API asks for. Wrong for every kernel that is not symmetric under a 180-degree rotation
   (random kernels; an all-ones kernel agrees); it also breaks the conv / linear_patch_embed
   equivalence.
8. softmax's `logsumexp` (line 98) subtracts the global `np.max(X)` rather than the max along
   `axis`: where two slices along `axis` have maxima more than about 745 apart, the lower one
   underflows to log(0) = -inf and comes out inf/nan (`[[1000, 1001], [0, 1]]`). Ordinary
   inputs, inputs all near 1000 and 1-D inputs are right.

Grader: at blind time (84f876fc) and now, both named. Mistake 7 on kernel-stride's "several
kernels and strides" and hidden checks ("You flipped the kernel (the textbook convolution).
Deep-learning convolutions are cross-correlations: out[i, j] = sum(window * K) + b, K not
flipped, ..."); its "kernel P, stride P equals the linear map" check tells the checklist.
Mistake 8 on stable-softmax's "no overflow near 1000" ("In `softmax`, the softmax is taken as
`exp(x - logsumexp(x))` with the log-sum-exp's max over the whole array, `m = np.max(x)`, and
only its sum along the axis, ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_kernel_flipped',
          'stable-softmax': 'op:logsumexp_max:softmax:logsumexp-max-over-whole-array'}


def conv_patch_embed(image, K, b, stride):
    """Valid convolution (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d)."""
    def convolve_valid(inputs, params):
        """convolve(inputs, params, axes=([0, 1], [2, 3]), dot_axes=([2], [0]), mode='valid')
        inputs: [y, x, color_in]; params: [color_in, color_out, y, x]"""
        H, W, _ = inputs.shape
        _, n_out, kh, kw = params.shape
        out = np.zeros((H - kh + 1, W - kw + 1, n_out))
        flipped = params[:, :, ::-1, ::-1]
        for i in range(kh):
            for j in range(kw):
                out += np.dot(inputs[i:i + H - kh + 1, j:j + W - kw + 1, :], flipped[:, :, i, j])
        return out

    inputs = np.asarray(image, dtype=float)
    if inputs.ndim == 2:
        inputs = inputs[:, :, None]
    k = K.shape[0]
    if k > inputs.shape[0] or k > inputs.shape[1]:
        raise ValueError("kernel is larger than the image")
    params = np.transpose(K, (2, 3, 0, 1))
    conv = convolve_valid(inputs, params)
    conv = conv[::stride, ::stride]
    return conv + b


def softmax(x, axis=-1):
    """exp(x) normalised along `axis`, through the log-sum-exp."""
    def logsumexp(X, axis, keepdims=False):
        max_X = np.max(X)
        return max_X + np.log(np.sum(np.exp(X - max_X), axis=axis, keepdims=keepdims))

    x = np.asarray(x, dtype=float)
    return np.exp(x - logsumexp(x, axis=axis, keepdims=True))
