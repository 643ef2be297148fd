"""Blind round 39 (b39_01, issue 38): embed_image and encoder_block ported from the Keras ViT in
KaranjotSV/ViT (layers.py: Patches, PatchEncoder, mlp; model.py: create_ViT's transformer block
loop). The student's top-level helper `mlp` is nested in encoder_block, which calls it.

Mistakes:
1. embed_image: PatchEncoder's `projection(patch) + position_embedding(range(num_patches))`, so
   pos[0..N-1] is added to the patch tokens BEFORE [CLS] is prepended: [CLS] gets no position
   and every patch gets its neighbour's position row.
2. encoder_block: Keras' `mlp(x, hidden_units)` puts `activation=gelu` on EVERY Dense, so the MLP
   is gelu(gelu(h W1 + b1) W2 + b2) (the lecture: no activation after W2).

Grader: at blind time (b589706) and now, named: "`x + params['pos']` is added before
`np.vstack([params['cls'], x])` ... with `params['pos'][:len(x)]`" on cls-and-positions and
"`linear(h, p['W2'], p['b2'])` also goes through the activation" on encoder-block;
vit-checkpoint observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack",
          'encoder-block': 'op:activation_added:encoder_block/mlp:activation-after-linear.2'}


def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4)."""
    # Patches layer + PatchEncoder.call: encoded = projection(patch) + position_embedding(positions)
    patch = patchify(image, params["P"])
    num_patches = patch.shape[0]
    positions = np.arange(0, num_patches, 1)
    encoded = patch @ params["W_e"] + params["b_e"] + params["pos"][positions]
    # the learned class token goes in front of the encoded patches
    cls = params["cls"][None, :]
    return np.concatenate([cls, encoded], axis=0)


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d), one iteration of create_ViT's loop."""
    def mlp(x, hidden, dropout=0.0):
        """Keras-style mlp(): one Dense(units, activation=gelu) per (W, b) in `hidden` (dropout off at inference)."""
        for W, b in hidden:
            x = gelu(x @ W + b)
        return x

    encoded_patches = x
    # normalization 1
    x1 = layer_norm(encoded_patches, p["ln1_g"], p["ln1_b"])
    # multi-head attention
    attn_output = self_attention(x1, p, heads)
    # skip connection 1
    x2 = attn_output + encoded_patches
    # normalization 2
    x3 = layer_norm(x2, p["ln2_g"], p["ln2_b"])
    # MLP, transformer_units = [2 * projection_dim, projection_dim]
    x3 = mlp(x3, hidden=[(p["W1"], p["b1"]), (p["W2"], p["b2"])])
    # skip connection 2
    encoded_patches = x3 + x2
    return encoded_patches
