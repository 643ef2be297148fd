"""Blind round 8 (b8_10, issue 38): TensorFlow/Keras Conv2D habits: `padding="same"`, and
`kernel_size=(P, P), strides=(P, P)` pairs.

Mistakes:
1. conv_patch_embed: TensorFlow's "SAME" padding (ceil(H / stride) x ceil(W / stride) outputs)
   instead of a valid convolution. With kernel P and stride P on tiling sizes it pads nothing;
   shows whenever stride < k or the windows do not tile the image.
2. conv_equivalent: returns Keras' argument pair `((P, P), (P, P))` instead of `(P, P)`. Shows
   always.

Grader: the padding is named (op:padding: "zero-padded as TensorFlow's padding='SAME' does").
The pairs are named too (results.py: each number of the result written as a
(height, width) pair), with the check's line "each of its 2 values is the expected 16; return
the one number, not a pair of it"; round 8 found the checklist's earlier wording wrong ("A
smaller stride makes the windows overlap", though kernel and stride are P).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:padding:conv_patch_embed:pad-same'}
ALIASES = ('op:sizes_as_pairs:conv_equivalent:each-as-a-pair',)  # the other, on the same exercise


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d)."""
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[..., None]
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel larger than the image")
    # tf.nn.conv2d(padding="SAME")
    out_h = -(-H // stride)
    out_w = -(-W // stride)
    pad_h = max((out_h - 1) * stride + k - H, 0)
    pad_w = max((out_w - 1) * stride + k - W, 0)
    x = np.pad(x, ((pad_h // 2, pad_h - pad_h // 2), (pad_w // 2, pad_w - pad_w // 2), (0, 0)))
    out = np.empty((out_h, out_w, K.shape[-1]))
    for i in range(out_h):
        for j in range(out_w):
            patch = x[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j] = np.tensordot(patch, K, axes=3) + b
    return out


def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map (Practice 7)."""
    kernel_size = (P, P)
    strides = (P, P)
    return kernel_size, strides
