"""Blind round 72 (b72_10, issue 38): self_attention and encoder_block (with its
`position_wise_feed_forward`) ported from pymatch/pymatch `match/nn/transformer.py`
(MultiheadAttention's "Concat using reshape", the post-LN TransformerDecoderLayer).

Mistakes:
1. self_attention (line 119 of the file as delivered): `attn.reshape(sequence_length,
   embed_dim)` straight from (heads, T, d_h), with no transpose back to (T, heads, d_h), so
   heads and tokens are mixed. Wrong with heads > 1 only.
2. encoder_block (lines 138-148): post-LN as in the source, `LN1(x + attn(x))` then
   `LN2(h + mlp(h))`; the attention reads the un-normalised x. Wrong on every input.
The delivered file's top-level helper `position_wise_feed_forward` is nested here, and its
module-level `from math import sqrt` is imported inside self_attention.

Grader: at blind time (2df48139) and now, 89/110. Mistake 1 named on multi-head-attention and
no-causal-mask ("In `self_attention`, the heads' outputs are merged by a reshape without moving
the head axis back first: the (heads, T, d_h) array must become (T, heads, d_h) before it is
reshaped to (T, d)"); mistake 2 named on encoder-block ("That is a post-LN block (LayerNorm
after each residual sum, as in the 2017 Transformer). ViT is pre-LN"). why-positions loses 1
point with its checklist ("Your self_attention depends on the order of its rows"), true, from
mistake 1; vit-checkpoint runs the broken encoder_block and says so. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'encoder-block': 'encoder_post_ln'}
ALIASES = ('attention_not_equivariant',)  # why-positions' checklist for the merge


def self_attention(x, p: dict, heads: int, causal: bool = False) -> np.ndarray:
    from math import sqrt

    sequence_length, embed_dim = x.shape
    if embed_dim % heads != 0:
        raise ValueError("embed_dim must be divisible by num_heads")
    d_head = embed_dim // heads

    query_vectors = x @ p["Wq"] + p["bq"]
    key_vectors = x @ p["Wk"] + p["bk"]
    value_vectors = x @ p["Wv"] + p["bv"]

    # Reshape into many heads: (sequence_length, num_heads, d_head) -> (num_heads, sequence_length, d_head)
    query_vectors = query_vectors.reshape(sequence_length, heads, d_head).transpose(1, 0, 2)
    key_vectors = key_vectors.reshape(sequence_length, heads, d_head).transpose(1, 0, 2)
    value_vectors = value_vectors.reshape(sequence_length, heads, d_head).transpose(1, 0, 2)

    # Apply attention
    key_vectors_transpose = key_vectors.transpose(0, 2, 1)
    attn_scores = query_vectors @ key_vectors_transpose
    attn_scores /= sqrt(d_head)
    if causal:
        attn_mask = np.triu(np.full((sequence_length, sequence_length), -np.inf), k=1)
        attn_scores += attn_mask
    attn_pattern = softmax(attn_scores, axis=-1)
    attn = attn_pattern @ value_vectors

    # Concat using reshape
    attn = attn.reshape(sequence_length, embed_dim)
    return attn @ p["Wo"] + p["bo"]


def encoder_block(x, p: dict, heads: int) -> np.ndarray:
    def position_wise_feed_forward(x, p: dict) -> np.ndarray:
        # Apply first linear transformation
        linear1_output = x @ p["W1"] + p["b1"]
        # Apply GELU activation function to the output of the first transformation
        gelu_output = gelu(linear1_output)
        # Apply second linear transformation
        return gelu_output @ p["W2"] + p["b2"]

    # Apply self-attention mechanism to input x
    attention_result = self_attention(x, p, heads)
    # Combine original input x with the attention result
    x_plus_attention = x + attention_result
    # Normalize the combined result (normalizing each embedding)
    normalized_x = layer_norm(x_plus_attention, p["ln1_g"], p["ln1_b"])
    # Feed the normalized result through a feed-forward network
    feed_forward_result = position_wise_feed_forward(normalized_x, p)
    # Combine the normalized result with the feed-forward output
    combined_result = normalized_x + feed_forward_result
    # Normalize the combined result again to produce the final output
    return layer_norm(combined_result, p["ln2_g"], p["ln2_b"])
