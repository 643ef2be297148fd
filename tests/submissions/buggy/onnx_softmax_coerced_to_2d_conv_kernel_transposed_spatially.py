"""Blind round 25 (b25_03, issue 38): softmax and conv_patch_embed ported from ONNX operator
semantics as OpenVINO's ONNX importer and the ONNX reference runtime implement them: Softmax before
opset 13 coerces the input to 2-D at `axis` (`flatten(data, axis)`, then a softmax over dim 1), and
Conv takes X (N, C, H, W) and W (M, C, kH, kW) (onnx/reference/ops/op_conv.py-style loops).

Mistakes:
1. softmax normalises over `axis` and every axis after it (`x.reshape(prod(shape[:axis]), -1)`):
   right for the last axis, wrong for axis=0 on 2-D input or axis=1 on 3-D input.
2. conv_patch_embed turns the (k, k, C, d) kernel into ONNX's layout with `K.transpose(3, 2, 1,
   0)`, (d, C, kW, kH): the kernel is transposed spatially.

Grader: at blind time and now, both named: the max and the sum over `axis` and every axis after it
("as a kernel that views the array as 2-D at `axis` does", one slip made at 2 places; since
blind round 68 the sum's, the max's place said as one these cases cannot tell, the max's axes
changing none of the values once the sum is over the same ones) on stable-softmax, and `K` read with its first two axes swapped on kernel-stride (the kernel-P
stride-P check's checklist there too). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:later_axes:softmax:sum.axis-and-later+~op:later_axes:softmax:max.axis-and-later',
          'kernel-stride': 'op:transposed_argument:conv_patch_embed:K-axes-swapped'}


def conv_patch_embed(image, K, b, stride):
    """ONNX Conv, group=1, no pads, dilations 1, strides (stride, stride)."""
    image = _as_hwc(image)
    X = image.transpose(2, 0, 1)          # (C, H, W)
    Wt = K.transpose(3, 2, 1, 0)          # (M, C, kH, kW)
    M, C, kh, kw = Wt.shape
    _, H, W = X.shape
    if kh > H or kw > W:
        raise ValueError(f"kernel {kh}x{kw} is larger than the {H}x{W} image")
    oh = (H - kh) // stride + 1
    ow = (W - kw) // stride + 1
    res = np.zeros((M, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = X[:, i * stride:i * stride + kh, j * stride:j * stride + kw]
            res[:, i, j] = np.tensordot(Wt, patch, axes=([1, 2, 3], [0, 1, 2])) + b
    return res.transpose(1, 2, 0)


def softmax(x, axis=-1):
    """ONNX Softmax-11 semantics (as OpenVINO's onnx_import lowers it)."""
    x = np.asarray(x, dtype=float)
    shape = x.shape
    if axis < 0:
        axis += x.ndim
    coerced = x.reshape(int(np.prod(shape[:axis])), -1)
    e = np.exp(coerced - coerced.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).reshape(shape)
