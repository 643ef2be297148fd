"""Blind round 17 (b17_04, issue 38): self_attention ported from equinox's eqx.nn.MultiheadAttention
(heads split as (seq, num_heads, -1), einsum "shd,Shd->hsS") and an equinox-style encoder_block.

Mistakes:
1. self_attention scales the logits by 1 / sqrt(query_size), the model width d, instead of
   1 / sqrt(d // heads) (shows only with several heads).
2. encoder_block rebinds `x = layer_norm(x, ln1)` before the attention and `x = layer_norm(x, ln2)`
   before the MLP, so both residuals are added to the normalised input, not to the block's input.

Grader: at blind time and now, both named (scaled by 1/sqrt(d), the model width, on
multi-head-attention, in the error model's words on no-causal-mask; both residuals adding back the
layer_norm's output, one slip at 2 places). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'encoder-block': 'op:residual:encoder_block:residual-from-layer_norm'
                           '+op:residual:encoder_block:residual-from-layer_norm.2'}


def self_attention(x, p, heads, causal=False):
    """eqx.nn.MultiheadAttention: project, split (seq, num_heads, -1), einsum, output_proj."""
    seq_length, query_size = x.shape
    num_heads = heads
    if query_size % num_heads != 0:
        raise ValueError("query_size must be divisible by num_heads")

    def _project(w, b):
        return (x @ p[w] + p[b]).reshape(seq_length, num_heads, -1)

    query_heads = _project("Wq", "bq")
    key_heads = _project("Wk", "bk")
    value_heads = _project("Wv", "bv")
    logits = np.einsum("shd,Shd->hsS", query_heads, key_heads)
    logits = logits / math.sqrt(query_size)
    if causal:
        mask = np.tril(np.ones((seq_length, seq_length), dtype=bool))
        logits = np.where(mask, logits, np.finfo(logits.dtype).min)
    weights = softmax(logits, axis=-1)
    attn = np.einsum("hsS,Shd->shd", weights, value_heads)
    attn = attn.reshape(seq_length, -1)
    return attn @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    """An equinox-style block: x rebound to each LayerNorm's output before its branch."""
    x = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = x + self_attention(x, p, heads)
    x = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x = x + (gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"])
    return x
