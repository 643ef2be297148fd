"""Blind round 46 (b46_04, issue 38): conv_patch_embed ported from a FastEstimator TensorFlow ViT
training script (code-search file id 15565941591: `Conv2D(em_dim, kernel_size=patch_size,
strides=patch_size, use_bias=False)` as the patch embedding), written as a patch reshape.

Mistakes:
1. The convolution is written as a tiling reshape, `image.reshape(H // k, k, W // k, k, C)`:
   `stride` is ignored (k = stride assumed) and k is assumed to tile H and W. ValueError (cannot
   reshape) when k does not tile ((9, 9, 3) k=4 s=4, (8, 8, 1) k=3 s=1); the wrong shape when k
   tiles but stride != k ((8, 8, 3) k=4 s=2 gives (2, 2, d) where (3, 3, d) is asked for).
2. The bias `b` is never added (use_bias=False).

Grader: at blind time (78229091), neither named: "several kernels and strides" (a tiling k =
stride case shown) had the `[observation]` "returns the expected values minus `b` in every row";
the equivalence check and the hidden check ("your code raised ValueError") `[checklist]`s only.
Now both are named, as a pair, on "several kernels and strides" and the hidden check (grid_cuts'
`stride_ignored`: "the windows are the image's k x k tiles, cut by `image.reshape(H // k, k, W //
k, k, C)` ... `stride` is never used ..."; and "the bias `b` is left out", once told as a missing
residual); the equivalence check (k = stride = P, only the bias differs) keeps its
`[checklist]`. Moved to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:term:conv_patch_embed:drop-b+op:stride_ignored:conv_patch_embed:'
                           'stride-ignored-image-reshaped-to-tiles'}


def conv_patch_embed(image, K, b, stride):
    # Patch Embedding: Conv2D(em_dim, kernel_size=patch_size, strides=patch_size, use_bias=False)
    # Each window of the kernel is one patch, so cut the patches and use the kernel as a matrix.
    image = _as_hwc(image)
    H, W, C = image.shape
    patch_size = K.shape[0]
    em_dim = K.shape[-1]
    if patch_size > H or patch_size > W:
        raise ValueError(f"kernel {patch_size} is larger than the {H}x{W} image")
    x = image.reshape(H // patch_size, patch_size, W // patch_size, patch_size, C)
    x = x.transpose(0, 2, 1, 3, 4).reshape(H // patch_size, W // patch_size, -1)  # [H, W, k*k*C]
    x = x @ K.reshape(-1, em_dim)  # [H, W, em_dim]
    return x
