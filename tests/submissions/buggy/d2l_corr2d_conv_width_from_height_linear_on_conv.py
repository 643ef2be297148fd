"""Blind round 5 (b5_05, issue 38): conv_patch_embed extended from d2l.ai's corr2d loop (multi-channel
in/out, stride added by the student), linear_patch_embed built on it as Practice 7 allows.

Mistakes (both in conv_patch_embed):
1. the output width is computed from H: W_out = (H - k) // stride + 1 (copy-paste of the
   height line). Shows only on non-square images (too many or too few output columns).
2. the window starts at [i:i+k, j:j+k] instead of [i*stride:i*stride+k, j*stride:...]: the
   stride is used in the output size but not in the window position. Shows only with stride > 1.
linear_patch_embed is right (conv with K = W_e.reshape(P, P, C, d), stride P, then reshape),
but it calls the broken conv_patch_embed.

Grader: Nothing names the two conv mistakes together (each alone is: buggy/conv_stride_ignored.py,
buggy/conv_tutorial_width_from_height.py): the visible case 1 (square, stride 2) shows only
the window, case 2 (5 x 6, stride 1) only the width. vit-checkpoint runs the conv through
the student's linear_patch_embed and loses its points too (uses: names linear_patch_embed).
Since session 16 both are named at once (windows.count_from_sibling's reading with the windows
at their index: two edits of the one `windows[::s, ::s]`, which no pair of singles can make).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count:conv_patch_embed:windows-unstrided-W-count-from-H'}


def conv_patch_embed(image, K, b, stride):
    """corr2d with several input and output channels and a stride."""
    X = _as_hwc(image)
    H, W, C = X.shape
    k, _, _, d = K.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    H_out = (H - k) // stride + 1
    W_out = (H - k) // stride + 1
    Y = np.zeros((H_out, W_out, d))
    for i in range(H_out):
        for j in range(W_out):
            window = X[i:i + k, j:j + k, :]
            Y[i, j] = np.tensordot(window, K, axes=3) + b
    return Y


def linear_patch_embed(image, W_e, b_e, P):
    """The patch embedding as a stride-P convolution (Practice 7)."""
    img = _as_hwc(image)
    H, W, C = img.shape
    num_patches(H, W, P)
    d = W_e.shape[1]
    return conv_patch_embed(img, W_e.reshape(P, P, C, d), b_e, P).reshape(-1, d)
