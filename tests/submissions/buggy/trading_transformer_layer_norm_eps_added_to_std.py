"""Blind round 34 (b34_07, issue 38): softmax, layer_norm and self_attention ported from
DylanTombs/TradingTransformer (Transformer/LayerNorm.py; Transformer/MultiHeadAttention.py:
split_heads, combine_heads, a loop over the heads through scaled_dot_product_attention,
`np.where(mask == 0, -1e9, scores)`). softmax and self_attention are right (CORRECT); the
source's helpers are nested in self_attention.

Mistakes:
1. layer_norm: `gamma * (x - mean) / (std + eps) + beta`: eps added to the standard deviation,
   outside the square root. Tiny on ordinary tokens; shows on tokens of small variance or with a
   larger eps passed.

Grader: at blind time (5712eea) and now, named: "eps goes inside the square root: (x - mean) /
sqrt(var + eps), not / (std + eps)." on layer-norm (visible and hidden); encoder-block,
vit-forward and vit-checkpoint pass with the file's layer_norm. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_eps_outside'}
CORRECT = ('softmax', 'self_attention')  # a stable softmax; a loop over the heads


def softmax(x, axis=-1):
    # Stable softmax
    x = x - np.max(x, axis=axis, keepdims=True)
    exp_x = np.exp(x)
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return gamma * (x - mean) / (std + eps) + beta


def self_attention(x, p, heads, causal=False):
    seq_len, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by num_heads")
    d_k = d_model // heads

    def linear(x, weight, bias):
        return np.matmul(x, weight) + bias  # (seq_len, d_model)

    def split_heads(x):
        # Split last dim into (num_heads, d_k) and transpose
        seq_len, _ = x.shape
        x = x.reshape(seq_len, heads, d_k)
        return x.transpose(1, 0, 2)  # (heads, seq_len, d_k)

    def combine_heads(x):
        # (heads, seq_len, d_k) -> (seq_len, d_model)
        num_heads, seq_len, d_k = x.shape
        x = x.transpose(1, 0, 2)
        return x.reshape(seq_len, d_model)

    def scaled_dot_product_attention(q, k, v, mask=None):
        d_k = q.shape[-1]
        # Step 1: Compute raw attention scores
        scores = np.matmul(q, np.transpose(k, (1, 0)))  # (seq_len, seq_len)
        # Step 2: Scale scores
        scores /= np.sqrt(d_k)
        # Step 3: Apply mask (optional)
        if mask is not None:
            scores = np.where(mask == 0, -1e9, scores)
        # Step 4: Softmax over last axis (attention weights)
        attn_weights = softmax(scores, axis=-1)
        # Step 5: Multiply by values
        return np.matmul(attn_weights, v), attn_weights

    # Linear projections, then split into multiple heads
    q_heads = split_heads(linear(x, p["Wq"], p["bq"]))
    k_heads = split_heads(linear(x, p["Wk"], p["bk"]))
    v_heads = split_heads(linear(x, p["Wv"], p["bv"]))

    mask = np.tril(np.ones((seq_len, seq_len))) if causal else None

    output_heads = []
    for i in range(heads):
        out, _ = scaled_dot_product_attention(q_heads[i], k_heads[i], v_heads[i], mask)
        output_heads.append(out)

    # Stack heads back together: list of (seq_len, d_k) -> (heads, seq_len, d_k)
    output = np.stack(output_heads, axis=0)
    combined = combine_heads(output)
    # Final output projection
    return linear(combined, p["Wo"], p["bo"])
