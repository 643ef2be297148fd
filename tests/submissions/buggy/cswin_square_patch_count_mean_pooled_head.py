"""Blind round 58 (b58_07, issue 38): num_patches and vit_forward ported from
microsoft/CSWin-Transformer `models/cswin.py` (CSWinBlock's single `resolution`,
CSWinTransformer's head on `torch.mean(x, dim=1)`).

Mistakes:
11. num_patches (lines 9-12 of the file as delivered) counts a square grid,
    `(H // P) * (H // P)`, and checks `H % P` only (CSWin's single `resolution`). num_tokens
    calls it and is wrong the same way. Wrong only when H != W: a wrong count, and a W that does
    not tile is not rejected.
12. vit_forward (line 129) classifies from the mean over all tokens (CSWin's
    `torch.mean(x, dim=1)` head) instead of the [CLS] row. Wrong on every input.

Grader: at blind time (ba46f523) and now, 94/110, both named. Mistake 11 on patch-count's
non-square and random checks (at blind time "In `num_patches`, `W // P` reads `H` where `W`
belongs: `H // P`, a copy of its sibling term (right only when H == W)."; now: "In `num_patches`,
the model solution's `W // P` reads `H` where `W` belongs: a copy of its sibling term (right only
when H == W).") and, with the tiling half, on its random non-tiling check ("2 mistakes at once: (1)
... tests the height only (`H % P`) ... test `W % P` too. (2) ..."); token-count keeps full marks
around it. Mistake 12 on vit-forward's two checks ("You averaged every token. This model's head
reads the [CLS] row only: x[0] after the final LayerNorm."); vit-checkpoint observes vit_forward.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def num_patches(H, W, P):
    """Number of P x P patches of an H x W image."""
    resolution = H
    if resolution % P != 0:
        raise ValueError("patch size must divide the resolution")
    return (resolution // P) * (resolution // P)


def vit_forward(image, params):
    """Class logits of one image."""
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = np.mean(x, axis=0)
    return x @ params["W_head"] + params["b_head"]
