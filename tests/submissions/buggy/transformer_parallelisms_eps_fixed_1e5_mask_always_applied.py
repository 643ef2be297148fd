"""Blind round 42 (b42_13, issue 38): layer_norm and self_attention ported from
lweitkamp/transformer_parallelisms, numpy_sequential/norm.py (`std = np.sqrt(var + 1e-05)`) and
numpy_sequential/attention.py (decoder-only Attention: `mask = np.tri(s1, s2, dtype=bool)`
always applied, einsum "bshm, bzhm -> bhsz"), without the batch axis.

Mistakes:
1. layer_norm: eps is hard-coded at 1e-5 and the eps argument is ignored.
2. self_attention: the causal (lower-triangular) mask is always applied, though causal=False
   (no mask) is the default.

Grader: at blind time (e77cb46) and now, named: "`eps` is fixed at 1e-05 (a library's usual
default) whatever is given" on layer-norm (whose float32 small-examples case gets a true
some-rows observation); "You applied GPT's causal mask although causal is False"
(attention_causal) on no-causal-mask and multi-head-attention, whose default-mask check gets
GPT's mask checklist (gpt_causal_mask); why-positions runs the file's self_attention
(attention_not_equivariant); vit-checkpoint observes both. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:default:layer_norm:eps-as-1e-05',
          'no-causal-mask': 'attention_causal',
          'multi-head-attention': 'attention_causal',
          'why-positions': 'attention_not_equivariant'}
ALIASES = ('gpt_causal_mask',)  # no-causal-mask's default check: the property's checklist


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm.forward: normalize over the last dimension, then weight and bias."""
    inputs_ = np.asarray(x, dtype=float)
    mean = inputs_.mean(axis=-1, keepdims=True)
    var = ((inputs_ - mean) ** 2).mean(axis=-1, keepdims=True)
    std = np.sqrt(var + 1e-05)

    normed = (inputs_ - mean) / std
    return gamma * normed + beta


def self_attention(x, p, heads, causal=False):
    """Attention.forward without the batch axis: s = sequence, h = head, m = head width."""
    s, d_model = x.shape
    if d_model % heads:
        raise ValueError(f"width {d_model} is not divisible by {heads} heads")
    n_heads = heads
    d_hidden = d_model // n_heads
    scale = np.sqrt(d_hidden)

    q = (x @ p["Wq"] + p["bq"]).reshape(s, n_heads, d_hidden)
    k = (x @ p["Wk"] + p["bk"]).reshape(s, n_heads, d_hidden)
    v = (x @ p["Wv"] + p["bv"]).reshape(s, n_heads, d_hidden)

    attention_weights = np.einsum("shm, zhm -> hsz", q, k) / scale
    _, s1, s2 = attention_weights.shape
    mask = np.expand_dims(np.tri(s1, s2, dtype=bool), 0)

    attention_weights = np.where(mask, attention_weights, float("-inf"))
    attention = softmax(attention_weights, axis=-1)

    y = np.einsum("hsz, zhm -> shm", attention, v)
    return y.reshape(s, d_model) @ p["Wo"] + p["bo"]
