"""Lab 4 submission, ported from Hugging Face ViTEmbeddings / ViTLayer, but written from memory.

Mistakes (2):
- embed_image adds the position embeddings to the patch tokens only (pos[1:]) and then
  prepends [CLS], so the [CLS] row never gets its position pos[0].
- encoder_block is post-LN (BERT style): x = LN(x + attn(x)), x = LN(x + mlp(x)),
  instead of the pre-LN ViT block.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls', 'encoder-block': 'encoder_post_ln'}


def embed_image(image, params):
    """ViTEmbeddings.forward for one image."""
    embeddings = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    embeddings = embeddings + params["pos"][1:]
    cls_tokens = params["cls"][None, :]
    embeddings = np.concatenate((cls_tokens, embeddings), axis=0)
    return embeddings


def encoder_block(x, p, heads):
    """ViTLayer: attention, residual, norm; MLP, residual, norm."""
    attention_output = self_attention(x, p, heads)
    hidden_states = layer_norm(attention_output + x, p["ln1_g"], p["ln1_b"])
    intermediate = gelu(hidden_states @ p["W1"] + p["b1"])
    layer_output = intermediate @ p["W2"] + p["b2"]
    return layer_norm(layer_output + hidden_states, p["ln2_g"], p["ln2_b"])
