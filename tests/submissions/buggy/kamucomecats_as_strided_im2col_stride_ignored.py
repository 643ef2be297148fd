"""Blind round 34 (b34_09, issue 38): conv_patch_embed ported from kamucomecats/D_Learning
(common/im2col.py: im2col(X, FH, FW, strides=1, pad=0) with numpy.lib.stride_tricks.as_strided,
run on one channel at a time). The source's `im2col` (and its import) is nested in
conv_patch_embed.

Mistakes:
1. The stride is ignored: the source's `strides` parameter is overwritten by `strides =
   X.strides * 2` (the array's byte strides) and OH = H - FH + 1, so the result is always the
   stride-1 convolution. Right for stride 1.

Grader: at blind time (5712eea) and now, named: "You slid the kernel one pixel at a time whatever
the stride" on kernel-stride (visible and hidden); the kernel P, stride P equivalence check gets
its checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_stride_ignored'}


def conv_patch_embed(image, K, b, stride):
    from numpy.lib.stride_tricks import as_strided

    def im2col(X, FH, FW, strides=1, pad=0):
        H, W = X.shape
        OH = H - FH + 1
        OW = W - FW + 1
        shape = (OH, OW, FH, FW)
        strides = X.strides * 2

        patches = as_strided(X, shape=shape, strides=strides)
        return patches.reshape(OH * OW, -1), OH, OW

    image = _as_hwc(image)
    H, W, C = image.shape
    k = K.shape[0]
    d = K.shape[-1]
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")

    cols = []
    for c in range(C):   # im2col works on one (H, W) channel at a time
        col, OH, OW = im2col(np.ascontiguousarray(image[:, :, c]), k, k, strides=stride)
        cols.append(col)                                     # (OH*OW, k*k)
    col = np.stack(cols, axis=-1).reshape(OH * OW, k * k * C)  # rows in (p1, p2, c) order
    out = col @ K.reshape(k * k * C, d) + b
    return out.reshape(OH, OW, d)
