"""Blind round 66 (b66_15, issue 38): conv_patch_embed and
conv_equivalent ported from fqhank/CS231n-2021spring `assignment2/cs231n/layers.py`
(conv_forward_naive).

Mistakes:
26. conv_patch_embed (line 120 of the file as delivered): the while loop's output column counter
    wraps at `h_out` (`if xx == h_out`, the test of the same file's max_pool_forward_naive)
    instead of `w_out`. Wrong only when H' != W' (IndexError).
27. conv_equivalent (line 130): `(P, 1)`, cs231n's conv_param stride 1, instead of (P, P).

Grader: at blind time (f4776223) and now, 102/110. Mistake 27 named on kernel-stride ("Stride 1
slides the kernel one pixel at a time ... stride P"); mistake 26 only observed ("Your
`conv_patch_embed` is right when H == W, and raises IndexError for a 5 x 6 image: use H and W
each where they belong"): the traceback gives line 113, not the cause, `xx == h_out` on line 120.
Not every mistake named, so in unnamed/; EXPECT holds what must hold today: the points lost and
mistake 27 named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_equivalent_stride_one'}


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d).

    conv_forward_naive with pad = 0 on a batch of one image in (N, C, H, W) layout.
    """
    image = _as_hwc(image)
    if K.shape[0] > image.shape[0] or K.shape[1] > image.shape[1]:
        raise ValueError("kernel is larger than the image")
    x = image.transpose(2, 0, 1)[None]          # (N, C, H, W)
    w = K.transpose(3, 2, 0, 1)                 # (F, C, HH, WW)
    pad = 0
    f = w.shape[0]  # number of filters, channels of output
    h_out = 1 + (x.shape[2] + 2 * pad - w.shape[2]) // stride
    w_out = 1 + (x.shape[3] + 2 * pad - w.shape[3]) // stride

    out = np.zeros((x.shape[0], f, h_out, w_out))
    pad_x = x

    for i in range(x.shape[0]):
        for j in range(f):
            conv_filter = w[j]
            p = conv_filter.shape[1]
            q = conv_filter.shape[2]
            xx = 0
            yy = 0
            while p <= pad_x.shape[2] and q <= pad_x.shape[3]:
                out[i, j, yy, xx] = np.sum(conv_filter *
                                           pad_x[i][:, p - conv_filter.shape[1]:p, q - conv_filter.shape[2]:q])
                q += stride
                if q > pad_x.shape[3]:
                    q = conv_filter.shape[2]
                    p += stride
                xx += 1
                if xx == h_out:
                    xx = 0
                    yy += 1
        out[i] = out[i] + b[:, None, None]
    return out[0].transpose(1, 2, 0)           # (H', W', d)


def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map (Practice 7)."""
    conv_param = {"stride": 1, "pad": 0}
    return (P, conv_param["stride"])
