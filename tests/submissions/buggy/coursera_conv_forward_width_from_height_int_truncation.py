"""Blind round 41 (b41_06, issue 38): the Coursera "Convolution model - Step by Step" conv_forward
as solved in thiagobspy/recipes-ml, pure_neural/cnn/conv_step.py (conv_forward(A_prev, W, b,
hparameters), m = 1 example, pad = 0), as conv_patch_embed.

Mistakes:
1. conv_patch_embed: `n_W = int((n_H_prev + 2 * pad - f) / stride + 1)`: the width counted from
   the height (a line copied): only non-square images.
2. conv_patch_embed: no size check, and `int()` truncates toward zero: a kernel larger than the
   image by less than the stride (by 1 with stride 1) gives an empty (0, 0, d) output instead of
   ValueError.

Grader: at blind time (6092674), 1 named on several kernels and strides and the hidden
check ("the columns of the output are counted from H, `(H - k) // stride + 1`, where `(W - k) //
stride + 1` belongs"); 2 only the checklist ("A 3x3 kernel does not fit in a 2-pixel-high image:
raise ValueError."). The equivalence check (4x1 image: mistake 1) has the generic checklist.
Now 2 named too, on the refusal check, paired with 1 (the count copied from H makes the empty
output (0, 0, d)), in the reading that broadcasts a slice cut short by the edge, as the file's
`np.sum(a_slice_prev * W[..., c])` does: "2 mistakes at once: (1) ... nothing tests that the
kernel fits the image: ... an array comes back (an empty one ...) ... (2) ... the columns of the
output are counted from H". (With stride 1 `int((H - k) / stride + 1)` is the floor's count.)
Since 8545df5c (error_model/evidence.empty_alike: no value reproduces no value, in any shape) 2
is named on its own on the refusal check, the kernel test's rewrite returning an empty array as
the file does ("nothing tests that the kernel fits the image: ... an array comes back (an empty
one ..."), and 1 on the two others. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:kernel_untested:conv_patch_embed:kernel-untested'}


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d).

    conv_forward from the convolution assignment with m = 1 example and pad = 0.
    """
    A_prev = _as_hwc(image)[None]
    W = K
    hparameters = {"stride": stride, "pad": 0}

    (m, n_H_prev, n_W_prev, n_C_prev) = A_prev.shape

    (f, f, n_C_prev, n_C) = W.shape

    stride = hparameters['stride']
    pad = hparameters['pad']

    n_H = int((n_H_prev + 2 * pad - f) / stride + 1)
    n_W = int((n_H_prev + 2 * pad - f) / stride + 1)

    Z = np.zeros((m, n_H, n_W, n_C))

    A_prev_pad = np.pad(A_prev, ((0, 0), (pad, pad), (pad, pad), (0, 0)), 'constant', constant_values=(0, 0))

    for i in range(m):
        a_prev_pad = A_prev_pad[i]
        for h in range(n_H):
            for w in range(n_W):
                for c in range(n_C):
                    vert_start = h * stride
                    vert_end = vert_start + f
                    horiz_start = w * stride
                    horiz_end = horiz_start + f

                    a_slice_prev = a_prev_pad[vert_start:vert_end, horiz_start:horiz_end]

                    Z[i, h, w, c] = np.sum(a_slice_prev * W[..., c]) + b[..., c]

    assert (Z.shape == (m, n_H, n_W, n_C))

    return Z[0]
