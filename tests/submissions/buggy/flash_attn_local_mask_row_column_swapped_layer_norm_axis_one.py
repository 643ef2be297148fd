"""Blind round 23 (b23_06, issue 38): layer_norm and self_attention ported from FlashAttention's
reference (Dao-AILab/flash-attention, tests/test_flash_attn.py `attention_ref` and
`construct_local_mask`: einsum("bthd,bshd->bhts", q / sqrt(d), k), `scores.masked_fill(local_mask,
-inf)` where the mask marks what to hide; flash_attn/ops `layer_norm_ref` on (batch * seqlen,
hidden) rows). The student's top-level helper `_construct_local_mask` is nested in self_attention
here: the builder replaces only the solution's own definitions.

Mistakes:
1. self_attention writes construct_local_mask's comparison with row and column swapped,
   `row_idx > col_idx` instead of `col_idx > row_idx`: causal=True hides the past and keeps the
   future.
2. layer_norm takes its statistics with `mean(1)` / `var(1)`, as the 2-D reference does: axis 1
   is the last axis only for 2-D input (wrong on batched 3-D input; a 1-D token raises).

Grader: at blind time and now, both named: "Your mask is upside down: token i sees tokens
i..T-1" on no-causal-mask, and the mean and the variance over axis 1 instead of axis -1 (one slip
made at 2 places) on layer-norm. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_mask_transposed',
          'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=np.float64)
    mean = x.mean(1, keepdims=True)
    var = x.var(1, keepdims=True)
    rstd = 1 / np.sqrt(var + eps)
    return (x - mean) * rstd * gamma + beta


def self_attention(x, p, heads, causal=False):
    def _construct_local_mask(seqlen_q, seqlen_k):
        row_idx = np.arange(seqlen_q)[:, None]
        col_idx = np.arange(seqlen_k)[None, :]
        return row_idx > col_idx + seqlen_k - seqlen_q

    seqlen, d_model = x.shape
    if d_model % heads:
        raise ValueError("d_model must be divisible by nheads")
    d = d_model // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(seqlen, heads, d)
    k = (x @ p["Wk"] + p["bk"]).reshape(seqlen, heads, d)
    v = (x @ p["Wv"] + p["bv"]).reshape(seqlen, heads, d)
    scores = np.einsum("thd,shd->hts", q / math.sqrt(d), k)
    if causal:
        local_mask = _construct_local_mask(seqlen, seqlen)
        scores = np.where(local_mask[None], -np.inf, scores)
    attention = softmax(scores, axis=-1)
    output = np.einsum("hts,shd->thd", attention, v)
    return output.reshape(seqlen, d_model) @ p["Wo"] + p["bo"]
