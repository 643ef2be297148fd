"""Blind round 29 (b29_08, issue 38): attention ported from Stanford CS336 (Spring 2024)
assignment 1 (cs336_basics: scaled_dot_product_attention(Q, K, V, mask) where mask True means
"may attend"), with the causal mask built the nn.Transformer way (torch.triu(ones,
diagonal=1).bool(), True above the diagonal). The student's top-level helper
`scaled_dot_product_attention` is nested in self_attention here: the builder replaces only the
solution's own definitions.

Mistakes:
1. The two conventions mixed: the mask is True on the future positions, but the CS336 helper
   keeps the True positions, so with causal=True each query sees only later tokens and the last
   sees nothing (a row of -inf, NaN out). Right for causal=False.

Grader: at blind time and now, named: "`np.where(mask, scores, -np.inf)` is written with its
condition inverted ... so the scores the mask keeps are hidden and the others kept" on
no-causal-mask. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:mask_inverted:self_attention/attention:mask-inverted'}


def self_attention(x, p, heads, causal=False):
    """multihead_self_attention, one sequence (seq_len, d_model)."""
    def scaled_dot_product_attention(Q, K, V, mask=None):
        """cs336_basics: softmax(Q K^T / sqrt(d_k)) V, mask True = attend, False = -inf."""
        d_k = K.shape[-1]
        scores = np.einsum("...qd,...kd->...qk", Q, K) / math.sqrt(d_k)
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        weights = softmax(scores, axis=-1)
        return np.einsum("...qk,...kd->...qd", weights, V)

    seq_len, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError(f"d_model {d_model} must be divisible by num_heads {heads}")
    d_k = d_model // heads

    def to_heads(t):                       # "... seq (h d) -> ... h seq d"
        return t.reshape(seq_len, heads, d_k).transpose(1, 0, 2)

    Q = to_heads(x @ p["Wq"] + p["bq"])
    K = to_heads(x @ p["Wk"] + p["bk"])
    V = to_heads(x @ p["Wv"] + p["bv"])
    mask = None
    if causal:
        mask = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1)
    out = scaled_dot_product_attention(Q, K, V, mask)          # (h, seq, d_k)
    out = out.transpose(1, 0, 2).reshape(seq_len, d_model)     # "... h seq d -> ... seq (h d)"
    return out @ p["Wo"] + p["bo"]
