"""Blind round 79 (b79_07, issue 38): num_tokens and self_attention ported from maximzubkov/LinBERT
`models/common.py` (BERT's transpose_for_scores, without its permute).

Mistakes:
1. self_attention (lines 80-83 and 96-104 of the file as delivered): transpose_for_scores only
   reshapes to (T, heads, d_h), never permutes to (heads, T, d_h), so the matmuls attend across
   the heads within each token instead of across the tokens: wrong on every input (with one
   head the output is v's).
2. num_tokens (lines 14-16): always adds 1 for [CLS], whatever `cls_token` (197 for 196).
The delivered file's top-level helper `transpose_for_scores` is nested in self_attention here.

Grader: at blind time (50c6c808) and now, 90/110. Mistake 2 named on token-count ("With
cls_token=False there is no [CLS] row"). Mistake 1 partly: no-causal-mask's default check says
"as if each token attended only to itself. Each head's scores must be a T x T matrix, every token
(query) against every token (key)", the kind of mistake, never the missing (T, heads, d_h) ->
(heads, T, d_h) transpose; multi-head-attention gives its checklists only. Since d85aa179
(error_model/head_pairs.py, `heads-split-and-merge-unmoved`) mistake 1 is named on
multi-head-attention and no-causal-mask's causal checks: "In `self_attention`, the split into
heads never moves the head axis first: each projection is reshaped to (T, heads, d_h) and left so
..., and the merge reshapes it straight back; so the scores are computed per token across its
heads ((T, heads, heads): each token's heads attend to one another) ..."; the default check's
observation above stays, and is true. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_always',
          'multi-head-attention': 'op:heads_wrong_pair:self_attention:heads-split-and-merge-unmoved',
          'no-causal-mask': 'op:heads_wrong_pair:self_attention:heads-split-and-merge-unmoved'}


def num_tokens(H, W, P, cls_token=True):
    # [CLS] + patches
    return 1 + num_patches(H, W, P)


def self_attention(x, p, heads, causal=False):
    def transpose_for_scores(x, num_attention_heads, attention_head_size):
        new_x_shape = x.shape[:-1] + (num_attention_heads, attention_head_size)
        # [seq_len, n_heads, p_s]
        return x.reshape(new_x_shape)

    seq_len, hidden_size = x.shape
    if hidden_size % heads != 0:
        raise ValueError("hidden size is not a multiple of the number of attention heads")
    attention_head_size = hidden_size // heads

    query_layer = transpose_for_scores(x @ p["Wq"] + p["bq"], heads, attention_head_size)
    key_layer = transpose_for_scores(x @ p["Wk"] + p["bk"], heads, attention_head_size)
    value_layer = transpose_for_scores(x @ p["Wv"] + p["bv"], heads, attention_head_size)

    attention_scores = np.matmul(query_layer, np.swapaxes(key_layer, -1, -2))
    attention_scores = attention_scores / math.sqrt(attention_head_size)
    if causal:
        n = attention_scores.shape[-1]
        attention_scores = attention_scores + np.triu(np.full((n, n), -1e9), k=1)
    attention_probs = softmax(attention_scores, axis=-1)

    context_layer = np.matmul(attention_probs, value_layer)
    context_layer = context_layer.reshape(seq_len, hidden_size)
    return context_layer @ p["Wo"] + p["bo"]
