"""Blind round 76 (b76_07, issue 38): num_patches and linear_patch_embed ported from
KMnO4-zx/Tiny-ViT `src/vit.py`.

Mistakes:
1. num_patches (line 20 of the file as delivered): `(H*W)/(P*P)`, true division, returns a float
   (196.0); the tiling ValueError is still raised. num_tokens inherits it.
2. linear_patch_embed (lines 63 and 65): each patch normalised before the linear map and the
   tokens after it (unit gamma, zero beta), the source's `LayerNorm(patch_dim) -> Linear ->
   LayerNorm(dim)`. Wrong on every image; conv_patch_embed is right, so the conv/linear
   equivalence breaks.
The delivered file's top-level helpers `pair` and `_norm` are nested in num_patches and
linear_patch_embed here.

Grader: at blind time (fe8b70f1) and now, 93/110. Mistake 1 named on patch-count ("In
`num_patches`, the count is a float (at your line `return (image_height * image_width) / ...`)"),
mistake 2 on linear-patch-embed ("2 mistakes at once: (1) In `linear_patch_embed`, each row of
`patchify(image, P)` is standardised ... (2) ... standardised ... before it is returned"; the
worked example, whose patch is standardised to itself up to scale, tells (2) alone). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area',
          'linear-patch-embed': ('op:standardised:linear_patch_embed:standardised-biased-before-linear'
                                 '+op:standardised_after:linear_patch_embed:standardised-after-linear')}
ALIASES = ('op:standardised_after:linear_patch_embed:standardised-after-linear',)


def num_patches(H, W, P):
    def pair(t):
        return t if isinstance(t, tuple) else (t, t)

    image_height, image_width = H, W
    patch_height, patch_width = pair(P)
    # 确保图像尺寸能被 patch 尺寸整除
    if image_height % patch_height != 0 or image_width % patch_width != 0:
        raise ValueError('Image dimensions must be divisible by the patch size.')
    # 计算 patch 的数量
    return (image_height * image_width) / (patch_height * patch_width)


def linear_patch_embed(image, W_e, b_e, P):
    def _norm(x, eps=1e-6):
        # nn.LayerNorm 刚初始化时 weight=1, bias=0
        return layer_norm(x, np.ones(x.shape[-1]), np.zeros(x.shape[-1]), eps)

    x = patchify(image, P)
    x = _norm(x)               # 归一化每个 patch
    x = x @ W_e + b_e          # 将 patch 嵌入到指定维度
    return _norm(x)            # 归一化
