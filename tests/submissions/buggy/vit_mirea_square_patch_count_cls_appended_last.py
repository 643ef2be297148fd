"""Blind round 39 (b39_07, issue 38): num_patches and embed_image ported from
Sanch0pansa/ViT-pytorch-mirea (source/model/PatchEmbedding.py: Conv2d + Rearrange, cls_token,
position_embeddings).

Mistakes:
1. num_patches: `(img_size // patch_size) ** 2` with img_size = H: a square image assumed, and
   only H tested for tiling (the API: (H/P)(W/P), ValueError when either side does not tile).
   Shows only on non-square images.
2. embed_image: `torch.cat((patches, cls_token), dim=1)`: [CLS] appended as the LAST row, then
   pos added (the lecture: [CLS] is row 0).

Grader: at blind time (b589706) and now, named: "`W // P` reads `H` where `W` belongs" on the
non-square and random checks, and with "the tiling test `check_tiling(H, W, P)` tests the height
only" in "2 mistakes at once" on the hidden non-tiling check (both parts the file's one slip);
"You appended [CLS] as the last row" on cls-and-positions (graded with the grader's num_patches
standing in); vit-checkpoint observes the broken embed_image. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:height-only+op:sibling:num_patches:W-as-H',
          'cls-and-positions': 'embed_cls_appended'}


def num_patches(H, W, P):
    """Number of non-overlapping P x P patches: (img_size // patch_size) ** 2."""
    img_size, patch_size = H, P
    if patch_size <= 0 or img_size % patch_size:
        raise ValueError(f"patch size {patch_size} does not tile a {H}x{W} image")
    return (img_size // patch_size) ** 2


def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4)."""
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_token = params["cls"][None, :]
    patches = np.concatenate((patches, cls_token), axis=0)
    patches = patches + params["pos"]
    return patches
