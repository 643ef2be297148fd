"""Blind round 36 (b36_13, issue 38): self_attention ported from yipkingster/ml (Flax/JAX),
transformer/encoder/multi_head_attention/mh_attention.py and single_head_attention/attention.py
(split_heads, merge_heads, scaled_dot_product_attention; helpers nested here).

Mistakes:
1. split_heads does `x.reshape(batch_size, -1, num_heads, d_k)` with `batch_size = x.shape[0]`,
   which assumes a batch axis: on the API's unbatched (T, d), T is taken as the batch, each head
   sees a sequence of length 1 and every token attends only to itself. The output is
   `(x Wv + bv) Wo + bo`, and causal=True changes nothing. T = 1 is right.

Grader: at blind time (9ebbf4a), not named: the no-causal-mask "first token sees the last one"
check showed the checklist "Token 0 cannot see the last token. If no token sees the ones after
it, that is GPT's causal mask ..." (a cause the file does not have: no token sees any other),
its causal checks "[observation] ... only in 1 of 4 rows (row 0)", the visible
multi-head-attention checks no hint and the hidden one the generic checklist. Since port36b the
error model names it (fixed.attends_itself: `softmax(scores) @ v` as `v`, "each token attends
only to itself", the batch size read off a (T, d) sequence's first axis) on every call check of
both exercises, and the property, which finds that changing x[0] changes no other row either,
says so instead of the causal mask's checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:attends_itself:self_attention/attention:v-alone',
          'no-causal-mask': 'op:attends_itself:self_attention/attention:v-alone'}


def self_attention(x, p, heads, causal=False):
    """MultiHeadAttention.__call__(x, x, x, mask) with W_q, W_k, W_v, W_o as dense layers."""
    d_model = x.shape[-1]
    num_heads = heads
    if d_model % num_heads != 0:
        raise ValueError("d_model must be divisible by num_heads")
    d_k = d_model // num_heads

    def split_heads(x):
        batch_size = x.shape[0]
        x = x.reshape(batch_size, -1, num_heads, d_k)
        return x.transpose(0, 2, 1, 3)          # [batch, head, seq, d_k]

    def merge_heads(x):
        batch_size = x.shape[0]
        x = x.transpose(0, 2, 1, 3)             # [batch, seq, head, d_k]
        seq_size = x.shape[1]
        return x.reshape(batch_size, seq_size, d_model)

    def scaled_dot_product_attention(q, k, v, mask=None):
        k_t = np.swapaxes(k, -2, -1)
        similarity_mx = np.matmul(q, k_t)
        d_k = q.shape[-1]
        scaled_s_mx = similarity_mx / np.sqrt(d_k)
        large_negative = -1e9
        masked_mx = np.where(mask, scaled_s_mx, large_negative) if mask is not None else scaled_s_mx
        attention_weights = softmax(masked_mx, -1)
        return np.matmul(attention_weights, v), attention_weights

    q = split_heads(x @ p["Wq"] + p["bq"])
    k = split_heads(x @ p["Wk"] + p["bk"])
    v = split_heads(x @ p["Wv"] + p["bv"])
    mask = None
    if causal:
        mask = np.tril(np.ones((q.shape[-2], k.shape[-2]), dtype=bool))
    attn_out, _ = scaled_dot_product_attention(q, k, v, mask)
    output = merge_heads(attn_out)
    output = output @ p["Wo"] + p["bo"]
    return output.reshape(-1, d_model)
