"""Blind round 82 (b82_14, issue 38): self_attention and encoder_block ported from
sansin5982/GenAI-Fundamentals `chapters/Transformer/Add_Norm.md` ("Output = LayerNorm(x) +
Sublayer(x)").

Mistakes:
1. encoder_block (lines 119 and 121 of the file as delivered): x overwritten by its LayerNorm
   before each residual, so the residual adds the branch to the normalised x, `LN(x) +
   attn(LN(x))`, not to x itself: wrong on every input.
2. self_attention (line 88): `causal=True` as the default, so a call that leaves it out masks
   the later tokens (GPT's mask on patches); calls naming it are right (encoder_block and
   vit_forward, which leave it out, inherit it).

Grader: at blind time (ee59f1b1) and now, 89/110. Mistake 1 named on encoder-block ("the residual of
the model solution's `x + self_attention(layer_norm(x, ...` adds back its `layer_norm(x,
p['ln1_g'], p['ln1_b'], eps)` ... instead of `x` itself", and the same at ln2); mistake 2 named
on multi-head-attention ("`causal` defaults to True (`causal=True` in the signature)"),
no-causal-mask and why-positions ("masks the later tokens when `causal` is left out"). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:residual:encoder_block:residual-from-layer_norm'
                           '+op:residual:encoder_block:residual-from-layer_norm.2',
          'multi-head-attention': 'op:default_flipped:self_attention:causal-defaults-True',
          'no-causal-mask': 'causal_default_true',
          'why-positions': 'causal_default_true'}


def self_attention(x, p, heads, causal=True):
    num_tokens, d_out = x.shape
    if d_out % heads != 0:
        raise ValueError("d_out must be divisible by num_heads")
    head_dim = d_out // heads

    queries = x @ p["Wq"] + p["bq"]
    keys = x @ p["Wk"] + p["bk"]
    values = x @ p["Wv"] + p["bv"]

    # (num_tokens, d_out) -> (num_heads, num_tokens, head_dim)
    queries = queries.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)
    keys = keys.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)
    values = values.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)

    attn_scores = queries @ keys.transpose(0, 2, 1)
    if causal:
        mask = np.triu(np.ones((num_tokens, num_tokens)), k=1).astype(bool)
        attn_scores = np.where(mask[None], -np.inf, attn_scores)

    attn_weights = softmax(attn_scores / keys.shape[-1] ** 0.5, axis=-1)
    context_vec = (attn_weights @ values).transpose(1, 0, 2).reshape(num_tokens, d_out)
    return context_vec @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    # Add & Norm: Output = LayerNorm(x) + Sublayer(x)
    x = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = x + self_attention(x, p, heads)
    x = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
