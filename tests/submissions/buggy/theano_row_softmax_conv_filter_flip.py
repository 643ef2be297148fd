"""Blind round 24 (b24_05, issue 38): softmax and conv_patch_embed ported from Theano
(`theano.tensor.nnet.softmax`, row-wise on a matrix; `conv2d(..., filter_flip=True)`) with
Lasagne's `conv_output_length`. The student's top-level helper `conv_output_length` is nested in
conv_patch_embed here: the builder replaces only the solution's own definitions.

Mistakes:
1. softmax normalises over axis 1 whatever `axis` is given (Theano's row softmax).
2. conv_patch_embed flips the kernel, `K[::-1, ::-1]` (a true convolution, not the
   cross-correlation of deep learning).

Grader: at blind time and now, both named: the max and the sum over axis 1 instead of `axis` on
stable-softmax (the property check says it could not judge: the softmax fails on its input), and
the kernel flipped on kernel-stride (the kernel-P stride-P check gives its checklist);
vit-checkpoint observes the broken softmax. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=1+op:axis:softmax:sum.axis=1',
          'kernel-stride': 'conv_kernel_flipped'}


def conv_patch_embed(image, K, b, stride):
    def conv_output_length(input_length, filter_size, stride, pad="valid"):
        """lasagne.layers.conv.conv_output_length"""
        if pad == "valid":
            output_length = input_length - filter_size + 1
        else:
            raise NotImplementedError(pad)
        return (output_length + stride - 1) // stride

    image = _as_hwc(image)
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    kern = K[::-1, ::-1]                 # conv2d(..., filter_flip=True)
    out_h = conv_output_length(H, k, stride)
    out_w = conv_output_length(W, k, stride)
    out = np.zeros((out_h, out_w, K.shape[3]))
    for i in range(out_h):
        for j in range(out_w):
            window = image[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j] = np.tensordot(window, kern, axes=3)
    return out + b


def softmax(x, axis=-1):
    """theano.tensor.nnet.softmax: row-wise."""
    e_x = np.exp(x - x.max(axis=1, keepdims=True))
    return e_x / e_x.sum(axis=1, keepdims=True)
