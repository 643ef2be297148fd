"""Blind round 34 (b34_01, issue 38): attention and MLP ported from apovalov/gpt_handmade_numpy
(src/temp/refs/6.multihead.att.py: linear, attention, mha with np.split heads and np.hstack;
src/temp/refs/4.ffn.py: gelu, ffn). The tanh GELU is accepted and the pre-LN encoder_block with
the source's ffn(x, c_fc, c_proj) is right (both CORRECT). The source's helpers `linear`,
`attention` and `ffn` are nested in the functions that call them.

Mistakes:
1. self_attention: the GPT causal mask `(1 - np.tri(n_seq)) * -1e10` is always added, so the
   default causal=False still hides the later tokens (the lecture's ViT uses no mask). Right for
   causal=True.

Grader: at blind time (5712eea) and now, named: "`causal_mask(x.shape[-2]) if causal else None`
is always `causal_mask(x.shape[-2])`" on no-causal-mask (whose default check gets GPT's mask
checklist, gpt_causal_mask) and "You applied GPT's causal mask although causal is False"
(attention_causal) on multi-head-attention; why-positions runs the student's always-causal
self_attention (attention_not_equivariant); vit-checkpoint observes it. Every mistake named, so
in buggy/. Since blind round 39 no-causal-mask's check of causal=False lists attention_causal
too: the mask is told in the same words there as on multi-head-attention.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_causal',
          'multi-head-attention': 'attention_causal',
          'why-positions': 'attention_not_equivariant'}
CORRECT = ('gelu', 'encoder_block')  # the tanh GELU (accepted) and the source's pre-LN block
ALIASES = ('gpt_causal_mask',)  # no-causal-mask's default check: the property's checklist


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention, written like gpt_handmade_numpy's mha(x, c_attn, c_proj, n_head)."""

    def linear(x, w, b):  # [m, in], [in, out], [out] -> [m, out]
        return x @ w + b

    def attention(q, k, v, mask):  # [n_q, d_k], [n_k, d_k], [n_k, d_v], [n_q, n_k] -> [n_q, d_v]
        return softmax(q @ k.T / np.sqrt(q.shape[-1]) + mask) @ v

    n_seq, n_embd = x.shape
    if n_embd % heads != 0:
        raise ValueError(f"n_embd={n_embd} is not divisible by n_head={heads}")

    # qkv projection: 3 of [n_seq, n_embd]
    qkv = [linear(x, p["Wq"], p["bq"]), linear(x, p["Wk"], p["bk"]), linear(x, p["Wv"], p["bv"])]

    # split into heads: [3, n_head, n_seq, n_embd/n_head]
    qkv_heads = list(map(lambda t: np.split(t, heads, axis=-1), qkv))

    # causal mask to hide future inputs from being attended to
    causal_mask = (1 - np.tri(n_seq)) * -1e10  # [n_seq, n_seq]

    # perform attention over each head
    out_heads = [attention(q, k, v, causal_mask) for q, k, v in zip(*qkv_heads)]

    # merge heads: [n_head, n_seq, n_embd/n_head] -> [n_seq, n_embd]
    x = np.hstack(out_heads)

    # out projection
    return linear(x, p["Wo"], p["bo"])


def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))


def encoder_block(x, p, heads):
    """Pre-LN block: x + mha(ln_1(x)), then x + ffn(ln_2(x))."""

    def linear(x, w, b):  # [m, in], [in, out], [out] -> [m, out]
        return x @ w + b

    def ffn(x, c_fc, c_proj):  # [n_seq, n_embd] -> [n_seq, n_embd]
        # project up
        a = gelu(linear(x, **c_fc))  # [n_seq, n_embd] -> [n_seq, 4*n_embd]
        # project back down
        return linear(a, **c_proj)  # [n_seq, 4*n_embd] -> [n_seq, n_embd]

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + ffn(layer_norm(x, p["ln2_g"], p["ln2_b"]),
                c_fc={"w": p["W1"], "b": p["b1"]}, c_proj={"w": p["W2"], "b": p["b2"]})
    return x
