"""Blind round 32 (b32_06, issue 38): Lightning-AI/litgpt, litgpt/model.py (CausalSelfAttention
with `is_causal=mask is None` as self_attention; Block.forward with
config.parallel_residual=True and GptNeoxMLP, nested in encoder_block).

Mistakes:
1. self_attention: the default is causal=True, so a call without the keyword hides later
   tokens. With causal=False passed it is right.
2. encoder_block: parallel residual: the MLP reads norm_2 of the block INPUT x, not of
   x + attn: returns x + attn(LN1 x) + mlp(LN2 x). (It also calls self_attention without the
   keyword, so its attention is causal too: a knock-on effect of 1.)

Grader: at blind time (a78aae9) and now, both named: "`causal` defaults to True (`causal=True` in
the signature)" on multi-head-attention, "Your `self_attention` masks the later tokens when
`causal` is left out" (causal_default_true) on no-causal-mask and why-positions;
"`layer_norm(x, p['ln2_g'], p['ln2_b'], eps)` is given `x` as it was before `x = x +
self_attention(...)`" on encoder-block, the grader's self_attention standing in. vit-checkpoint
observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:default_flipped:self_attention:causal-defaults-True',
          'no-causal-mask': 'causal_default_true',
          'why-positions': 'causal_default_true',
          'encoder-block': 'op:stale:encoder_block:x-before-update.2'}


def self_attention(x, p, heads, causal=True):
    """CausalSelfAttention: q, k, v projections, (n_head, T, head_size), SDPA, proj."""
    T, n_embd = x.shape
    n_head = heads
    if n_embd % n_head != 0:
        raise ValueError(f"n_embd={n_embd} is not divisible by n_head={n_head}")
    head_size = n_embd // n_head

    def scaled_dot_product_attention(q, k, v, mask=None):
        scale = 1.0 / math.sqrt(head_size)
        att = (q @ k.transpose(0, 2, 1)) * scale
        if mask is not None:
            att = np.where(mask, att, -np.inf)
        att = softmax(att, axis=-1)
        return att @ v

    q = (x @ p["Wq"] + p["bq"]).reshape(T, n_head, head_size).transpose(1, 0, 2)  # (nh, T, hs)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, n_head, head_size).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, n_head, head_size).transpose(1, 0, 2)

    mask = np.tril(np.ones((T, T), dtype=bool)) if causal else None  # is_causal
    y = scaled_dot_product_attention(q, k, v, mask)
    y = y.transpose(1, 0, 2).reshape(T, n_embd)  # re-assemble all head outputs side by side
    return y @ p["Wo"] + p["bo"]                 # output projection


def encoder_block(x, p, heads):
    """litgpt Block.forward (config.parallel_residual=True, as in the GPT-NeoX/Pythia configs)."""
    parallel_residual = True

    def mlp(h):  # GptNeoxMLP: fc -> gelu -> proj
        return gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    x_normed = layer_norm(x, p["ln1_g"], p["ln1_b"])       # norm_1
    attention_output = self_attention(x_normed, p, heads)
    if parallel_residual:
        x_normed = layer_norm(x, p["ln2_g"], p["ln2_b"])   # norm_2
        x = attention_output + x
    else:
        x = attention_output + x
        x_normed = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return mlp(x_normed) + x
