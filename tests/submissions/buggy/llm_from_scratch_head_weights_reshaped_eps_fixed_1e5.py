"""Blind round 34 (b34_06, issue 38): layer_norm and self_attention ported from
jimmybanta/LLM-from-scratch (transformer/layer_norm.py LayerNorm.forward; transformer/attention.py
AttentionHead and MultiHeadAttention, with per-head w_q, w_k, w_v of shape (num_heads, d_model,
d_model // num_heads)). The source's `attention_head` is nested in self_attention.

Mistakes:
1. self_attention (several heads only): each head's weights are taken in the source's layout by
   `p["Wq"].reshape(heads, d, d_k)` (and Wk, Wv; the biases likewise), not the column block
   h*d_h:(h+1)*d_h. With one head the reshape is the identity.
2. layer_norm: `np.sqrt(variance + 1e-5)` hard-coded as in the source: the eps argument is
   ignored and the value is 1e-5, not 1e-6.

Grader: at blind time (5712eea) and now, mistake 2 named ("In `layer_norm`, `eps` is fixed at
1e-05 (a library's usual default) whatever is given") on layer-norm. Mistake 1 only observed:
"Your `self_attention` is right with one head, wrong with heads=2: look at each step that depends
on the number of heads (the split into d // heads columns, the scale, the merge)" (only_one_head)
on no-causal-mask and multi-head-attention. Since the name34 merge, mistake 1 named on both
(projections.weights_reshaped: "each head's weights are taken ... by a reshape of the whole
matrix, `W.reshape(heads, d, d // heads)[h]`"): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:default:layer_norm:eps-as-1e-05',
          'no-causal-mask': 'op:weights_reshaped:self_attention:weights-reshaped-per-head',
          'multi-head-attention': 'op:weights_reshaped:self_attention:weights-reshaped-per-head'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """Forward pass through the layer norm."""
    # calculate the mean and variance
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)

    # normalize the input
    x = (x - mean) / np.sqrt(variance + 1e-5)

    # scale and shift
    if gamma is not None:
        x = gamma * x + beta

    return x


def self_attention(x, p, heads, causal=False):
    """An attention layer with multiple attention heads (one AttentionHead per head, then w_o)."""
    seq_len, d_model = x.shape
    if d_model % heads:
        raise ValueError(f"d_model {d_model} must be divisible by num_heads {heads}")
    d_k = d_model // heads
    d_v = d_model // heads

    # the query / key / value matrices, of shape (num_heads, d_model, d_model // num_heads)
    w_q = p["Wq"].reshape(heads, d_model, d_k)
    w_k = p["Wk"].reshape(heads, d_model, d_k)
    w_v = p["Wv"].reshape(heads, d_model, d_v)
    b_q = p["bq"].reshape(heads, d_k)
    b_k = p["bk"].reshape(heads, d_k)
    b_v = p["bv"].reshape(heads, d_v)

    def attention_head(x, w_q, w_k, w_v, b_q, b_k, b_v, attention_mask=None):
        # calculate query, key, and value vectors
        query = x @ w_q + b_q
        key = x @ w_k + b_k
        value = x @ w_v + b_v
        # multiply query by transposed key matrices
        scores = query @ key.T
        # divide element-wise by square root of d_k
        scores /= np.sqrt(d_k)
        # apply the attention mask, if provided
        if attention_mask is not None:
            scores[attention_mask] = -np.inf
        # take softmax of these attention scores
        scores = softmax(scores, axis=-1)
        # multiply by value vectors
        return scores @ value

    attention_mask = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1) if causal else None

    # get the outputs from each head
    outputs = [attention_head(x, w_q[i], w_k[i], w_v[i], b_q[i], b_k[i], b_v[i], attention_mask)
               for i in range(heads)]
    # concatenate the outputs to form one array
    stacked_output = np.concatenate(outputs, axis=-1)
    # multiply the outputs by the output matrix to get the output of the layer
    return stacked_output @ p["Wo"] + p["bo"]
