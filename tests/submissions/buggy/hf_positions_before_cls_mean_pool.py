"""Blind round 5 (b5_06, issue 38): embed_image written like an early HuggingFace-port ViTEmbeddings,
vit_forward with lucidrains vit-pytorch's pool = 'mean' option.

Mistakes:
1. embed_image: the positions are added to the patch tokens before [CLS] is prepended, with
   pos[:N] (the first N rows); [CLS] gets no position and every patch gets the position of the
   row before it. Shows on every input.
2. vit_forward: the classifier reads the mean over all tokens (x.mean(axis=0)) after the final
   layer norm instead of the [CLS] row x[0]. Shows on every input.

Grader: Both are named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack",
          'vit-forward': 'vit_mean_pool_all_tokens'}


def embed_image(image, params):
    """ViTEmbeddings: patch embeddings + position embeddings, then the [CLS] token."""
    embeddings = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    num_patches = embeddings.shape[0]
    embeddings = embeddings + params["pos"][:num_patches]
    cls_tokens = params["cls"].reshape(1, -1)
    return np.concatenate((cls_tokens, embeddings), axis=0)


def vit_forward(image, params):
    """Logits of one image: embed, blocks, norm, pool, head."""
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    pooled = x.mean(axis=0)          # pool = 'mean'
    return pooled @ params["W_head"] + params["b_head"]
