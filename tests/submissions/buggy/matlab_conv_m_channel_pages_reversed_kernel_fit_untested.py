"""Blind round 36 (b36_08, issue 38): conv_patch_embed ported from hhhxiao/JavaApplications,
DigitalReco/code-matlab/Conv.m (MATLAB: the kernel's channel pages flipped, W(:,:,end:-1:1,:),
each page rot90'd twice, then convn(x, W, 'valid'); conv2 for one channel).

Mistakes:
1. The port keeps the channel-page flip but its convn is a sum of per-page conv2 (which does not
   flip the channel axis): the input channels meet the kernel's channels in reverse order (C > 1).
2. No ValueError when the kernel is taller or wider than the image: an empty array comes back
   (or numpy's negative-dimensions error).

Grader: at blind time (9ebbf4a) and now, both named: the channels read in reverse order, and
"nothing tests that the kernel fits the image" on kernel-stride. In buggy/. Since round 54 the
kernel check, whose blank images cannot show the channel order, is told the kernel test alone;
the channels are named on the value checks.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:kernel_untested:conv_patch_embed:kernel-untested'}


def conv_patch_embed(image, K, b, stride):
    """y = Conv(x, W) from Conv.m with a stride, plus the bias."""
    x = np.asarray(image, dtype=float)
    W = np.asarray(K, dtype=float)
    xrow, xcol = x.shape[0], x.shape[1]
    xcha = x.shape[2] if x.ndim == 3 else 1
    wrow, wcol, wpage, numFilters = W.shape

    def conv2(a, w):
        """MATLAB conv2(a, w, 'valid') (kernel flipped both ways), kept at every stride-th place."""
        win = np.lib.stride_tricks.sliding_window_view(a, w.shape)[::stride, ::stride]
        return np.einsum('ijkl,kl->ij', win, w[::-1, ::-1])

    def convn(a, w):
        """convn(a, w, 'valid') over the channel pages: one conv2 per page, summed."""
        return sum(conv2(a[:, :, j], w[:, :, j]) for j in range(w.shape[2]))

    if xcha > 1 and xcha == wpage:
        y = np.zeros(((xrow - wrow) // stride + 1, (xcol - wcol) // stride + 1, numFilters))
        W = W[:, :, ::-1, :]
        for i in range(numFilters):
            Wi = W[:, :, :, i].copy()
            for j in range(wpage):
                Wi[:, :, j] = np.rot90(Wi[:, :, j], 2)
            if y.size:
                y[:, :, i] = convn(x, Wi)
    else:
        if x.ndim == 3:
            x = x[:, :, 0]
        W = W[:, :, 0, :]
        y = np.zeros(((xrow - wrow) // stride + 1, (xcol - wcol) // stride + 1, numFilters))
        for k in range(numFilters):
            if y.size:
                y[:, :, k] = conv2(x, np.rot90(W[:, :, k], 2))
    return y + b
