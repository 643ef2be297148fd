"""Blind round 71 (b71_09, issue 38): num_patches, patchify (with its `extract_patches`) and
encoder_block (with its `mlp`) ported from shakes76/PatternFlow
`recognition/vit-transformer-s4630996/modules.py` (Keras: tf.image.extract_patches with
padding="SAME", and the source's `mlp()`).

Mistakes:
1. num_patches (line 21 of the file as delivered): `ceil(H / P) * ceil(W / P)`, the count
   `extract_patches(padding="SAME")` returns: no ValueError when P does not tile; the right
   count when it tiles.
2. patchify (line 63, with extract_patches lines 38-50): TF's "SAME" padding: an image P does
   not tile is zero-padded (top/left pad = total // 2) and cut, instead of raising ValueError.
   Tiling images are right.
3. encoder_block (mlp, lines 129-133): the source's `mlp()` puts `activation=tanh` on every
   Dense, so the MLP is `tanh(tanh(h @ W1 + b1) @ W2 + b2)`: no GELU, and a tanh on the output.
   Wrong on every block.
The delivered file's top-level helpers `extract_patches` and `mlp` are nested here.

Grader: at blind time (3f040026) and now, 95/110. Mistake 1 named on patch-count ("You rounded
up, counting a partial patch at each edge ... raise ValueError instead of counting"); mistake 2
named on patchify ("In `patchify`, the image is zero-padded evenly on both sides, the odd row
or column at the bottom or right, to a multiple of `P` before it is cut ... raise ValueError";
its aside "vintage-models' PatchConverter" is where the pattern usually comes from, not this
file's source). Mistake 3 not told: encoder-block's two checks give only the checklist ("Check
the pre-LN order ..., both residuals, and the MLP step by step: gelu(h @ W1 + b1) @ W2 + b2"),
nothing names the tanh in place of GELU or the tanh on the MLP's output. Not every mistake
named at blind time. Named since, in the same session (error_model/every_map.py): encoder-block's
two checks say "every `linear` step is followed by tanh ... (as Keras `Dense` layers each built
with that activation)". Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'ceiling_count',
          'patchify': 'op:padded:patchify:image-padded-evenly-to-tile',
          'encoder-block': 'op:activation_every_map:encoder_block/mlp:act=tanh-after-every-map'}


def num_patches(H, W, P):
    """ number of patches extract_patches returns for an H x W image """
    return math.ceil(H / P) * math.ceil(W / P)


def patchify(image, P):
    """ Allows Patches class to act like a method with images as input """
    def extract_patches(image, size, stride, padding="SAME"):
        """ numpy version of tf.image.extract_patches for one (H, W, C) image """
        H, W, C = image.shape
        if padding == "SAME":
            out_h, out_w = math.ceil(H / stride), math.ceil(W / stride)
            pad_h = max((out_h - 1) * stride + size - H, 0)
            pad_w = max((out_w - 1) * stride + size - W, 0)
            image = np.pad(image, ((pad_h // 2, pad_h - pad_h // 2),
                                   (pad_w // 2, pad_w - pad_w // 2), (0, 0)))
        else:
            out_h, out_w = (H - size) // stride + 1, (W - size) // stride + 1
        patches = np.empty((out_h, out_w, size * size * C))
        for i in range(out_h):
            for j in range(out_w):
                patches[i, j] = image[i * stride:i * stride + size, j * stride:j * stride + size, :].reshape(-1)
        return patches

    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError("images must be (H, W) or (H, W, C)")
    patches = extract_patches(image, P, P, padding="SAME")
    patch_dims = patches.shape[-1]
    return patches.reshape(-1, patch_dims)


def encoder_block(x, p, heads):
    def mlp(x, weights):
        """ Generic function to create zero or more mlp blocks each a dense layer (dropout is off) """
        for W, b in weights:
            x = np.tanh(x @ W + b)
        return x

    x1 = layer_norm(x, p["ln1_g"], p["ln1_b"])
    attention_output = self_attention(x1, p, heads)
    x2 = attention_output + x
    x3 = layer_norm(x2, p["ln2_g"], p["ln2_b"])
    x3 = mlp(x3, [(p["W1"], p["b1"]), (p["W2"], p["b2"])])
    return x3 + x2
