"""Blind round 41 (b41_03, issue 38): a pure-numpy GPT-2 block, "# The entire transformer block
inlined" transformer_block(x, mlp, attn, ln_1, ln_2, n_head) (gpt2_tensors params), as
encoder_block (its own LayerNorm, attention and tanh GELU written inline).

Mistakes:
1. encoder_block keeps GPT-2's causal mask (`np.triu(... -inf, k=1)` added to every score): the
   classifier block hides later tokens.
2. encoder_block's MLP uses the pre-activation: `ffn_output = fc_output @ W2 + b2`, the GELU
   computed into `gelu_output` and never used, so the MLP is linear.

Grader: at blind time (6092674) and now, both named together on both encoder-block checks: "2
mistakes at once: (1) In `encoder_block`, `self_attention` is called with causal=True, where the
lecture leaves it off ... (2) ... the activation is no activation where the lecture uses GELU"
(the lecture's code quoted; the causes right). vit-checkpoint observes the broken block. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:option_on:encoder_block:self_attention-causal-on+op:activation:encoder_block/mlp:act=identity'}


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5), written out in one
    function as in the inlined numpy GPT-2 transformer_block.
    """
    embedding_dim = x.shape[-1]
    seq_len = x.shape[0]
    head_size = embedding_dim // heads

    ln1_mean = np.mean(x, axis=-1, keepdims=True)
    ln1_variance = np.var(x, axis=-1, keepdims=True)
    ln1_normalized = (x - ln1_mean) / np.sqrt(ln1_variance + 1e-6)
    ln1_output = p["ln1_g"] * ln1_normalized + p["ln1_b"]

    q_proj = ln1_output @ p["Wq"] + p["bq"]
    k_proj = ln1_output @ p["Wk"] + p["bk"]
    v_proj = ln1_output @ p["Wv"] + p["bv"]

    q_heads = q_proj.reshape(seq_len, heads, head_size)
    k_heads = k_proj.reshape(seq_len, heads, head_size)
    v_heads = v_proj.reshape(seq_len, heads, head_size)

    causal_mask = np.triu(np.ones((seq_len, seq_len), dtype=x.dtype) * -np.inf, k=1)

    q_heads_t = q_heads.transpose(1, 0, 2)
    k_heads_t = k_heads.transpose(1, 0, 2)
    v_heads_t = v_heads.transpose(1, 0, 2)

    attention_scores = (q_heads_t @ k_heads_t.transpose(0, 2, 1)) / np.sqrt(head_size)
    attention_scores = attention_scores + causal_mask

    exp_scores = np.exp(
        attention_scores - np.max(attention_scores, axis=-1, keepdims=True)
    )
    attention_weights = exp_scores / np.sum(exp_scores, axis=-1, keepdims=True)

    weighted_values = attention_weights @ v_heads_t
    merged_heads = weighted_values.transpose(1, 0, 2).reshape(seq_len, embedding_dim)
    mha_output = merged_heads @ p["Wo"] + p["bo"]

    x = x + mha_output

    ln2_mean = np.mean(x, axis=-1, keepdims=True)
    ln2_variance = np.var(x, axis=-1, keepdims=True)
    ln2_normalized = (x - ln2_mean) / np.sqrt(ln2_variance + 1e-6)
    ln2_output = p["ln2_g"] * ln2_normalized + p["ln2_b"]

    fc_output = ln2_output @ p["W1"] + p["b1"]
    gelu_output = (
        0.5
        * fc_output
        * (1 + np.tanh(np.sqrt(2 / np.pi) * (fc_output + 0.044715 * fc_output**3)))
    )
    ffn_output = fc_output @ p["W2"] + p["b2"]

    x = x + ffn_output

    return x
