"""Blind round 22 (b22_01, issue 38): self_attention and layer_norm ported from openai/whisper
(model.py: MultiHeadAttention.qkv_attention with `scale = (n_state // n_head) ** -0.25` applied
to q and k, LayerNorm on torch's defaults).

Mistakes:
1. self_attention's quarter-power scale is taken from n_state, the model width, not
   n_state // n_head: the scores are divided by sqrt(d) instead of sqrt(d_h) (several heads only).
2. layer_norm's default eps is 1e-5 (torch's nn.LayerNorm) instead of 1e-6.

Grader: at blind time and now (the same commit), both named: the scores divided by sqrt(d), the
model width, instead of sqrt(d_h) (attention_scale_d; the generated scale=sqrt(d) on
no-causal-mask), and eps 1e-05; vit-checkpoint observes the broken functions. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d'}


def self_attention(x, p, heads, causal=False):
    n_ctx, n_state = x.shape
    n_head = heads
    if n_state % n_head:
        raise ValueError("n_state must be divisible by n_head")
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    scale = n_state ** -0.25
    q = q.reshape(n_ctx, n_head, -1).transpose(1, 0, 2) * scale
    k = k.reshape(n_ctx, n_head, -1).transpose(1, 2, 0) * scale
    v = v.reshape(n_ctx, n_head, -1).transpose(1, 0, 2)
    qk = q @ k
    if causal:
        mask = np.triu(np.full((n_ctx, n_ctx), -np.inf), 1)
        qk = qk + mask
    w = softmax(qk, axis=-1)
    wv = (w @ v).transpose(1, 0, 2).reshape(n_ctx, n_state)
    return wv @ p["Wo"] + p["bo"]


def layer_norm(x, gamma, beta, eps=1e-5):
    # class LayerNorm(nn.LayerNorm): forward(x) = super().forward(x.float()).type(x.dtype)
    x = np.asarray(x)
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * gamma + beta
