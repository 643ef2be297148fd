"""Blind round 65 (b65_05, issue 38): conv_patch_embed ported from ViperEkura/cuda-kernels
`docs/conv2d.md` (the naive conv2dcpu reference kernel, NCHW input, [k, c, r, s] weights, with
n = 1 and no padding).

Mistakes:
6. conv_patch_embed (line 116 of the file as delivered): the kernel fills an NCHW buffer
   [k, oh, ow] that is then `reshape`d to (oh, ow, k) instead of transposed: the values are
   scrambled whenever d > 1 and there is more than one output position.
7. conv_patch_embed (lines 96-98): no ValueError when the kernel is larger than the image: the C
   bounds logic (`oh <= 0`, loops not entered) returns an empty array. Wrong only when k > H or
   k > W.

Grader: at blind time (0cd43d22) and now, 103/110, both named. Mistake 6 on kernel-stride's
kernels-and-strides and random checks ("In `conv_patch_embed`, the result is computed with its
last axis first (channels first: (F, H', W') for (H', W', F)) and then reshaped to the right
shape ... Move the axis with a transpose, `.transpose(1, 2, 0)` ..., not a reshape."). Mistake 7
on its kernel-larger-than-the-image check ("In `conv_patch_embed`, nothing tests that the kernel
fits the image ... refuse `k > H or k > W` first.",
op:kernel_untested:conv_patch_embed:kernel-untested). The equivalence check gets the checklist.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:result_reshaped:conv_patch_embed:result-channels-first-reshaped'}


def conv_patch_embed(image, K, b, stride):
    """conv2dcpu(pin, pwei, pout, n, c, h, w, k, r, s, u, v, p, q) with n = 1, p = q = 0."""
    img = _as_hwc(image)
    h, w, c = img.shape
    r, s = K.shape[0], K.shape[1]
    k = K.shape[3]
    u = v = stride
    p = q = 0

    pin = img.transpose(2, 0, 1).ravel()      # [c, h, w]
    pwei = K.transpose(3, 2, 0, 1).ravel()    # [k, c, r, s]

    oh = (h + 2 * p - r) // u + 1
    ow = (w + 2 * q - s) // v + 1
    pout = np.zeros(k * max(oh, 0) * max(ow, 0))

    # the c / r / s loops of the kernel, as flat index arrays (same index arithmetic as the C code)
    cNum, khNum, kwNum = np.meshgrid(np.arange(c), np.arange(r), np.arange(s), indexing="ij")
    cNum, khNum, kwNum = cNum.ravel(), khNum.ravel(), kwNum.ravel()
    wei_off = cNum * r * s + khNum * s + kwNum
    for i in range(oh):
        for j in range(ow):
            posh = i * u - p
            posw = j * v - q
            posh_ori = posh + khNum
            posw_ori = posw + kwNum
            ok = (posw_ori >= 0) & (posh_ori >= 0) & (posw_ori < w) & (posh_ori < h)
            vals = pin[(cNum * (w * h) + posh_ori * w + posw_ori)[ok]]
            for kNum in range(k):
                sum_ = np.dot(vals, pwei[kNum * r * s * c + wei_off[ok]])
                pout[kNum * oh * ow + i * ow + j] = sum_ + b[kNum]

    return pout.reshape(max(oh, 0), max(ow, 0), k)
