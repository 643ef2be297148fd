"""Blind round 69 (b69_01, issue 38): num_patches, patch_dim and attention_scores ported from
ktd010/Vit `Vit.py` (and `patchembed.py`).

Mistakes:
1. num_patches (line 20 of the file as delivered): `(image_size // patch_size) ** 2` with
   image_size = H, so W is ignored and nothing raises ValueError. Wrong on non-square images
   and on sizes P does not tile.
2. patch_dim (line 36): `in_channels = 3` hard-coded, as in `PatchEmbedding(image_size,
   patch_size, 3, embed_dim)`. Wrong when C != 3 only.
3. attention_scores (line 47): `seq_len = num_tokens + 1`, the argument read as num_patches
   and pos_embed's `num_patches + 1` added. Wrong on every input.
The delivered file's top-level helper `patch_size_sq` is nested in patch_dim here.

Grader: at blind time (cb37e6da) and now, 97/110, all named. Mistake 1 on patch-count ("In
`num_patches`, `W // P` reads `H` where `W` belongs"; with "there is no tiling test ... raise
ValueError when P does not divide H or W" on the tiling checks); mistake 2 on flatten-length
("In `patch_dim`, `C` is taken as its default, 3, whatever is given"); mistake 3 on
attention-cost ("`T * T` is computed as `(T + 1) * (T + 1)` ... (is something counted
twice?)"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:none+op:sibling:num_patches:W-as-H',
          'flatten-length': 'op:default:patch_dim:C-as-default',
          'attention-cost': 'op:count:attention_scores:T-plus-1'}


def num_patches(H, W, P):
    """Number of non-overlapping P x P patches (from ktd010/Vit: self.num_patches)."""
    # VisionTransformer.__init__: self.num_patches = (image_size // patch_size) ** 2
    image_size, patch_size = H, P
    return (image_size // patch_size) ** 2


def patch_dim(P, C=3):
    """Numbers in one flattened patch (the Conv2d(in_channels=3, ...) projection input)."""
    def patch_size_sq(patch_size):
        return patch_size * patch_size

    # PatchEmbedding(image_size, patch_size, 3, embed_dim): in_channels is always 3
    in_channels = 3
    return patch_size_sq(P) * in_channels


def attention_scores(num_tokens):
    """Scores in one attention map: (num_patches + 1) tokens attend to each other."""
    # pos_embed has self.num_patches+1 rows: the [CLS] token is the +1
    seq_len = num_tokens + 1
    return seq_len * seq_len
