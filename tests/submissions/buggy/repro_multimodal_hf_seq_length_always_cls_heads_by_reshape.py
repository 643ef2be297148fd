"""Blind round 80 (b80_14, issue 38): num_tokens and self_attention ported from
rdverse/ReproMultiModal `extraction/featExt.py` (Hugging Face ViTModel's ViTSelfAttention).

Mistakes:
1. num_tokens (line 18 of the file as delivered): always `num_patches + 1` (HF's seq_length),
   ignoring cls_token=False. Wrong with cls_token=False only.
2. self_attention (line 90): `transpose_for_scores` reshapes straight to (heads, T, d_h) with no
   (T, heads, d_h) transpose, which mixes tokens and columns. Wrong with heads > 1 only; it
   carries into encoder_block and vit_forward.

Grader: at blind time (a4b8673f) and now, 92/110. Mistake 1 named on token-count ("With
cls_token=False there is no [CLS] row: the sequence is just the N patches"); mistake 2 named on
multi-head-attention and no-causal-mask ("done with a reshape alone ... only a transpose moves
them"); why-positions loses 1 point with its checklist, true, from mistake 2. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_always',
          'multi-head-attention': 'op:reshape_for_transpose:self_attention/split_heads*:reshape-instead-of-swapaxes'}
ALIASES = ('attention_not_equivariant',)  # why-positions' checklist for the merge


def num_tokens(height, width, patch_size, cls_token=True):
    # seq_length = num_patches + 1 ([CLS])
    return num_patches(height, width, patch_size) + 1


def self_attention(hidden_states, p, heads, causal=False):
    seq_length, hidden_size = hidden_states.shape
    if hidden_size % heads != 0:
        raise ValueError(f"The hidden size {hidden_size} is not a multiple of the number of attention heads {heads}.")
    attention_head_size = hidden_size // heads

    def transpose_for_scores(x):
        return x.reshape(heads, seq_length, attention_head_size)

    query_layer = transpose_for_scores(hidden_states @ p["Wq"] + p["bq"])
    key_layer = transpose_for_scores(hidden_states @ p["Wk"] + p["bk"])
    value_layer = transpose_for_scores(hidden_states @ p["Wv"] + p["bv"])

    # Take the dot product between "query" and "key" to get the raw attention scores.
    attention_scores_ = query_layer @ key_layer.transpose(0, 2, 1)
    attention_scores_ = attention_scores_ / math.sqrt(attention_head_size)
    if causal:
        attention_scores_ = np.where(np.tril(np.ones((seq_length, seq_length), dtype=bool)),
                                     attention_scores_, -np.inf)
    # Normalize the attention scores to probabilities.
    attention_probs = softmax(attention_scores_, axis=-1)
    context_layer = attention_probs @ value_layer
    context_layer = context_layer.transpose(1, 0, 2).reshape(seq_length, hidden_size)
    # ViTSelfOutput
    return context_layer @ p["Wo"] + p["bo"]
