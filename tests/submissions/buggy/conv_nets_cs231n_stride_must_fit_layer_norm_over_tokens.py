"""Blind round 79 (b79_01, issue 38): conv_patch_embed and layer_norm ported from
JoshZastrow/Conv_Nets `cs231n/layers.py` (conv_forward_naive's loops and "Check Dimensions" asserts,
batchnorm_forward).

Mistakes:
1. conv_patch_embed (lines 122-123 of the file as delivered): the source's dimension asserts
   ported as `if (H - HH) % S != 0 or (W - WW) % S != 0: raise ValueError`: a stride that
   leaves rows or columns over is refused where a valid convolution floors (an 8x7 image with
   k=3, stride=2); right whenever (H - k) and (W - k) are multiples of the stride.
2. layer_norm (lines 183-184): batchnorm_forward's mean and variance over axis 0, the tokens,
   instead of the last axis: wrong on every input of more than one token.
The delivered file's top-level helper `_to_hwc` is nested in conv_patch_embed here.

Grader: at blind time (50c6c808) and now, 96/110. Mistake 1 named on kernel-stride ("In
`conv_patch_embed`, the test that the kernel fits the image tests that the windows fit exactly,
`(H - k) % stride or (W - k) % stride`: a stride that leaves rows or columns over is refused ...
floor instead"; the judge notes the quoted test paraphrases the code's `(H - HH) % S != 0 or (W -
WW) % S != 0`; now said as its effect, "in effect `(H - k) % stride or (W - k) % stride`",
error_model/kernel_fit.py through quotes.EFFECT), mistake 2 on layer-norm ("You normalised over the tokens (axis 0) ... the last
axis, with keepdims=True"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:kernel_fit:conv_patch_embed:windows-fit-exactly',
          'layer-norm': 'layer_norm_wrong_axis'}


def conv_patch_embed(image, K, b, stride):
    """
    A naive implementation of the forward pass for a convolutional layer
    (no padding).

    Input:
    - image: Input data of shape (H, W, C)
    - K: Filter weights of shape (HH, WW, C, F)
    - b: Biases, of shape (F,)
    - stride: The number of pixels between adjacent receptive fields

    Returns:
    - out: Output data, of shape (H', W', F) where H' and W' are given by
        H' = 1 + (H - HH) / stride
        W' = 1 + (W - WW) / stride
    """
    def _to_hwc(image):
        x = np.asarray(image, dtype=float)
        if x.ndim == 2:
            x = x[:, :, np.newaxis]
        if x.ndim != 3:
            raise ValueError('Invalid image shape "{}"'.format(x.shape))
        return x

    x = _to_hwc(image)
    S = stride
    H, W, C = x.shape
    HH, WW, C, F = K.shape

    if HH > H or WW > W:
        raise ValueError('kernel larger than image')

    # Check Dimensions
    if (H - HH) % S != 0 or (W - WW) % S != 0:
        raise ValueError('stride does not fit the image')

    # Output layer spatial dimensions
    out_height = 1 + (H - HH) // S
    out_width = 1 + (W - WW) // S
    out = np.zeros((out_height, out_width, F))

    # For each height index, for each width index, for each filter
    h_out = 0
    for h_pos in range(0, H - HH + 1, S):
        w_out = 0

        for w_pos in range(0, W - WW + 1, S):
            x_window = x[h_pos:h_pos + HH, w_pos:w_pos + WW, :]

            for f in range(F):
                out[h_out, w_out, f] = np.sum(x_window * K[:, :, :, f]) + b[f]

            w_out += 1
        h_out += 1

    return out


def layer_norm(x, gamma, beta, eps=1e-6):
    """
    Forward pass for layer normalization.

    Input:
    - x: Data of shape (N, D)
    - gamma: Scale parameter of shape (D,)
    - beta: Shift paremeter of shape (D,)
    - eps: Constant for numeric stability

    Returns:
    - out: of shape (N, D)
    """
    N = x.shape[0]
    sample_mean = (1 / N) * np.sum(x, axis=0)
    sample_var = (1 / N) * np.sum((x - sample_mean) ** 2, axis=0)
    sample_std = np.sqrt(sample_var + eps)

    x_normalized = (x - sample_mean) / sample_std

    out = gamma * x_normalized + beta
    return out
