"""Blind round 70 (b70_12, issue 38): conv_patch_embed ported from parthav-garg/ML_learning
`test_main.py` (the conv1d recipe: windows -> X_unrolled -> one matmul with K_flat).

Mistakes:
1. conv_patch_embed (line 60 of the file as delivered): `sliding_window_view(..., axis=(0, 1))`
   yields (H', W', C, k, k) windows, flattened (c, kh, kw), while `K.reshape(C*k*k, d)` is in
   (kh, kw, c) order. Right for one channel; wrong for C > 1 at any stride.

Grader: at blind time (3f040026) and now, 104/110, named on kernel-stride ("Each window is read
channel first, (c, p1, p2) ... while the kernel is flattened (p1, p2, c)"; the kernel/stride
equivalence check adds the checklist). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:flattened_apart:conv_patch_embed:windows-K-flattened-apart'}


def conv_patch_embed(image, K, b, stride):
    def _hwc(image):
        x = np.asarray(image, dtype=float)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError("image must be 2-D or 3-D")
        return x

    x = _hwc(image)
    H, W, C_in = x.shape
    k, _, _, C_out = K.shape
    if k > H or k > W:
        raise ValueError("kernel larger than image")
    # Step 1: Sliding windows over the two spatial axes
    # shape: (H-k+1, W-k+1, C_in, k, k)
    windows = np.lib.stride_tricks.sliding_window_view(x, window_shape=(k, k), axis=(0, 1))[::stride, ::stride]
    H_out, W_out = windows.shape[:2]
    # Step 2: reshape windows to (H_out, W_out, C_in * k * k)
    X_unrolled = windows.reshape(H_out, W_out, C_in * k * k)
    # Step 3: reshape kernel to (C_in * k * k, C_out)
    K_flat = K.reshape(C_in * k * k, C_out)
    # Step 4: Matrix multiply
    return X_unrolled @ K_flat + b
