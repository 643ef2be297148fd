"""Blind round 48 (b48_07, issue 38): conv_patch_embed ported from moisestohias/MoisesNNFS
(Ideas/Conv.py: the `conv(x, w, b, stride, pad)` im2col done with `as_strided`, CS231n-style
asserts, `w.reshape(F, -1).dot(x_cols) + b.reshape(-1, 1)`), with `image.transpose(2, 0, 1)`,
`K.transpose(3, 2, 0, 1)`, no batch axis, pad = 0 and a ValueError for k > H.

Mistakes:
1. The source's asserts reject strides that do not tile: when `(H - k) % stride != 0` or
   `(W - k) % stride != 0`, the function raises `AssertionError: width/height does not work`.
   The API floors and returns (H', W', d). Strides that tile are right (stride = P included).
2. `image.transpose(2, 0, 1)` on a gray (H, W) image raises `ValueError: axes don't match
   array`. The API treats the image as one channel and returns. (H, W, 1) input is right.

Grader: at blind time (4b7c886d), neither named: the visible "several kernels and strides" check
showed its case 3 (7x8x3, k=2, stride 3), "got: AssertionError: height does not work", with the
"[checklist] hint: out[i, j] = sum(image[i*stride:i*stride+k, j*stride:j*stride+k, :] * K) + b
for every window that fits, ... a stride that leaves rows or columns over floors (they are not
read), it is not refused."; its gray case 4 ((6, 6), k=3, stride 2: "axes don't match array")
was never shown; the hidden check gave only its checklist. (guards.py's windows-must-fit alone
was not named: on the gray probes whose sizes the stride tiles the code raised where the guard
returns.) Now named on both value checks, as a pair: "2 mistakes at once: (1) In
`conv_patch_embed`, an image whose rows or columns the stride leaves over (`(H - k) % stride` or
`(W - k) % stride` not 0) is refused (an error is raised for it), where the lecture's floors, ...
(2) In `conv_patch_embed`, `image`'s axes are permuted as three, an (H, W, C) image's
(`image.transpose(2, 0, 1)` or another order, channels first, ...), which a 2-D (H, W) image
does not have: numpy's ValueError, axes don't match array; a 2-D image is one channel, (H, W, 1),
`image[..., None]`." (inputs.axes_permuted, paired by refusals.named_refusal). Moved to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:guarded:conv_patch_embed:windows-must-fit'
                            '+op:axes_permuted:conv_patch_embed:image-2d-axes-permuted-as-three'}


def conv_patch_embed(image, K, b, stride):
    x = np.asarray(image).transpose(2, 0, 1)   # (C, H, W)
    w = np.asarray(K).transpose(3, 2, 0, 1)    # (F, C, HH, WW)
    pad = 0
    C, H, W = x.shape
    F, _, HH, WW = w.shape
    if HH > H or WW > W:
        raise ValueError(f"kernel {HH} is larger than the {H}x{W} image")

    # Check dimensions
    assert (W + 2 * pad - WW) % stride == 0, 'width does not work'
    assert (H + 2 * pad - HH) % stride == 0, 'height does not work'

    # Pad the input
    p = pad
    x_padded = np.pad(x, ((0, 0), (p, p), (p, p)), mode='constant')

    # Figure out output dimensions
    H += 2 * pad
    W += 2 * pad
    out_h = (H - HH) // stride + 1
    out_w = (W - WW) // stride + 1

    # Perform an im2col operation by picking clever strides
    shape = (C, HH, WW, out_h, out_w)
    strides = (H * W, W, 1, stride * W, stride)
    strides = x.itemsize * np.array(strides)
    x_stride = np.lib.stride_tricks.as_strided(x_padded, shape=shape, strides=strides)
    x_cols = np.ascontiguousarray(x_stride)
    x_cols.shape = (C * HH * WW, out_h * out_w)

    # Now all our convolutions are a big matrix multiply
    res = w.reshape(F, -1).dot(x_cols) + b.reshape(-1, 1)

    # Reshape the output
    res.shape = (F, out_h, out_w)
    out = res.transpose(1, 2, 0)
    return out
