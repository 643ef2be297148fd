"""Blind round 37 (b37_06, issue 38): Minhaj-Moin/DeepLearningSS2024,
exercise2_material/src_to_implement/Layers/Conv.py (FAU Deep Learning exercise 2, Conv layer:
signal.correlate2d(..., mode='same') per kernel and channel, then `[::stride, ::stride]`).

Mistakes:
1. `conv_patch_embed`: a zero-padded 'same' correlation (written with np.pad and sliding
   windows, no scipy), the bias added, then subsampled by the stride: not a valid convolution.

Grader: at blind time (273cad6) and now, named on kernel-stride: "the image is zero-padded by
k - 1 rows and columns whatever the stride (the 'SAME' of a stride-1 convolution ...)"; the
equivalence check (8x8x3, P = 4) has the generic [checklist]. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:padding:conv_patch_embed:pad-kernel-less-one-end'}


def conv_patch_embed(image, K, b, stride):
    image = _as_hwc(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    num_kernels = K.shape[3]
    conv_filter = K.transpose(3, 2, 0, 1)   # (num_kernels, c, y, x) as in the exercise
    input_tensor = image.transpose(2, 0, 1)  # (c, y, x)

    def correlate2d_same(a, f):
        # signal.correlate2d(a, f, boundary='fill', mode='same'), without scipy
        kh, kw = f.shape
        top, left = (kh - 1) // 2, (kw - 1) // 2
        padded = np.pad(a, ((top, kh - 1 - top), (left, kw - 1 - left)))
        windows = np.lib.stride_tricks.sliding_window_view(padded, (kh, kw))
        return np.einsum("yxij,ij->yx", windows, f)

    c = np.zeros((num_kernels, H, W))
    for ch in range(num_kernels):
        for i in range(C):
            c[ch] += correlate2d_same(input_tensor[i], conv_filter[ch, i])
        c[ch] += b[ch]
    c = c[:, ::stride, ::stride]
    return c.transpose(1, 2, 0)
