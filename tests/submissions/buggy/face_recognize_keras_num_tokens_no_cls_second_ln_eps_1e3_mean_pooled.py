"""Blind round 66 (b66_05, issue 38): num_tokens,
encoder_block and vit_forward ported from nguyenminhduc0233/Face-Recognize (Keras:
`Model/vit_model.py`, its Patch* and Position* layers).

Mistakes:
9. vit_forward (line 191 of the file as delivered): GlobalAveragePooling1D, the mean over all
   tokens, instead of the [CLS] row. Wrong on any input.
10. encoder_block (line 180): the second LayerNorm keeps Keras' default epsilon=1e-3
    (`layers.LayerNormalization()`; the first says 1e-6). Wrong on any input, slightly.
11. num_tokens (line 28): `cls_token=False` by default (the source model has no class token).
    Wrong where cls_token is left at its default.

Grader: at blind time (f4776223), 89/110. Mistake 9 named on vit-forward ("You averaged
every token"), mistake 11 on token-count ("`cls_token` defaults to False (`cls_token=False` in
the signature)"); mistake 10 only observed then, on encoder-block's hidden check ("... except
in 1 of 9 rows (row 3)"), now named there (error_model/call_eps.py): "In `encoder_block`, at
the second LayerNorm (with `p['ln2_g']` and `p['ln2_b']`) alone, eps is 0.001; the student
API's is 1e-06 there." (the visible check passes). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'op:default_flipped:num_tokens:cls_token-defaults-False',
          'encoder-block': 'op:call_eps:encoder_block:layer_norm_2_eps=0.001',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def num_tokens(H, W, P, cls_token=False):
    """Sequence length T entering the transformer: the N patches (plus one row for [CLS] if used)."""
    num_patches_ = num_patches(H, W, P)   # patch_shape[1] * patch_shape[2]
    return num_patches_ + (1 if cls_token else 0)


def encoder_block(x, p, heads):
    """The encoder block of transfomer_encoder_mlp_head, with the lab's MLP.

    normalized = LayerNormalization(epsilon=1e-6)(x); mix = Add()([mha(normalized), x])
    x = LayerNormalization()(mix); x = mix + mlp(x)
    """
    normalized_patches = layer_norm(x, p["ln1_g"], p["ln1_b"], eps=1e-6)
    attn = self_attention(normalized_patches, p, heads)
    mix = attn + x                                    # layers.Add()([x, combined_embeddings])
    h = layer_norm(mix, p["ln2_g"], p["ln2_b"], eps=1e-3)   # layers.LayerNormalization() defaults
    output_2 = gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return output_2 + mix                             # layers.Add()([output_2, mix])


def vit_forward(image, params):
    """Logits (num_classes,) of one image: embed, blocks, final LayerNorm, pooling, Dense head."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    pooled = x.mean(axis=0)                          # layers.GlobalAveragePooling1D()
    return pooled @ params["W_head"] + params["b_head"]
