"""Blind round 35 (b35_03, issue 38): patchify and encoder_block ported from Romain Graux's Haiku
ViT in the `relax` package, vit.py (extract_patches with the einops pattern "(ph p1) (pw p2) c ->
(p1 p2) ph pw c", ph = P; TransformerBlock with an MLP that applies gelu after every Dense).

Mistakes:
1. patchify: with ph = P the einops pattern makes P the OUTER factor: each "patch" gathers pixels
   strided by H/P, W/P instead of a contiguous P x P block (tiling is still checked).
2. encoder_block applies gelu after W2 as well: gelu(gelu(h W1 + b1) W2 + b2).

Grader: at blind time and now, both named: "`image.reshape(H // P, P, W // P, P, C)` splits `H`
and `W` into blocks the other way round, as (P, H // P) ... (einops' `(p1 h)` for `(h p1)`)" on
patchify's four failed checks; "`linear(h, p['W2'], p['b2'])` also goes through the activation"
on encoder-block; vit-checkpoint observes them. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:blocks:patchify:H-W-split-swapped',
          'encoder-block': 'op:activation_added:encoder_block/mlp:activation-after-linear.2'}


def patchify(image, P):
    """extract_patches(img, patch_shape=(P, P), padding="VALID"), then flatten each patch."""
    img = _as_hwc(image)
    h, w, c = img.shape
    num_patches(h, w, P)                       # VALID: the patches must tile the image
    ph, pw = P, P
    # einops.rearrange(img, "(ph p1) (pw p2) c -> (p1 p2) ph pw c", ph=ph, pw=pw)
    x = img.reshape(ph, h // ph, pw, w // pw, c).transpose(1, 3, 0, 2, 4)
    patches = x.reshape(-1, ph, pw, c)
    # einops.rearrange(patches, "b p ... -> b p (...)")
    return patches.reshape(patches.shape[0], -1)


def encoder_block(x, p, heads):
    """TransformerBlock.__call__ of the relax ViT, for one sequence."""
    def MLP(z, units):
        for W, b in units:
            z = z @ W + b
            z = gelu(z)
        return z

    z_ = layer_norm(x, p["ln1_g"], p["ln1_b"])
    z_ = self_attention(z_, p, heads)
    x_ = x + z_  # Residual connection
    z_ = layer_norm(x_, p["ln2_g"], p["ln2_b"])
    z_ = MLP(z_, [(p["W1"], p["b1"]), (p["W2"], p["b2"])])
    return x_ + z_
