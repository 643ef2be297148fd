"""Blind round 43 (b43_07, issue 38): patch_dim and embed_image ported from
s-chh/PyTorch-Scratch-Vision-Transformer-ViT, model.py (EmbedLayer: `pos_embedding` of
(image_size // patch_size) ** 2 rows added to the patches, then `torch.cat((cls_token, x),
dim=1)`) and main.py (`--n_channels`, default=1).

Mistakes:
1. patch_dim: `C` defaults to 1 (main.py's MNIST default) instead of 3: right whenever C is
   given.
2. embed_image: the positions are added to the patch tokens with `pos[:N]`, then [CLS] is put
   in front with no position: [CLS] misses pos[0] and each patch gets the position of the row
   before it.

Grader: at blind time (b20830f) and now, both named: "In `patch_dim`, `C` defaults to 1 instead
of 3 ..." on flatten-length and "In `embed_image`, `x + params['pos']` is added before
`np.vstack([params['cls'], x])` ... with `params['pos'][:len(x)]` ..." on cls-and-positions (the
file uses np.concatenate); vit-checkpoint observes embed_image. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {
    'flatten-length': 'op:default_changed:patch_dim:C-default-1',
    'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack",
}


def patch_dim(P, C=1):
    """Numbers in one flattened patch: n_channels * patch_size * patch_size (n_channels defaults to 1)."""
    return P * P * C

def embed_image(image, params):
    """EmbedLayer.forward: patch encoding, + positional embedding, then the classification token."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])   # N, E
    n = x.shape[0]
    x = x + params["pos"][:n]                                                   # Add positional embedding
    x = np.concatenate([params["cls"][None, :], x], axis=0)                     # Add classification token
    return x
