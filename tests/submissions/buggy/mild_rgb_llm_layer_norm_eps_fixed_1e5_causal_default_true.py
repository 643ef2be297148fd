"""Blind round 77 (b77_04, issue 38): layer_norm and self_attention ported from
mild-rgb/BuildAnLLMFromScratch `chapter5/chapter4/MultiHeadAttention.py` (with LayerNorm.py and
GELU.py; the file's GELU is the tanh approximation, accepted).

Mistakes:
1. layer_norm (line 79 of the file as delivered): `eps = 1e-5` (the source's `self.eps = 1e-5`)
   overwrites the `eps` argument. Clear when eps is passed (eps=0.5) and on low-variance rows.
2. self_attention (line 86): the default `causal=True` (GPT's carry-over): the default call and
   encoder_block's mask the later tokens; an explicit causal=True is right.

Grader: at blind time (15b4065f) and now, 92/110. Mistake 1 named on layer-norm ("`eps` is fixed
at 1e-05 (a library's usual default) whatever is given"), mistake 2 on multi-head-attention
("`causal` defaults to True (`causal=True` in the signature)"), no-causal-mask and
why-positions ("Your `self_attention` masks the later tokens when `causal` is left out"). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:default:layer_norm:eps-as-1e-05',
          'multi-head-attention': 'op:default_flipped:self_attention:causal-defaults-True',
          'no-causal-mask': 'causal_default_true',
          'why-positions': 'causal_default_true'}


def layer_norm(x, gamma, beta, eps=1e-6):
    eps = 1e-5  # added to prevent division by 0 during normalisation
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)  # unbiased=False
    norm_x = (x - mean) / np.sqrt(var + eps)
    return gamma * norm_x + beta


def self_attention(x, p, heads, causal=True):
    num_tokens, d_out = x.shape
    if d_out % heads:
        raise ValueError("d_out must be divisible by num_heads")
    head_dim = d_out // heads

    keys = x @ p["Wk"] + p["bk"]
    queries = x @ p["Wq"] + p["bq"]
    values = x @ p["Wv"] + p["bv"]  # all as normal

    # [num_tokens, num_heads, head_dim] -> [num_heads, num_tokens, head_dim]
    keys = keys.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)
    queries = queries.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)
    values = values.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)

    attn_scores = queries @ keys.transpose(0, 2, 1)
    if causal:
        mask_bool = np.triu(np.ones((num_tokens, num_tokens)), k=1).astype(bool)
        attn_scores = np.where(mask_bool, -np.inf, attn_scores)

    attn_weights = softmax(attn_scores / keys.shape[-1] ** 0.5, axis=-1)

    context_vec = (attn_weights @ values).transpose(1, 0, 2)
    context_vec = context_vec.reshape(num_tokens, d_out)
    return context_vec @ p["Wo"] + p["bo"]
