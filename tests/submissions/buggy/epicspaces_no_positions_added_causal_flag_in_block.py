"""Blind round 76 (b76_13, issue 38): embed_image and encoder_block ported from
EpicSpaces/Transformers `vit.py`.

Mistakes:
1. embed_image (line 74 onward of the file as delivered): [CLS] prepended but `params["pos"]`
   never added (the source's ViT has no positional embedding). Wrong on every image.
2. encoder_block (line 122): `self_attention(..., heads, True)`, the source's
   `self.attn(self.ln1(x), True)` flag passed as `causal`: GPT's mask on the patches. Wrong on
   every input; standalone self_attention with its default is right.
The delivered file's top-level helper `mlp` is nested in encoder_block here.

Grader: at blind time (fe8b70f1) and now, 90/110. Mistake 1 named on cls-and-positions ("You
forgot the positions ... Add params["pos"] ...") and why-positions ("A bag of tiles: with your
embed_image, moving the tiles of an image only reorders the tokens ..."), mistake 2 on
encoder-block ("Your block's attention uses a causal mask ... call self_attention without
causal=True."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_forgotten',
          'why-positions': 'bag_of_tiles',
          'encoder-block': 'encoder_causal'}


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])  # (n_patches, d_model)
    cls_tokens = params["cls"][None, :]                                       # (1, d_model)
    x = np.concatenate((cls_tokens, x), axis=0)                               # (n_patches + 1, d_model)
    return x


def encoder_block(x, p, heads):
    def mlp(x, p):
        return gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads, True)
    x = x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x
