"""Blind round 76 (b76_02, issue 38): patchify and encoder_block ported from Carrioli/jax_DL
`vit.py`.

Mistakes:
1. patchify (line 38 of the file as delivered): the source's `extract_patches` with
   `transpose(1, 3, 0, 2, 4)` on a (C, H, W) image flattens each patch (c, p1, p2), not
   (p1, p2, c). Wrong when C > 1 only.
2. encoder_block via its `mlp` (line 140): `gelu(... @ W2 + b2)`, as in the source a GELU also
   on the MLP's output. Wrong on every input.
The delivered file's top-level helpers `extract_patches` (its default `patch_size=patch_size`,
a module constant of 16, dropped) and `mlp` are nested in patchify and encoder_block here.

Grader: at blind time (fe8b70f1) and now, 94/110. Mistake 1 named on patchify ("You flattened
each patch channel first, (c, p1, p2)..."), mistake 2 on encoder-block ("In `encoder_block` (in
its call of your `mlp`), the model solution's `linear(h, p['W2'], p['b2'])` also goes through
the activation ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'encoder-block': 'op:activation_added:encoder_block/mlp:activation-after-linear.2'}


def patchify(image, P):
    def extract_patches(x, patch_size):
        C, H, W = x.shape
        x = x.reshape(C, H // patch_size, patch_size, W // patch_size, patch_size)
        x = np.transpose(x, (1, 3, 0, 2, 4))
        patches = x.reshape(-1, C * patch_size * patch_size)
        return patches

    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[:, :, np.newaxis]
    if image.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    H, W, C = image.shape
    num_patches(H, W, P)
    # extract_patches works on (C, H, W)
    return extract_patches(np.transpose(image, (2, 0, 1)), P)


def encoder_block(z_l_minus_1, p, heads):
    def mlp(x, W1, b1, W2, b2):
        return gelu(np.dot(gelu(np.dot(x, W1) + b1), W2) + b2)

    z_prime_l = self_attention(layer_norm(z_l_minus_1, p['ln1_g'], p['ln1_b']), p, heads) + z_l_minus_1
    z_l = mlp(layer_norm(z_prime_l, p['ln2_g'], p['ln2_b']), p['W1'], p['b1'], p['W2'], p['b2']) + z_prime_l
    return z_l
