"""Blind round 9 (b9_13, issue 38): a submission mixing a "fused kernel" layer norm (Triton tutorial
style) with PyTorch nn.TransformerEncoderLayer(norm_first=True) as first released.

Mistakes:
1. layer_norm: one-pass variance var = E[x^2] - E[x]^2. Catastrophic cancellation when
   the values are far from zero relative to their spread (large offset, small variance);
   negative variances give NaN. Matches the solution near zero.
   Sources: tracel-ai/burn issue #5607; apache/tvm PR #19643 (repro [80000, 80001, ...]);
   triton-lang/triton PR #6413 review; tensorflow/tensorflow PR #25115; marian-dev #429.
2. encoder_block: the input is overwritten by its LayerNorm before the residual
   (`src = self.norm1(src); src = src + attn(src)`), so both residuals add to normalised
   x instead of raw x. Shows on every input.
   Sources: pytorch/pytorch issue #61165 "Incorrect pre-LN in the transformer model";
   Howuhh/faster-trajectory-transformer issue #3 "pre-norm bug in transformer block";
   SHI-Labs/Compact-Transformers issue #25.

Grader: the residuals are named (op:residual, one slip at 2 places: "the residual of ... adds
back `layer_norm(x, ...)`"). The one-pass variance fails the shift property's far trial
(1e7) and gets its checklist only ("LayerNorm subtracts each token's mean"; the blind run,
before e84c227, lost nothing there).
Since session 16 the property names it (properties.digits_lost: LayerNorm with its variance
taken in one pass returns this file's values on every call the property made, the far one
included): layer_norm_one_pass_variance, with the checklist. Every mistake named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_one_pass_variance',
          'encoder-block': 'op:residual:encoder_block:residual-from-layer_norm+op:residual:encoder_block:residual-from-layer_norm.2'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """Layer norm with the statistics in one pass (sum and sum of squares)."""
    x = np.asarray(x, dtype=float)
    mean = x.mean(axis=-1, keepdims=True)
    mean_sq = (x * x).mean(axis=-1, keepdims=True)
    var = mean_sq - mean * mean                  # Var = E[x^2] - E[x]^2
    rstd = 1.0 / np.sqrt(var + eps)
    return (x - mean) * rstd * gamma + beta


def encoder_block(x, p, heads):
    """TransformerEncoderLayer(norm_first=True).forward, without dropout."""
    src = x
    src = layer_norm(src, p["ln1_g"], p["ln1_b"])            # src = self.norm1(src)
    src = src + self_attention(src, p, heads)                 # src = src + self.dropout1(src2)
    src = layer_norm(src, p["ln2_g"], p["ln2_b"])            # src = self.norm2(src)
    src2 = gelu(src @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]  # linear2(activation(linear1(src)))
    return src + src2
