"""Blind round 78 (b78_06, issue 38): conv_patch_embed ported from kasperskovhansen/pysnaike
`examples/conv2d/tensordot.py` (one np.tensordot per output position).

Mistakes:
1. conv_patch_embed (line 57 of the file as delivered): `out_y = (H - num_y) // stride + 1`, the
   output's columns counted from H: right for square images; with W > H too few columns, with
   W < H the windows run off the edge and tensordot raises.
The delivered file's top-level helper `_to_hwc` is nested in conv_patch_embed here.

Grader: at blind time (ddfccf96) and now, 104/110. Mistake 1 named on kernel-stride ("In
`conv_patch_embed`, the columns of the output are counted from H, `(H - k) // stride + 1`, where
`(W - k) // stride + 1` belongs") on two of its failed checks; on the third, where the code
raised, an observation ("Your `conv_patch_embed` failed on the inputs this property gives it").
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H'}


def conv_patch_embed(image, K, b, stride):
    def _to_hwc(image):
        a = np.asarray(image, dtype=float)
        if a.ndim == 2:
            a = a[:, :, None]
        if a.ndim != 3:
            raise ValueError("expected a 2-D or 3-D image")
        return a

    a = _to_hwc(image)
    num_x, num_y, num_c, num_f = K.shape
    H, W, C = a.shape
    if num_x > H or num_x > W:
        raise ValueError("kernel does not fit in the image")
    out_x = (H - num_x) // stride + 1
    out_y = (H - num_y) // stride + 1
    out = np.zeros((out_x, out_y, num_f))
    for x in range(out_x):
        for y in range(out_y):
            sx, sy = x * stride, y * stride
            out[x, y] = np.tensordot(a[sx: sx + num_x, sy: sy + num_y, :], K, axes=([0, 1, 2], [0, 1, 2]))
    return out + b
