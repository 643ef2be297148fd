"""Blind round 80 (b80_15, issue 38): num_patches and conv_patch_embed ported from
onnx/onnx.github.io `docs/onnx_doc_folder/onnx__Conv.rst` (the Conv output-shape formula, VALID,
pads 0). The delivered file's top-level helper `_out_size` is nested in both functions here.

Mistakes:
1. num_patches (line 17 of the file as delivered): the conv output formula `floor((H - P) / P)
   + 1`, which floors and never raises on sizes P does not tile (10 x 8 with P = 4 gives 2).
   num_tokens inherits it.
2. conv_patch_embed (line 54): checks only `kH > H`; a kernel wider than the image (8 x 4 with
   k = 5) returns an empty (4, 0, d) array instead of raising ValueError.

Grader: at blind time (a4b8673f) and now, 107/110. Mistake 1 named on patch-count ("Your count is
the floored one, (H // P) * (W // P) ... raise ValueError"; the code's (H - P) // P + 1 is the same
count); mistake 2 named on kernel-stride ("tests the height only (`k > H`) ... test `k > W` too").
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'kernel-stride': 'op:kernel_one_side:conv_patch_embed:height-only'}


def num_patches(H, W, P):
    def _out_size(in_size, kernel, stride, pad=0, dilation=1):
        return (in_size + pad - dilation * (kernel - 1) - 1) // stride + 1

    # a patch embedding is a Conv with kernel_shape = strides = [P, P]
    return _out_size(H, P, P) * _out_size(W, P, P)


def conv_patch_embed(image, K, b, stride):
    def _out_size(in_size, kernel, stride, pad=0, dilation=1):
        return (in_size + pad - dilation * (kernel - 1) - 1) // stride + 1

    X = np.asarray(image, dtype=np.float64)
    if X.ndim == 2:
        X = X[:, :, None]
    H, W, C = X.shape
    kH, kW = K.shape[0], K.shape[1]
    if kH > H:
        raise ValueError("kernel_shape larger than the input")
    oH = _out_size(H, kH, stride)
    oW = _out_size(W, kW, stride)
    Y = np.zeros((oH, oW, K.shape[3]))
    for i in range(oH):
        for j in range(oW):
            Y[i, j] = np.tensordot(X[i * stride:i * stride + kH, j * stride:j * stride + kW, :], K, axes=3)
    return Y + b
