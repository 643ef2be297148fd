"""Blind round 45 (b45_07, issue 38): self_attention ported from TASPlasma/transformer,
transformer/multi_head_attention.py, single_head.py and scaled_attention.py (JAX/equinox: one
head at a time, `d_k = q.shape[-1]` read from the full projection, `jnp.concatenate(heads,
axis=1)`; the look-ahead mask subtracted as `triu(ones, 1) * 1e9`).

Mistakes:
1. `d_k` is read from the full projection (= d) before the per-head slicing, so the scores are
   divided by sqrt(d) instead of sqrt(d_h). Right for one head only. The causal mask is right.

Grader: at blind time (fe6e9573) and now, named: "the scores are divided by sqrt(d), the model
width, instead of sqrt(d_h)" (the scale=sqrt(d) rewrite) on no-causal-mask, "You scaled by
1/sqrt(d), the model width" (attention_scale_d) on multi-head-attention; vit-checkpoint observes
the broken self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d), one head at a time."""
    seq_len, model_size = x.shape
    if model_size % heads != 0:
        raise ValueError(f"model_size {model_size} is not divisible by {heads} heads")
    d_v = model_size // heads

    q_embed = x @ p["Wq"] + p["bq"]
    k_embed = x @ p["Wk"] + p["bk"]
    v_embed = x @ p["Wv"] + p["bv"]
    d_k = q_embed.shape[-1]

    def scaled_dot_prod_attention(q, k, v, masked=False):
        qk_matmul = np.matmul(q, k.T)                  # (seq_len, seq_len)
        scaled_logits = qk_matmul / np.sqrt(d_k)
        if masked:
            look_ahead_mask = np.triu(np.ones((seq_len, seq_len)), k=1)
            scaled_logits = scaled_logits - look_ahead_mask * 1e9
        return np.matmul(softmax(scaled_logits), v)

    head_outputs = []
    for i in range(heads):
        cols = slice(i * d_v, (i + 1) * d_v)
        head_outputs.append(scaled_dot_prod_attention(q_embed[:, cols], k_embed[:, cols],
                                                      v_embed[:, cols], causal))
    output = np.concatenate(head_outputs, axis=1)
    return output @ p["Wo"] + p["bo"]
