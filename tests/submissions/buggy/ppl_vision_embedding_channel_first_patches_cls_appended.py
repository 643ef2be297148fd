"""Blind round 40 (b40_05, issue 38): linear_patch_embed and embed_image ported from the
OpenPPL/ppl.pmx operator spec docs/operators/VisionEmbedding.md (patch_weight (hidden, C, P, P);
cls_emb = Cat(patch_emb, cls); position_weight[:Gh*Gw+1]) over the course's (p1, p2, c) patchify.

Mistakes:
1. linear_patch_embed: each flattened patch reordered channel first, (c, p1, p2), before `@ W_e`
   (the spec's conv-weight layout): W_e's rows meet the wrong pixels when C > 1.
2. embed_image: [CLS] appended after the patches (the last row) instead of prepended.

Grader: at blind time (b589706) and now, named: "Your tokens pair each patch's values with W_e's
rows channel first, (c, p1, p2)" on the RGB and hidden linear-patch-embed checks, and "You
appended [CLS] as the last row" on cls-and-positions (graded with the grader's
linear_patch_embed); kernel-stride's equivalence check and vit-checkpoint observe the broken
linear_patch_embed. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_channel_first', 'cls-and-positions': 'embed_cls_appended'}


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): patchify(image, P) @ W_e + b_e, W_e (P*P*C, d), b_e (d,)."""
    patches = patchify(image, P)                       # (Gh*Gw, P*P*C)
    Gh_Gw = patches.shape[0]
    channels = patches.shape[1] // (P * P)
    # the patch weight is (hidden_dim, channels, patch_size, patch_size): flatten each patch
    # channel by channel so it lines up with the weight's rows
    patches = patches.reshape(Gh_Gw, P, P, channels).transpose(0, 3, 1, 2)
    patches = patches.reshape(Gh_Gw, channels * P * P)
    return patches @ W_e + b_e


def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4)."""
    patch_emb = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    Gh_Gw = patch_emb.shape[0]
    cls_emb = np.concatenate([patch_emb, params["cls"][None, :]], axis=0)
    pos_emb = cls_emb + params["pos"][:Gh_Gw + 1, :]
    return pos_emb
