"""Blind round 80 (b80_02, issue 38): conv_patch_embed ported from
ImperialCollegeLondon/ImperialTissueCyte `cell_counting/cctn/filters/im2col.py`. The delivered
file's top-level helper `im2col` is nested in conv_patch_embed here, and its `_hwc` is the
solution's `_as_hwc`.

Mistakes:
1. conv_patch_embed (lines 67-70 of the file as delivered): one 2-D `im2col` (as_strided) per
   channel stacked with `vstack`, so the columns are ordered (c, kh, kw), while
   `K.reshape(-1, d)` is ordered (kh, kw, c). Wrong when C > 1 only (every kernel and stride).

Grader: at blind time (a4b8673f) and now, 104/110, named on kernel-stride ("Each window is read
channel first, (c, p1, p2) ... Flatten each window in the kernel's order, (p1, p2, c)"); the
equivalence check gets a checklist that is still true. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:flattened_apart:conv_patch_embed:windows-K-flattened-apart'}


def conv_patch_embed(image, K, b, stride):
    def im2col(A, BSZ, STEPSIZE=1):
        # Parameters
        m, n = A.shape
        s0, s1 = A.strides
        nrows = m - BSZ[0] + 1
        ncols = n - BSZ[1] + 1
        shp = BSZ[0], BSZ[1], nrows, ncols
        strd = s0, s1, s0, s1

        out_view = np.lib.stride_tricks.as_strided(A, shape=shp, strides=strd)
        out_view = out_view[:, :, ::STEPSIZE, ::STEPSIZE]
        return out_view.reshape(BSZ[0] * BSZ[1], -1)

    A = np.asarray(_as_hwc(image), dtype=float)
    m, n, c = A.shape
    k = K.shape[0]
    if k > m or k > n:
        raise ValueError('kernel %d larger than image %dx%d' % (k, m, n))
    out_h = (m - k) // stride + 1
    out_w = (n - k) // stride + 1
    # one im2col per channel, stacked
    cols = np.vstack([im2col(np.ascontiguousarray(A[:, :, ch]), (k, k), stride)
                      for ch in range(c)])              # (c*k*k, out_h*out_w)
    Kmat = K.reshape(-1, K.shape[-1])                    # (k*k*c, d)
    out = np.dot(cols.T, Kmat) + b
    return out.reshape(out_h, out_w, -1)
