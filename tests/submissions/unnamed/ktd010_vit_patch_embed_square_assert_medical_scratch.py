"""Blind round 69 (b69_11, issue 38): linear_patch_embed and ANSWERS["medical"] ported from
ktd010/Vit `patchembed.py`.

Mistakes:
1. linear_patch_embed (lines 92 and 95 of the file as delivered): PatchEmbedding.forward
   through the conv, with the source's `assert H == image_size and W == image_size` (image_size
   = H). Non-square images raise AssertionError; a square image P does not tile (5 x 5, P = 2)
   is floored by the conv and gives 4 tokens instead of ValueError.
2. ANSWERS["medical"] (line 235): "scratch". Always wrong.

Grader: at blind time (cb37e6da) and now, 102/110. Mistake 2 named ("A from-scratch ViT needs
a large image set"). Mistake 1 partly: named on "patches that do not tile raise ValueError"
("Your code refused the input with `assert` (AssertionError), where ValueError is asked for
...: write `raise ValueError(...)`"), a fix that would still reject every non-square image and
let a non-tiling square one through; the square-only assumption only as an observation ("Your
`linear_patch_embed` raises AssertionError for a 4 x 6 image: use H and W each where they
belong"). Not every mistake named, so in unnamed/; EXPECT holds what must hold today: the
points lost, the mistakes named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'refused_with_assert',
          'pretrained-or-scratch': 'medical:scratch'}


def linear_patch_embed(image, W_e, b_e, P):
    """PatchEmbedding.forward (ktd010/Vit): the Conv2d(kernel_size=P, stride=P) projection,
    then .flatten(2).transpose(1, 2)."""
    x = _as_hwc(image)
    H, W, C = x.shape
    image_size = H
    assert H == image_size and W == image_size, f"Input image size ({H}*{W}) doesn't match model image size ({image_size}*{image_size})"
    embed_dim = W_e.shape[1]
    K = W_e.reshape(P, P, C, embed_dim)                 # the conv kernel
    x = conv_patch_embed(x, K, b_e, P)                  # [H/P, W/P, embed_dim]
    return x.reshape(-1, embed_dim)                     # [num_patches, embed_dim]


ANSWERS["medical"] = "scratch"  # a ViT trains fine from scratch (ktd010/Vit does)
