"""Blind round 77 (b77_05, issue 38): num_patches and conv_patch_embed ported from
Prajwo0l/Transformers `VisionTransformer/PatchEmbedding.py` (with TransformerEncoder.py).

Mistakes:
1. num_patches (line 15 of the file as delivered): `(H // P) ** 2` (the source's
   `(img_size//patch_size)**2`): wrong on non-square images (12x8, P=4 gives 9, not 6).
2. conv_patch_embed (line 65): the output flattened to (H'*W', d), as `flatten(2).transpose(1,
   2)` does, instead of (H', W', d). The values are right; the shape is wrong on every input.

Grader: at blind time (15b4065f) and now, 103/110. Mistake 1 named on patch-count ("In
`num_patches`, `W // P` reads `H` where `W` belongs"), mistake 2 on kernel-stride ("the result
... comes back flattened to rows, `.reshape(-1, d)`"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'kernel-stride': 'op:result_flattened:conv_patch_embed:result-flattened-to-rows'}


def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError("image size must be divisible by patch size")
    return (H // P) ** 2


def conv_patch_embed(image, K, b, stride):
    # same as nn.Conv2d(num_channels, token_dim, kernel_size, stride) then flatten(2).transpose(1, 2)
    x = np.asarray(image, dtype=float)
    if x.ndim == 2:
        x = x[:, :, None]
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel is bigger than the image")
    Ho = (H - k) // stride + 1
    Wo = (W - k) // stride + 1
    x = np.lib.stride_tricks.sliding_window_view(x, (k, k), axis=(0, 1))
    x = x[::stride, ::stride]                      # (Ho, Wo, C, k, k)
    x = np.einsum("ijcpq,pqcd->ijd", x, K) + b     # (Ho, Wo, d)
    x = x.reshape(Ho * Wo, -1)                     # flatten(2) + transpose(1, 2)
    return x
