"""Blind round 35 (b35_06, issue 38): patch_dim, patchify and encoder_block ported from Mauro
Comi's "ViTAX: Building a Vision Transformer from Scratch" (maurock.github.io blog/vit.md,
maurock/vitax; JAX/NNX: PatchEmbedding's `self.channels = 3  # Assuming RGB images`,
patchify_image's "... (h p1) (w p2) c -> ... (h w) (p1 p2 c)", EncoderBlock with one shared
`self.layer_norm`).

Mistakes:
1. patch_dim returns P * P * 3 whatever C (the source's hard-coded RGB channels). Wrong when
   C != 3.
2. encoder_block uses ln1_g, ln1_b before BOTH sub-layers (the source's one shared LayerNorm);
   ln2_g, ln2_b are never used.
(patchify is ported too, correctly.)

Grader: at blind time and now, both named: "In `patch_dim`, `C` is taken as its default, 3,
whatever is given." on flatten-length, visible and hidden; "`layer_norm(x, p['ln2_g'],
p['ln2_b'], eps)` is given p['ln1_g'], p['ln1_b']: the parameters of the step before it" on
encoder-block; vit-checkpoint observes encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'flatten-length': 'op:default:patch_dim:C-as-default',
          'encoder-block': 'op:step_parameters:encoder_block:ln2_g-as-ln1_g-in-layer_norm'}
CORRECT = ('patchify',)


def patch_dim(P, C=3):
    """in_features of PatchEmbedding's nnx.Linear: patch_size**2 * channels."""
    channels = 3  # Assuming RGB images
    return P ** 2 * channels


def patchify(image, P):
    """patchify_image: "... (h p1) (w p2) c -> ... (h w) (p1 p2 c)" for one image."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    h, w = H // P, W // P                     # h, w are counts of patches
    patches = image.reshape(h, P, w, P, C).transpose(0, 2, 1, 3, 4)
    return patches.reshape(h * w, P * P * C)


def encoder_block(x, p, heads):
    """EncoderBlock.__call__ (ViTAX), for one sequence."""
    def layer_norm_(z):                        # self.layer_norm, used before both sub-layers
        return layer_norm(z, p["ln1_g"], p["ln1_b"])

    def mlp(z):                                 # Linear -> gelu -> Linear
        return gelu(z @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    embeddings_in = x
    # Layer Normalization before Attention
    x_norm1 = layer_norm_(embeddings_in)
    x_attention = self_attention(x_norm1, p, heads)
    x_skip = x_attention + embeddings_in
    # Layer Normalization before MLP
    x_norm2 = layer_norm_(x_skip)
    x_mlp = mlp(x_norm2)
    x_out = x_mlp + x_skip
    return x_out
