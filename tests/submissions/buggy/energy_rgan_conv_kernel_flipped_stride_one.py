"""Blind round 81 (b81_02, issue 38): conv_equivalent and conv_patch_embed ported from
faneliya/EnergyRGAN `experiments/ml15_01_CNN.py`. The delivered file's top-level helpers `conv2d`
and `_to_hwc` are nested in conv_patch_embed here.

Mistakes:
1. conv_patch_embed, through its `conv2d` (line 58 of the file as delivered): `W_rot =
   W[::-1, ::-1]` flips the kernel spatially (the textbook convolution, not the
   cross-correlation): wrong for every kernel that is not symmetric, and the conv / linear
   equivalence breaks.
2. conv_equivalent (line 28): returns `(P, 1)`, stride 1 (overlapping windows), instead of
   `(P, P)`.

Grader: at blind time (b5c841e9) and now, 102/110. Mistake 1 named on kernel-stride ("You flipped the kernel (the
textbook convolution) ... K not flipped"); mistake 2 named on kernel-stride too ("Stride 1 slides
the kernel one pixel at a time ... stride P."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_kernel_flipped'}
ALIASES = ('conv_equivalent_stride_one',)  # the file's second mistake, on the same exercise


def conv_equivalent(P):
    # kernel = patch, slide like a normal conv layer (s=(1,1))
    return (P, 1)


def conv_patch_embed(image, K, b, stride):
    def _to_hwc(X):
        X = np.array(X, dtype=float)
        if X.ndim == 2:
            X = X[:, :, np.newaxis]
        if X.ndim != 3:
            raise ValueError("expected (H, W) or (H, W, C) image")
        return X

    def conv2d(X, W, p=(0, 0), s=(1, 1)):
        W_rot = np.array(W)[::-1, ::-1]
        X_orig = _to_hwc(X)
        n1 = X_orig.shape[0] + 2 * p[0]
        n2 = X_orig.shape[1] + 2 * p[1]

        X_padded = np.zeros(shape=(n1, n2, X_orig.shape[2]))
        X_padded[p[0]:p[0] + X_orig.shape[0],
                 p[1]:p[1] + X_orig.shape[1]] = X_orig

        res = []
        for i in range(0, X_padded.shape[0] - W_rot.shape[0] + 1, s[0]):
            res.append([])
            for j in range(0, X_padded.shape[1] - W_rot.shape[1] + 1, s[1]):
                X_sub = X_padded[i:i + W_rot.shape[0], j:j + W_rot.shape[1]]
                res[-1].append(np.tensordot(X_sub, W_rot, axes=([0, 1, 2], [0, 1, 2])))

        return np.array(res)

    X = _to_hwc(image)
    k = K.shape[0]
    if k > X.shape[0] or k > X.shape[1]:
        raise ValueError("kernel does not fit in the image")
    return conv2d(X, K, p=(0, 0), s=(stride, stride)) + b
