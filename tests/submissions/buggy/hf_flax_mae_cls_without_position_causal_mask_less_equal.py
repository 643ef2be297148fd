"""Blind round 17 (b17_10, issue 38): embed_image and self_attention ported from Hugging Face's Flax
ViT (FlaxViTEmbeddings, FlaxViTSelfAttention, flax's make_attention_mask), with MAE's position
slicing (`x + pos_embed[:, 1:, :]` before the class token).

Mistakes:
1. embed_image adds pos[1:] to the patch tokens and prepends [CLS] bare: [CLS] never gets pos[0]
   (MAE's `cls_token + pos_embed[:, :1, :]` dropped).
2. self_attention's causal mask is `make_attention_mask(idx, idx, np.less_equal)`: the upper
   triangle kept, token i sees tokens i..T-1 (only with causal=True).
The student's module-level `_make_attention_mask` helper is nested in self_attention here: the
builder replaces only the solution's own definitions.

Grader: at blind time and now, both named (positions added before prepending [CLS]; the mask
upside down). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls',
          'no-causal-mask': 'attention_mask_transposed'}


def embed_image(image, params):
    """FlaxViTEmbeddings with MAE's position slicing: pos[1:] to the patches, then [CLS]."""
    embeddings = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    # add pos embed w/o cls token
    embeddings = embeddings + params["pos"][1:, :]
    cls_tokens = np.broadcast_to(params["cls"], (1, embeddings.shape[-1]))
    embeddings = np.concatenate((cls_tokens, embeddings), axis=0)
    return embeddings


def self_attention(hidden_states, p, heads, causal=False):
    """FlaxViTSelfAttention with nn.dot_product_attention_weights and flax's make_attention_mask."""
    def _make_attention_mask(query_input, key_input, pairwise_fn):
        return pairwise_fn(query_input[:, None], key_input[None, :])

    seq_len, hidden_size = hidden_states.shape
    num_attention_heads = heads
    if hidden_size % num_attention_heads != 0:
        raise ValueError(
            f"`config.hidden_size`: {hidden_size} has to be a multiple of `config.num_attention_heads`: {num_attention_heads}"
        )
    head_dim = hidden_size // num_attention_heads
    query_states = (hidden_states @ p["Wq"] + p["bq"]).reshape(seq_len, num_attention_heads, head_dim)
    key_states = (hidden_states @ p["Wk"] + p["bk"]).reshape(seq_len, num_attention_heads, head_dim)
    value_states = (hidden_states @ p["Wv"] + p["bv"]).reshape(seq_len, num_attention_heads, head_dim)

    # nn.dot_product_attention_weights
    query_states = query_states / np.sqrt(head_dim)
    attn_weights = np.einsum("qhd,khd->hqk", query_states, key_states)
    if causal:
        idxs = np.arange(seq_len)
        mask = _make_attention_mask(idxs, idxs, np.less_equal)
        big_neg = np.finfo(attn_weights.dtype).min
        attn_weights = np.where(mask[None], attn_weights, big_neg)
    attn_weights = softmax(attn_weights, axis=-1)
    attn_output = np.einsum("hqk,khd->qhd", attn_weights, value_states)
    attn_output = attn_output.reshape(seq_len, hidden_size)
    return attn_output @ p["Wo"] + p["bo"]
