"""Blind round 79 (b79_04, issue 38): layer_norm and self_attention ported from
shrestha1/LLM-from-Scratch `SLM/model/attention.py` (GPT's CasualSelfAttention, with `layernorm.py`
and `block.py`).

Mistakes:
1. self_attention (lines 100-102 of the file as delivered): the source's tril `bias` mask is
   applied on every call, whatever `causal` is: the default causal=False hides the later tokens.
   Right with causal=True only.
2. layer_norm (line 84): eps fixed at 1e-5, the source's `F.layer_norm(..., 1e-5)`, whatever
   `eps` is given (default 1e-6): shows with eps passed or on low-variance rows.
The delivered file's top-level helper `linear` is nested in self_attention here.

Grader: at blind time (50c6c808) and now, 90/110. Mistake 1 named on multi-head-attention and
no-causal-mask ("You applied GPT's causal mask although causal is False: on patches it hides a
"future" that does not exist"; no-causal-mask's default check gives the property's checklist,
"Token 0 cannot see the last token. If no token sees the ones after it, that is GPT's causal
mask ..."), mistake 2 on layer-norm ("In `layer_norm`, `eps` is fixed at 1e-05 (a library's usual
default) whatever is given: use the `eps` the caller passes"). why-positions loses 1 point with
its checklist ("Your self_attention depends on the order of its rows"), true, from mistake 1.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_causal',
          'no-causal-mask': 'attention_causal',
          'why-positions': 'attention_not_equivariant',
          'layer-norm': 'op:default:layer_norm:eps-as-1e-05'}
ALIASES = ('gpt_causal_mask',)  # no-causal-mask's default check: the property's checklist


def layer_norm(x, gamma, beta, eps=1e-6):
    # F.layer_norm(x, self.weight.shape, self.weight, self.bias, 1e-5)
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-5) * gamma + beta


def self_attention(x, p, heads, causal=False):
    def linear(x, w, b):
        return x @ w + b

    T, C = x.shape
    assert C > 0
    if C % heads != 0:
        raise ValueError("n_embed % n_head != 0")
    # c_attn: one projection producing q, k, v
    W_attn = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    b_attn = np.concatenate([p["bq"], p["bk"], p["bv"]])
    q, k, v = np.split(linear(x, W_attn, b_attn), 3, axis=1)
    k = k.reshape(T, heads, C // heads).transpose(1, 0, 2)
    q = q.reshape(T, heads, C // heads).transpose(1, 0, 2)
    v = v.reshape(T, heads, C // heads).transpose(1, 0, 2)

    bias = np.tril(np.ones((T, T)))
    att = (q @ k.transpose(0, 2, 1)) * (1.0 / math.sqrt(k.shape[-1]))
    att = np.where(bias == 0, float("-inf"), att)
    att = softmax(att, axis=-1)
    y = att @ v

    y = y.transpose(1, 0, 2).reshape(T, C)
    return linear(y, p["Wo"], p["bo"])
