"""Blind round 14 (b14_05, issue 38): cs231n's conv_forward_naive with the output size of
PyTorch's pooling docs with ceil_mode=True, and timm PatchEmbed's nn.Conv2d(..., padding=0) for
conv_equivalent.

Mistakes:
1. conv_patch_embed: output size ceil((H - k) / stride) + 1, the image zero-padded at the
   bottom and right so the last window fits (right: (H - k) // stride + 1, no padding). Wrong
   only when the stride does not fit: one extra row or column of windows over zeros.
2. conv_equivalent returns (P, P, 0) (kernel_size, stride, padding) (right: the pair (P, P)).

Grader: at blind time and now, the ceil-mode size gets no hint (only "expected shape (2, 3, 4),
got (3, 3, 4)"); the triple only the checklist ("Return two integers, (kernel_size, stride)
..."). Nothing named.
Since blind round 14's fixes: the ceil-mode size is named (the error model's padding to
ceil((H - k) / stride) + 1 outputs); conv_equivalent's third value is not.
Since the eleventh session conv_equivalent's (P, P, 0) is named too: every mistake is.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:padding:conv_patch_embed:pad-ceil'}


def conv_patch_embed(image, K, b, stride):
    """Naive convolution after cs231n's conv_forward_naive; output size as in the PyTorch docs
    (MaxPool2d with ceil_mode=True): the last window may hang over the edge, so pad with zeros."""
    image = _as_hwc(image)
    k, _, C, d = K.shape
    H, W, _ = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    H_out = math.ceil((H - k) / stride) + 1
    W_out = math.ceil((W - k) / stride) + 1
    padded = np.zeros((max(H, (H_out - 1) * stride + k), max(W, (W_out - 1) * stride + k), C))
    padded[:H, :W, :] = image
    out = np.zeros((H_out, W_out, d))
    for i in range(H_out):
        for j in range(W_out):
            window = padded[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j] = np.tensordot(window, K, axes=3) + b
    return out


def conv_equivalent(P):
    """timm PatchEmbed: nn.Conv2d(in_chans, embed_dim, kernel_size=P, stride=P, padding=0)."""
    return (P, P, 0)
