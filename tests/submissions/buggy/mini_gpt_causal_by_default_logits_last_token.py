"""Blind round 71 (b71_12, issue 38): self_attention and vit_forward ported from
Nikhilseelam1/Build-An-Entire-GPT-From-Scratch `src/mini_gpt/models/attention.py` (and
`layers.py`: the GPT block and its next-token head).

Mistakes:
1. self_attention (line 98 of the file as delivered): default `causal=True` (the GPT block
   always applies its `tril` buffer). Calls that leave it out are masked; an explicit
   causal=True/False is right. The solution's encoder_block calls it without the argument, so
   every block is causal.
2. vit_forward (lines 140-141): the logits of every row, then `logits[-1]`, the last token's (as
   GPT's next-token head), instead of the [CLS] row 0. Wrong on every image.

Grader: at blind time (3f040026) and now, 88/110. Mistake 1 named on multi-head-attention ("In
`self_attention`, `causal` defaults to True (`causal=True` in the signature)"), no-causal-mask
and why-positions ("Your `self_attention` masks the later tokens when `causal` is left out");
mistake 2 named on vit-forward ("The head reads the last token; [CLS] is row 0." and "In
`vit_forward`, `x[0]` reads index -1 instead of 0: `x[-1]`."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:default_flipped:self_attention:causal-defaults-True',
          'no-causal-mask': 'causal_default_true',
          'why-positions': 'causal_default_true',
          'vit-forward': 'vit_last_row'}
ALIASES = ('op:index:vit_forward:x[-1]',)


def self_attention(x, p, heads, causal=True):
    T, C = x.shape
    if C % heads != 0:
        raise ValueError("n_embd must be divisible by n_head")
    head_dim = C // heads
    k = x @ p["Wk"] + p["bk"]
    q = x @ p["Wq"] + p["bq"]
    v = x @ p["Wv"] + p["bv"]
    k = k.reshape(T, heads, head_dim).transpose(1, 0, 2)
    q = q.reshape(T, heads, head_dim).transpose(1, 0, 2)
    v = v.reshape(T, heads, head_dim).transpose(1, 0, 2)
    att = (q @ k.transpose(0, 2, 1)) / math.sqrt(head_dim)
    if causal:
        tril = np.tril(np.ones((T, T)))
        att = np.where(tril == 0, float("-inf"), att)
    att = softmax(att, axis=-1)
    out = att @ v
    out = out.transpose(1, 0, 2).reshape(T, C)
    return out @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    logits = x @ params["W_head"] + params["b_head"]
    return logits[-1]
