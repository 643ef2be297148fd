"""Blind round 33 (b33_03, issue 38): conv_patch_embed ported from conv_im2col in the CMU
10-414/714 "Deep Learning Systems" lecture notebook "Implementing convolutions"
(dlsyscourse/public_notebooks, convolution_implementation.ipynb), NHWC input and (K, K, C_in,
C_out) weights, a stride added. The notebook's `conv_im2col` is nested in conv_patch_embed.

Mistakes:
1. The stride is put into the as_strided row step (Hs * stride) but not into the column step
   (Ws, not Ws * stride): the output's columns come from consecutive windows instead of every
   stride-th one. The shape is right; right for stride 1 only.

Grader: at blind time (c4f83ef) and now, named: "`windows[::stride, ::stride]` steps the columns
one at a time" (the reference's words; the cause, columns stepped by 1 while rows are right, is
exact) on the visible and hidden checks; the kernel P, stride P equivalence check gets its true
checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:stride:conv_patch_embed:windows-axis1-unstrided'}


def conv_patch_embed(image, K, b, stride):
    def conv_im2col(Z, weight, stride):
        N, H, W, C_in = Z.shape
        K, _, _, C_out = weight.shape
        Ns, Hs, Ws, Cs = Z.strides

        H_out = (H - K) // stride + 1
        W_out = (W - K) // stride + 1
        inner_dim = K * K * C_in
        A = np.lib.stride_tricks.as_strided(Z, shape=(N, H_out, W_out, K, K, C_in),
                                            strides=(Ns, Hs * stride, Ws, Hs, Ws, Cs)).reshape(-1, inner_dim)
        out = A @ weight.reshape(-1, C_out)
        return out.reshape(N, H_out, W_out, C_out)

    Z = np.asarray(image, dtype=float)
    if Z.ndim == 2:
        Z = Z[:, :, None]
    if Z.ndim != 3:
        raise ValueError(f"expected an (H, W) or (H, W, C) image, got {Z.shape}")
    weight = np.asarray(K, dtype=float)
    k = weight.shape[0]
    if k > Z.shape[0] or k > Z.shape[1]:
        raise ValueError(f"kernel size {k} is larger than the image {Z.shape[:2]}")
    Z = np.ascontiguousarray(Z[None])          # NHWC with N = 1
    return conv_im2col(Z, weight, stride)[0] + b
