"""Blind round 76 (b76_08, issue 38): self_attention ported from OttoVintola/attention
`src/vit.py` (newer lucidrains vit-pytorch, the norm inside Attention and FeedForward).

Mistakes:
1. self_attention (line 98 of the file as delivered): its own LayerNorm (unit gamma, zero beta)
   applied to the input, the source's `Attention.norm`. Standalone self_attention is wrong on
   every input, and encoder_block normalises twice (ln1, then the inner norm); vit_forward
   inherits it.

Grader: at blind time (fe8b70f1) and now, 93/110. Not told: multi-head-attention gets only its
checklists, no-causal-mask's causal checks only "fix it there first" observations, and
no-causal-mask's "by default, the first token sees the last one" was told a hint the judge found
WRONG: "Token 0 cannot see the last token. If no token sees the ones after it, that is GPT's
causal mask ...", where with causal=False the code applies no mask; its inner layer_norm maps
each row of the d=2 input to about +-1, so changing x[-1] does not change the normalised row.
Mended since 4d086a35 (checks/last_token_probe.py): that check now gives the observation "The
output of token 0 did not change when the last token x[-1] did, though other changes of x[-1]
changed it", no mask named. Since a718fd9b the mistake is named on multi-head-attention's three failed
checks and no-causal-mask's two causal ones (error_model/inner_norm.py): "In `self_attention`, its
input `x` is normalised first, before anything else (a LayerNorm with no gain or shift, as newer
lucidrains vit-pytorch puts one inside its Attention and FeedForward): the model solution's
`self_attention` uses `x` as it is given; its caller normalises it already (`encoder_block`
passes it the model solution's `layer_norm(x, p['ln1_g'], p['ln1_b'], eps)`), so in a block the
input is normalised twice"; the first-token check keeps its observation (true: token 0 sees
the last token), and encoder-block and vit-forward are graded around it, full marks. Every
mistake named, no hint wrong: in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:input_normalised:self_attention:eps=1e-06',
          'no-causal-mask': 'op:input_normalised:self_attention:eps=1e-06'}


def self_attention(x, p, heads, causal = False):
    n, dim = x.shape
    if dim % heads != 0:
        raise ValueError('dim must be divisible by heads')
    dim_head = dim // heads
    scale = dim_head ** -0.5

    x = layer_norm(x, np.ones(dim), np.zeros(dim))

    q = x @ p['Wq'] + p['bq']
    k = x @ p['Wk'] + p['bk']
    v = x @ p['Wv'] + p['bv']
    # 'n (h d) -> h n d'
    q, k, v = map(lambda t: t.reshape(n, heads, dim_head).transpose(1, 0, 2), (q, k, v))

    dots = np.matmul(q, k.transpose(0, 2, 1)) * scale

    if causal:
        causal_mask = np.triu(np.ones((n, n), dtype = bool), 1)
        dots = np.where(causal_mask, -np.inf, dots)

    attn = softmax(dots, axis = -1)

    out = np.matmul(attn, v)
    # 'h n d -> n (h d)'
    out = out.transpose(1, 0, 2).reshape(n, dim)
    return out @ p['Wo'] + p['bo']
