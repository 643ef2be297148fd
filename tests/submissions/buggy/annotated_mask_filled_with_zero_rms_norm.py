"""Blind round 7 (b7_05, issue 38): self_attention after the Annotated Transformer with the mask
filled with 0, and layer_norm as T5's RMSNorm.

Mistakes:
1. self_attention: the causal mask fills hidden scores with 0 instead of -inf (`masked_fill(mask
   == 0, 0)`; jadore801120/attention-is-all-you-need-pytorch#16, georg-wolflein/good-features#1,
   hyunwoongko/transformer#10), so later tokens still get exp(0) weight. Shows only with
   causal=True.
2. layer_norm: RMSNorm (T5LayerNorm / LLaMA): no mean subtraction, x / sqrt(mean(x**2) + eps) *
   gamma + beta. Shows whenever a token's mean is not 0.

Grader: the mask fill is named ("`-np.inf` is 0 instead: ... exp(0) = 1"). RMSNorm is named too (the
statistics taken about zero); the shift property gives its checklist (mean_not_subtracted).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:norm:layer_norm:rms-norm',
          'no-causal-mask': 'op:infinity:self_attention/attention:minus-inf-as-0'}
ALIASES = ('mean_not_subtracted',)  # the shift property's verdict on the same mistake


def self_attention(x, p, heads, causal=False):
    nq, d_model = x.shape
    if d_model % heads:
        raise ValueError("d_model must be a multiple of h")
    d_k = d_model // heads
    query, key, value = [
        (x @ p["W" + n] + p["b" + n]).reshape(nq, heads, d_k).transpose(1, 0, 2)
        for n in ("q", "k", "v")
    ]
    scores = query @ key.transpose(0, 2, 1) / math.sqrt(d_k)
    if causal:
        mask = np.tril(np.ones((nq, nq)))                    # subsequent_mask
        scores = np.where(mask == 0, 0.0, scores)            # masked_fill(mask == 0, 0)
    p_attn = softmax(scores, axis=-1)
    out = (p_attn @ value).transpose(1, 0, 2).reshape(nq, d_model)
    return out @ p["Wo"] + p["bo"]


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    variance = np.mean(x ** 2, axis=-1, keepdims=True)      # T5LayerNorm: no mean subtraction
    return x / np.sqrt(variance + eps) * gamma + beta
