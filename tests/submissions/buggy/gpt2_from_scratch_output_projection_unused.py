"""Blind round 65 (b65_07, issue 38): self_attention and gelu ported from
vvithurshan/GPT-2-From-Scratch `MultiHeadAttention.py` and `ActivationFunctions.py`: gelu is the
tanh approximation, accepted (CORRECT).

Mistakes:
10. self_attention (lines 174-176 of the file as delivered): the source's own slip, the output
    projection written to a misspelled `contextz_vector` and the un-projected context returned:
    Wo and bo are never applied. Wrong on any input.

Grader: at blind time (0cd43d22) and now, 95/110, named. Mistake 10 on no-causal-mask's two
causal checks ("In `self_attention`, the output projection (`... @ p['Wo'] + p['bo']`) is left
out: its input goes on as it is.") and multi-head-attention's three ("After putting the heads
side by side, apply the output projection: @ Wo + bo."); vit-checkpoint observes self_attention.
The tanh GELU is not flagged. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_no_output_projection',
          'no-causal-mask': 'op:skip:self_attention:skip-linear.4'}
CORRECT = ('gelu',)  # the tanh approximation, accepted: keeps every point


def self_attention(x, p, heads, causal=False):
    """MultiHeadAttention.forward (W_query, W_key, W_value, W_out), without the batch axis."""
    num_tokens, d_in = x.shape
    d_out = p["Wq"].shape[1]
    if d_out % heads != 0:
        raise ValueError("d_out must be divisible by num_heads")
    num_heads = heads
    head_dim = d_out // num_heads

    keys = x @ p["Wk"] + p["bk"]
    queries = x @ p["Wq"] + p["bq"]
    values = x @ p["Wv"] + p["bv"]

    keys = keys.reshape(num_tokens, num_heads, head_dim)
    queries = queries.reshape(num_tokens, num_heads, head_dim)
    values = values.reshape(num_tokens, num_heads, head_dim)

    keys = keys.transpose(1, 0, 2)  # (num_heads, num_tokens, head_dim)
    queries = queries.transpose(1, 0, 2)
    values = values.transpose(1, 0, 2)

    attention_scores = queries @ keys.transpose(0, 2, 1)  # (num_heads, num_tokens, num_tokens)

    if causal:
        mask_bool = np.triu(np.ones((num_tokens, num_tokens)), k=1).astype(bool)
        attention_scores = np.where(mask_bool, -np.inf, attention_scores)

    attention_weights = softmax(attention_scores / keys.shape[-1] ** 0.5, axis=-1)

    context_vector = attention_weights @ values
    context_vector = context_vector.transpose(1, 0, 2)  # (num_tokens, num_heads, head_dim)
    context_vector = context_vector.reshape(num_tokens, d_out)

    contextz_vector = context_vector @ p["Wo"] + p["bo"]

    return context_vector


def gelu(x):
    """GELU from ActivationFunctions.py (tanh approximation, which the lab accepts)."""
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1 + np.tanh(
        np.sqrt(2 / np.pi) *
        (x + 0.044715 * np.power(x, 3))
    ))
