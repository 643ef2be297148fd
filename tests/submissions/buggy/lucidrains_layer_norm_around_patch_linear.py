"""Blind round 11 (b11_01, issue 38): linear_patch_embed ported from lucidrains/vit-pytorch.

Source: https://github.com/lucidrains/vit-pytorch/blob/main/vit_pytorch/vit.py (ViT.__init__):
    self.to_patch_embedding = nn.Sequential(
        Rearrange('b c (h p1) (w p2) -> b (h w) (p1 p2 c)', p1=patch_height, p2=patch_width),
        nn.LayerNorm(patch_dim), nn.Linear(patch_dim, dim), nn.LayerNorm(dim))
The student ports the whole Sequential into linear_patch_embed.
Mistakes:
 1. a LayerNorm (unit gain, zero shift) is applied to every flattened patch BEFORE the linear
    map (shows on every input: the worked example's first coordinate becomes 0, not 2.5).
 2. a second LayerNorm is applied to the tokens AFTER the linear map and bias (every input;
    the bias b_e is normalised away, each token has mean 0 / unit variance).
Realistic: lucidrains' ViT and SimpleViT both wrap the Linear in LayerNorms (since 2022);
many "ViT from scratch" repos copy that Sequential (e.g. search results for
"Rearrange ... nn.LayerNorm(patch_dim), nn.Linear(patch_dim, dim), nn.LayerNorm(dim)").

Grader: linear-patch-embed's checklist on the worked example, no hint on the RGB and random checks;
kernel-stride's checklist on the kernel-P stride-P property. Neither normalisation is named.
Since blind round 14's fixes both normalisations are named on linear-patch-embed (a step's input
standardised, and its result standardised as it is returned). Since session 13 kernel-stride's
equivalence property, which tests linear_patch_embed and conv_patch_embed together, says that linear_patch_embed loses points in its own exercise
(an observation, in place of its checklist): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'op:standardised:linear_patch_embed:standardised-biased-before-linear+op:standardised_after:linear_patch_embed:standardised-after-linear'}


def linear_patch_embed(image, W_e, b_e, P):
    """to_patch_embedding of vit-pytorch: Rearrange, LayerNorm(patch_dim), Linear, LayerNorm(dim)."""
    patches = patchify(image, P)                      # Rearrange('b c (h p1) (w p2) -> b (h w) (p1 p2 c)')
    patch_dim = patches.shape[-1]
    dim = W_e.shape[1]
    patches = layer_norm(patches, np.ones(patch_dim), np.zeros(patch_dim))   # nn.LayerNorm(patch_dim)
    tokens = patches @ W_e + b_e                                             # nn.Linear(patch_dim, dim)
    return layer_norm(tokens, np.ones(dim), np.zeros(dim))                   # nn.LayerNorm(dim)
