"""Blind round 8 (b8_06, issue 38): self_attention and vit_forward after Hugging Face's
ViTSelfAttention and ViTEncoder, the head split "simplified".

Mistakes:
1. self_attention: `transpose_for_scores` is a bare `t.reshape(heads, T, d_h)` (no (T, heads, d_h)
   and transpose; reczoo/FuxiCTR#30, hyunwoongko/transformer#15); the merge is right. Shows only
   with heads > 1 and T > 1.
2. vit_forward: the final LayerNorm is indented into the loop over the blocks, so it runs after
   every block. Shows only with depth >= 2 (or none); right with one block.

Grader: both named: op:reshape_for_transpose ("`x.reshape(*lead, T, heads, d // heads)
.swapaxes(-2, -3)` is done with a reshape alone") and op:indentation ("runs inside the model
solution's `for block in params['blocks']`, on every pass"); why-positions' permutation property
says the split breaks equivariance (attention_not_equivariant).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention':
          'op:reshape_for_transpose:self_attention/split_heads*:reshape-instead-of-swapaxes',
          'vit-forward': "op:indentation:vit_forward:layer_norm(xparams['ln_g']params['ln_b']-in-loop"}
ALIASES = ('attention_not_equivariant',)  # the permutation property's verdict on the split


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6)."""
    seq_length, hidden_size = x.shape
    if hidden_size % heads != 0:
        raise ValueError(f"The hidden size ({hidden_size}) is not a multiple of the number of attention heads ({heads})")
    attention_head_size = hidden_size // heads

    def transpose_for_scores(t):
        return t.reshape(heads, seq_length, attention_head_size)

    query_layer = transpose_for_scores(x @ p["Wq"] + p["bq"])
    key_layer = transpose_for_scores(x @ p["Wk"] + p["bk"])
    value_layer = transpose_for_scores(x @ p["Wv"] + p["bv"])
    attention_scores = query_layer @ key_layer.transpose(0, 2, 1)
    attention_scores = attention_scores / math.sqrt(attention_head_size)
    if causal:
        causal_mask = np.tril(np.ones((seq_length, seq_length), dtype=bool))
        attention_scores = np.where(causal_mask, attention_scores, np.finfo(float).min)
    attention_probs = softmax(attention_scores, axis=-1)
    context_layer = attention_probs @ value_layer
    context_layer = context_layer.transpose(1, 0, 2).reshape(seq_length, hidden_size)
    return context_layer @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6)."""
    hidden_states = embed_image(image, params)
    for layer_module in params["blocks"]:
        hidden_states = encoder_block(hidden_states, layer_module, params["heads"])
        hidden_states = layer_norm(hidden_states, params["ln_g"], params["ln_b"])
    pooled_output = hidden_states[0]
    return pooled_output @ params["W_head"] + params["b_head"]
