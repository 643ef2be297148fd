"""Blind round 32 (b32_11, issue 38): Project-MONAI/MONAI, monai/networks/blocks/patchembedding.py
(PatchEmbeddingBlock, proj_type="perceptron": the "b c (h p1) (w p2) -> b (h w) (p1 p2 c)"
rearrange and nn.Linear as linear_patch_embed, right: CORRECT) and monai/networks/nets/vit.py
(ViT.forward: the class token prepended after the patch embedding) as embed_image.

Mistakes:
1. embed_image: the positions are added to the patch tokens BEFORE [CLS] is prepended, as MONAI
   does: patch n gets pos[n] instead of pos[n + 1], and [CLS] gets no position.
2. ANSWERS["medical"] = "scratch" (right: "pretrained").

Grader: at blind time (a78aae9) and now, both named: "`x + params['pos']` is added before
`np.vstack([params['cls'], x])`, to the rows of `x` alone, with ... `params['pos'][:len(x)]`"
on all three cls-and-positions checks, the worked example included; "A from-scratch ViT needs
a large image set" (medical:scratch) on pretrained-or-scratch. vit-forward keeps its points;
vit-checkpoint observes the broken embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack",
          'pretrained-or-scratch': 'medical:scratch'}
CORRECT = ('linear_patch_embed',)  # MONAI's perceptron patch embedding, right


def linear_patch_embed(image, W_e, b_e, P):
    """perceptron patch embedding: Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)"), then nn.Linear."""
    image = _as_hwc(image)
    H, W, C = image.shape
    for m, p in zip((H, W), (P, P)):
        if m % p != 0:
            raise ValueError(f"patch_size={P} should be divisible by img_size={(H, W)}.")
    h, w = H // P, W // P
    x = image.reshape(h, P, w, P, C)                            # (h p1) (w p2) c
    x = x.transpose(0, 2, 1, 3, 4).reshape(h * w, P * P * C)    # (h w) (p1 p2 c)
    return x @ W_e + b_e


def embed_image(image, params):
    """PatchEmbeddingBlock.forward, then the [CLS] token of ViT.forward."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    n_patches = x.shape[0]
    position_embeddings = params["pos"][:n_patches]
    embeddings = x + position_embeddings
    # ViT.forward: cls_token = self.cls_token.expand(x.shape[0], -1, -1); x = torch.cat((cls_token, x), dim=1)
    cls_token = params["cls"][None, :]
    x = np.concatenate((cls_token, embeddings), axis=0)
    return x


ANSWERS["medical"] = "scratch"
