"""Blind round 31 (b31_13, issue 38): moghon92/CNN-from-scratch, convolution.py (Conv2D.forward:
as_strided views, einsum 'NhwcKk,ocKk->Nohw').

Mistakes:
1. conv_patch_embed: returns the source's channels-first `out[0]`, (d, H', W'), instead of
   (H', W', d); the values are right (np.moveaxis(m, 0, -1) equals the solution).

Grader: at blind time (fbf6cc7) and now, named: "the result `np.tensordot(windows, K, ...) + b`
is returned with its last axis first (channels first: (F, H', W') for (H', W', F), as torch's
conv2d lays out its output) ... Move that axis last" on kernel-stride (in the reference's terms:
the file has an einsum over as_strided views; the cause is right; the equivalence check has
the spec's checklist). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:result_reshaped:conv_patch_embed:result-channels-first'}


def conv_patch_embed(image, K, b, stride):
    """Conv2D.forward, fully vectorized, padding 0."""
    image = _as_hwc(image)
    x = image.transpose(2, 0, 1)[None].astype(float)        # (N, C, H, W)
    weight = K.transpose(3, 2, 0, 1)                         # (out_channels, in_channels, k, k)
    k = weight.shape[2]
    s = stride
    p = 0
    if k > x.shape[2] or k > x.shape[3]:
        raise ValueError(f"kernel {k} is larger than the {x.shape[2]}x{x.shape[3]} image")

    x_pad = np.pad(x, [(0, 0), (0, 0), (p, p), (p, p)])

    N = x_pad.shape[0]
    c = weight.shape[1]
    h_out = ((x_pad.shape[2] - k) // s) + 1
    w_out = ((x_pad.shape[3] - k) // s) + 1

    x_views = np.lib.stride_tricks.as_strided(x_pad,
                                              shape=(N, h_out, w_out, c, k, k),
                                              strides=(x_pad.strides[0], x_pad.strides[2] * s, x_pad.strides[3] * s,
                                                       x_pad.strides[1], x_pad.strides[2], x_pad.strides[3]),
                                              writeable=False)

    out = np.einsum('NhwcKk,ocKk->Nohw', x_views, weight) + b[:, np.newaxis, np.newaxis]
    return out[0]
