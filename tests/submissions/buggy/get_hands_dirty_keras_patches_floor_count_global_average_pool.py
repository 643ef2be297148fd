"""Blind round 72 (b72_05, issue 38): num_patches and vit_forward ported from
mausam1112/Get-Hands-Dirty `Img-clf-with-ViT/nn/layers/patch.py` (Keras 3 `Patches`:
`n_patch_h = height // patch_size`, no check) and the same model's classifier
(GlobalAveragePooling1D).

Mistakes:
1. num_patches (lines 8-10 of the file as delivered): floors, `(H // P) * (W // P)`, and never
   raises ValueError for sizes that do not tile (30 x 32 with P=8 gives 12). Wrong on non-tiling
   sizes only (patchify does raise).
2. vit_forward (line 128): `np.mean(representation, axis=0)`, GlobalAveragePooling1D over
   every token, instead of the [CLS] row. Wrong on every input.

Grader: at blind time (2df48139) and now, 96/110. Mistake 1 named on patch-count ("Your count is
the floored one, (H // P) * (W // P): the pixels that do not fit are silently dropped ... raise
ValueError instead of rounding"); mistake 2 named on vit-forward ("You averaged every token.
This model's head reads the [CLS] row only: x[0] after the final LayerNorm."). vit-checkpoint
runs the broken vit_forward and says so. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def num_patches(H, W, P):
    n_patch_h = H // P
    n_patch_w = W // P
    return n_patch_h * n_patch_w


def vit_forward(image, params):
    encoded_patches = embed_image(image, params)
    for block in params["blocks"]:
        encoded_patches = encoder_block(encoded_patches, block, params["heads"])
    representation = layer_norm(encoded_patches, params["ln_g"], params["ln_b"])
    representation = np.mean(representation, axis=0)  # GlobalAveragePooling1D
    logits = np.matmul(representation, params["W_head"]) + params["b_head"]
    return logits
