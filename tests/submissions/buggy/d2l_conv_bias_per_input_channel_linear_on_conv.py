"""Blind round 12 (b12_11, issue 38): Source style ported: d2l.ai chapter 7 (corr2d, corr2d_multi_in =
sum over input channels of corr2d, corr2d_multi_in_out = stack over output channels), with a
Conv2D-style bias, and the patch embedding built on the convolution (Practice 7).

Mistake 1 (conv_patch_embed): the bias is added inside the sum over input channels,
sum(corr2d(X_c, K_c) + b_o for c), so each output channel gets C * b_o instead of b_o. Right:
add b once after summing the channels. Shows only with C > 1 (RGB) and a nonzero bias; exact on
gray images.
linear_patch_embed is a correct decomposition (conv_patch_embed with K = W_e.reshape(P, P, C, d),
stride P), so it inherits the bias error on RGB images, and embed_image / vit_forward with it.

Grader: observed (only_narrower_inputs; only_one_channel: "right for one channel, wrong for an image
with 3 channels ... plus 2 times `b` in every row"); linear-patch-embed keeps full marks with
the grader's conv standing in; vit-checkpoint loses through linear_patch_embed. Nothing named.
Since contractions.bias_inside's bias once per summed axis: named (once per input channel).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:bias_inside:conv_patch_embed:b-once-per-windows-axis2'}


def conv_patch_embed(image, K, b, stride):
    image = _as_hwc(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")

    def corr2d(X, Kc):
        win = np.lib.stride_tricks.sliding_window_view(X, Kc.shape)[::stride, ::stride]
        return (win * Kc).sum(axis=(-2, -1))

    def corr2d_multi_in(o):
        return sum(corr2d(image[:, :, c], K[:, :, c, o]) + b[o] for c in range(C))

    return np.stack([corr2d_multi_in(o) for o in range(K.shape[3])], axis=-1)


def linear_patch_embed(image, W_e, b_e, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    d = W_e.shape[1]
    return conv_patch_embed(image, W_e.reshape(P, P, C, d), b_e, P).reshape(-1, d)
