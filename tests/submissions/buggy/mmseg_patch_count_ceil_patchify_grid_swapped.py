"""Blind round 63 (b63_10, issue 38): num_patches and patchify ported from open-mmlab/mmsegmentation
`mmseg/models/utils/embed.py` (PatchEmbed with AdaptivePadding, its `hw_shape`) and
`mmseg/models/backbones/vit.py`.

Mistakes:
14. num_patches (lines 8-9 of the file as delivered): `math.ceil(H / P) * math.ceil(W / P)`,
    AdaptivePadding's count, with no ValueError. Wrong only on sizes that do not tile (num_tokens
    inherits it).
15. patchify (lines 34-35): `hw_shape = (W // P, H // P)`, swapped, then used as the (rows, cols)
    grid of the reshape. Wrong only when H != W (linear_patch_embed, embed_image and vit_forward
    inherit it).

Grader: at blind time (edc81c9a) and now, 102/110, both named. Mistake 14 on patch-count's two
not-tiling checks ("You rounded up, counting a partial patch at each edge ... raise ValueError
instead of counting."). Mistake 15 on patchify's RGB, grayscale and random checks (at blind
time "In `patchify`, `image.reshape(H // P, P, W // P, P, C)` is given `H // P` and `W // P` the
other way round"; now: "In `patchify`, the model solution's `image.reshape(H // P, P, W // P, P,
C)` is given its `H // P` and `W // P` the other way
round"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'ceiling_count',
          'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped'}


def num_patches(H, W, P):
    out_h = math.ceil(H / P)
    out_w = math.ceil(W / P)
    return out_h * out_w


def patchify(image, P):
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError("image must be 2-D or 3-D")
    H, W, C = x.shape
    if H % P or W % P:
        raise ValueError("input size not divisible by patch size")
    hw_shape = (x.shape[1] // P, x.shape[0] // P)
    x = x.reshape(hw_shape[0], P, hw_shape[1], P, C).transpose(0, 2, 1, 3, 4)
    return x.reshape(hw_shape[0] * hw_shape[1], -1)

