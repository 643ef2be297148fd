"""Blind round 74 (b74_06, issue 38): layer_norm and self_attention ported from asceznyk/mingpt
`mingpt/model.py` (GPT's MHSelfAttention with a registered tril mask, nn.LayerNorm's default
eps).

Mistakes:
1. self_attention (line 101 of the file as delivered): the causal tril mask always applied,
   `causal` never read, as in the GPT source. Wrong on every call without causal (with
   causal=True it is right).
2. layer_norm (line 80): default eps=1e-5 (torch nn.LayerNorm's) instead of 1e-6. Wrong when
   layer_norm is called without eps (large on rows of small variance); an explicit eps is right.
The delivered file's tanh GELU (accepted) is not ported.

Grader: at blind time (997839b5) and now, 90/110. Mistake 1 named on multi-head-attention and
no-causal-mask ("You applied GPT's causal mask although causal is False"), with no-causal-mask's
default check's checklist ("Token 0 cannot see the last token ... that is GPT's causal mask")
and why-positions' ("Your self_attention depends on the order of its rows"); mistake 2 on
layer-norm ("In `layer_norm`, eps is 1e-05; the student API's is 1e-06."); vit-checkpoint
observes self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_causal',
          'no-causal-mask': 'attention_causal',
          'why-positions': 'attention_not_equivariant',
          'layer-norm': 'op:constant:layer_norm:eps=1e-05'}
ALIASES = ('gpt_causal_mask',)  # no-causal-mask's default check: the property's checklist


def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    S, E = x.shape
    if E % heads != 0:
        raise ValueError('n_embd must be divisible by n_heads')

    block_size = S
    mask = np.tril(np.ones((block_size, block_size)))

    #k, q, v (nh, S, hs)
    k = (x @ p['Wk'] + p['bk']).reshape(S, -1, E // heads).transpose(1, 0, 2)
    q = (x @ p['Wq'] + p['bq']).reshape(S, -1, E // heads).transpose(1, 0, 2)
    v = (x @ p['Wv'] + p['bv']).reshape(S, -1, E // heads).transpose(1, 0, 2)

    #(nh, S, hs) * (nh, hs, S) -> (nh, S, S)
    attn = q @ k.transpose(0, 2, 1) / math.sqrt(k.shape[-1])
    attn = np.where(mask[:S, :S] == 0, float('-inf'), attn)
    attn = softmax(attn, axis=-1)
    attn = attn @ v  # (nh, S, S) * (nh, S, hs) -> (nh, S, hs)

    y = attn.transpose(1, 0, 2).reshape(S, E)
    return y @ p['Wo'] + p['bo']
