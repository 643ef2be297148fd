"""Blind round 77 (b77_06, issue 38): self_attention and vit_forward ported from jvalderr239/ViT
`src/models/vit/attention.py` (with classification.py).

Mistakes:
1. self_attention (lines 104-106 and 122 of the file as delivered): the heads split with a bare
   `reshape(heads, n, d_h)` (no transpose) and merged with `reshape(n, h * d)` (the source's
   `reshape(b, num_heads, n, ...)`). Shows only with heads > 1.
2. vit_forward (line 146): the mean over all tokens, then the final LayerNorm on the pooled
   vector (the source's ClassificationHead: LambdaMeanLayer, LayerNorm, Linear), instead of the
   LayerNorm then the [CLS] row. Wrong on every input.

Grader: at blind time (15b4065f) and now, 86/110. Mistake 1 named on multi-head-attention and
no-causal-mask's causal checks ("Your heads come from a bare reshape, q.reshape(heads, T, d_h)
... reshape(T, heads, d_h).transpose(1, 0, 2)"), mistake 2 on vit-forward ("`x[0]` is read as
`x.mean(axis=0)`"). Every mistake named, but one hint is wrong, so in unnamed/: no-causal-mask's
"by default, the first token sees the last one" observes "token 0 sees the last token, and some
step of your `self_attention` gives the same result for different last rows", where no step
does: with heads >= 2 the bare reshape puts token 0's output in head 0, which never reads
x[-1], so no change of x[-1] reaches token 0 (token 0 changed only in another trial, with one
head, where the code is right). Since 6acf7dd9 (checks/last_token_probe.py: a step's claim only
where the same failing call shows it) that check gets the observation "With x of shape (7, 4)
and heads=2, the output of token 0 did not change when the last token x[-1] did ... The checks
of multi-head-attention say more.", true of the code: in buggy/ now.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_heads_bare_reshape',
          'no-causal-mask': 'attention_heads_bare_reshape',
          'vit-forward': 'op:pool_before_step:vit_forward:x[0]-mean-all-before-layer_norm'}
ALIASES = ('attention_not_equivariant',)  # why-positions' checklist for the split


def self_attention(x, p, heads, causal=False):
    # split keys, queries and values in num_heads
    n, hd = x.shape
    if hd % heads:
        raise ValueError(f"{hd} not divisible by {heads} heads")
    queries = (x @ p["Wq"] + p["bq"]).reshape(heads, n, hd // heads)
    keys = (x @ p["Wk"] + p["bk"]).reshape(heads, n, hd // heads)
    values = (x @ p["Wv"] + p["bv"]).reshape(heads, n, hd // heads)

    # find score
    energy = np.einsum("hqd,hkd->hqk", queries, keys)  # num_heads, query_len, key_len
    if causal:
        mask = np.tril(np.ones((n, n), dtype=bool))
        energy = np.where(mask, energy, np.finfo(np.float64).min)

    ## sqrt(d_k)
    scaling = (hd // heads) ** (1 / 2)

    ## attention equation
    att = softmax(energy / scaling, axis=-1)
    # sum up over the third axis
    out = np.einsum("hal,hlv->hav", att, values)
    h, n, d = out.shape
    out = out.reshape(n, h * d)
    return out @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    # ClassificationHead: mean over tokens, LayerNorm, Linear
    x = np.mean(x, axis=0)
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x @ params["W_head"] + params["b_head"]
