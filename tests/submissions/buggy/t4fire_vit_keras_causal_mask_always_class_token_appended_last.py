"""Blind round 77 (b77_03, issue 38): embed_image and self_attention ported from
zhaoyutim/TGRS-T4Fire `model/vit_keras/layers.py` (vit_keras's ClassToken, AddPositionEmbs and
MultiHeadSelfAttention).

Mistakes:
1. self_attention (line 126 of the file as delivered): the source's `np.tril` attention mask is
   always built and applied, `causal` ignored: the default call (and encoder_block's) is
   causal. Wrong on any T > 1 with causal=False; causal=True is right.
2. embed_image via `class_token` (line 68): `np.concatenate([inputs, cls], 0)` appends [CLS] as
   the last row (the source has [cls, inputs]): position 0 gets patch 0, and vit_forward's row 0
   is a patch. Wrong on every image.
The delivered file's top-level helpers `class_token`, `add_position_embs`, `_masked_softmax`,
`attention` and `separate_heads` are nested in the functions that call them here.

Grader: at blind time (15b4065f) and now, 86/110. Mistake 1 named on multi-head-attention and
no-causal-mask ("You applied GPT's causal mask although causal is False"), mistake 2 on
cls-and-positions ("You appended [CLS] as the last row"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_cls_appended',
          'multi-head-attention': 'attention_causal',
          'no-causal-mask': 'attention_causal'}
ALIASES = ('gpt_causal_mask',  # no-causal-mask's default check: the property's checklist
           'attention_not_equivariant')  # why-positions' checklist for the mask


def embed_image(image, params):
    def class_token(inputs, cls):
        """Append a class token to an input layer."""
        cls_broadcasted = np.broadcast_to(cls, (1, inputs.shape[-1]))
        return np.concatenate([inputs, cls_broadcasted], 0)

    def add_position_embs(inputs, pe):
        """Adds (optionally learned) positional embeddings to the inputs."""
        assert inputs.ndim == 2, f"Number of dimensions should be 2, got {inputs.ndim}"
        return inputs + pe

    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = class_token(x, params["cls"])
    return add_position_embs(x, params["pos"])


def self_attention(x, p, heads, causal=False):
    def _masked_softmax(attention_scores, attention_mask=None):
        if attention_mask is not None:
            attention_scores = np.where(attention_mask, attention_scores, -1e9)
        return softmax(attention_scores, axis=-1)

    def attention(query, key, value, attention_mask):
        score = query @ np.swapaxes(key, -1, -2)
        dim_key = key.shape[-1]
        scaled_score = score / math.sqrt(dim_key)
        weights = _masked_softmax(scaled_score, attention_mask)
        output = weights @ value
        return output, weights

    def separate_heads(x, num_heads, projection_dim):
        x = x.reshape(-1, num_heads, projection_dim)
        return np.transpose(x, (1, 0, 2))

    query_size, hidden_size = x.shape
    if hidden_size % heads != 0:
        raise ValueError(
            f"embedding dimension = {hidden_size} should be divisible by number of heads = {heads}"
        )
    projection_dim = hidden_size // heads
    query = separate_heads(x @ p["Wq"] + p["bq"], heads, projection_dim)
    key = separate_heads(x @ p["Wk"] + p["bk"], heads, projection_dim)
    value = separate_heads(x @ p["Wv"] + p["bv"], heads, projection_dim)

    attention_mask = np.tile(np.tril(np.ones((query_size, query_size)), 0), (heads, 1, 1)).astype(bool)

    out, _ = attention(query, key, value, attention_mask)
    out = np.transpose(out, (1, 0, 2))
    concat_attention = out.reshape(-1, hidden_size)
    return concat_attention @ p["Wo"] + p["bo"]
