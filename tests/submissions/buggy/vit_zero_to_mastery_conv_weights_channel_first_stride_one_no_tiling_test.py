"""Blind round 80 (b80_08, issue 38): linear_patch_embed and conv_equivalent ported from
PogTar/VIT-Vision-Transformer-implementation- `vit_implementation.ipynb` (the "Zero to Mastery"
PyTorch ViT: PatchEmbedding by Conv2d).

Mistakes:
1. linear_patch_embed (line 67 of the file as delivered): goes through the conv with
   `K = W_e.reshape(C, P, P, d).transpose(1, 2, 0, 3)`, reading W_e's rows as (c, p1, p2) like
   nn.Conv2d weights. Wrong when C > 1 only; it carries into embed_image and vit_forward for RGB.
2. conv_equivalent (line 74): returns `(P, 1)`, stride 1 (overlapping windows). Wrong on every
   call.
3. linear_patch_embed (line 68; missed by the writer's key): no tiling test, so the conv floors
   a size P does not tile (30 x 32 with P = 16) instead of raising ValueError.

Grader: at blind time (a4b8673f) and now, 97/110. Mistake 1 named on linear-patch-embed ("pair
each patch's values with W_e's rows channel first, (c, p1, p2) ... read W_e as a (P, P, C, d)
kernel"); mistake 2 named on kernel-stride ("Stride 1 ... ViT patches tile, so the kernel moves
by a whole patch: stride P"); mistake 3 named on linear-patch-embed ("In `linear_patch_embed` (at
your line `x_patched = conv_patch_embed(...)`), there is no tiling test"). Every mistake named,
so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_channel_first',
          'kernel-stride': 'conv_equivalent_stride_one'}
ALIASES = ('op:tiling:linear_patch_embed/patchify:none+op:cropped:linear_patch_embed/patchify:image-cropped-to-tile',)


def linear_patch_embed(image, W_e, b_e, P):
    # Create a layer to turn an image into patches: conv with kernel_size=P, stride=P
    image = np.asarray(image, dtype=float)
    C = 1 if image.ndim == 2 else image.shape[2]
    embedding_dim = W_e.shape[1]
    # conv weight is laid out (in_channels, kernel, kernel, out) like nn.Conv2d
    K = W_e.reshape(C, P, P, embedding_dim).transpose(1, 2, 0, 3)
    x_patched = conv_patch_embed(image, K, b_e, P)
    # Create a layer to flatten the patch feature maps into a single dimension
    return x_patched.reshape(-1, embedding_dim)


def conv_equivalent(P):
    return (P, 1)
