"""Blind round 29 (b29_11, issue 38): embed_image ported from Hugging Face transformers
modeling_idefics2.py Idefics2VisionEmbeddings (patch_embedding, position_ids =
arange(num_patches), embeddings + position_embedding(position_ids)), with a [CLS] row put in
front afterwards because Idefics2/SigLIP towers have none.

Mistakes:
1. pos[0:N] is added to the N patch tokens BEFORE [CLS] is prepended, and [CLS] gets no
   position: row 0 lacks pos[0], patch n gets pos[n] instead of pos[n + 1]. Wrong on every
   input with pos != 0.

Grader: at blind time and now, named: "`x + params['pos']` is added before
`np.vstack([params['cls'], x])` ... with `params['pos'][:len(x)]`: the rows it joins to `x` get
nothing added and each row of `x` gets the one meant for the row before it" on
cls-and-positions; vit-checkpoint observes the broken embed_image. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack"}


def embed_image(image, params):
    """Idefics2VisionEmbeddings.forward, then a [CLS] row in front."""
    patch_embeds = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    num_patches_ = patch_embeds.shape[0]
    position_ids = np.arange(num_patches_)
    embeddings = patch_embeds + params["pos"][position_ids]
    cls = np.asarray(params["cls"])[None, :]
    return np.concatenate([cls, embeddings], axis=0)
