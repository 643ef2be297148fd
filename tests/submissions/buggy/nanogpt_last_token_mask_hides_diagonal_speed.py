"""Blind round 7 (b7_04, issue 38): self_attention and vit_forward after karpathy/nanoGPT
(CausalSelfAttention, lm_head on the last position), and ANSWERS['causal_mask'] = 'speed'.

Mistakes:
1. vit_forward: the logits come from the last token, x[-1] (nanoGPT's `self.lm_head(x[:, [-1],
   :])`), not from [CLS] (row 0). Shows always.
2. self_attention: the causal mask hides the diagonal too, np.triu(..., k=0) (pbloem/former#10:
   offset 0 instead of 1), so token 0 sees nothing: its row is all -inf and becomes NaN. Shows
   only with causal=True.
3. ANSWERS["causal_mask"] = "speed" (the mask is thought to be dropped only to save compute).

Grader: all three named: attention_causal_diagonal ("Your causal mask hides the diagonal too, so
token 0 sees nothing ..."), vit_last_row ("The head reads the last token; [CLS] is row 0"; the
hidden check says it as op:index:vit_forward:x[-1]) and causal_mask:speed.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_causal_diagonal',
          'vit-forward': 'vit_last_row'}
ALIASES = ('causal_mask:speed',)  # the file's other mistake, named on the same exercise


def self_attention(x, p, heads, causal=False):
    T, C = x.shape
    if C % heads != 0:
        raise ValueError("n_embd must be divisible by n_head")
    hs = C // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, hs).swapaxes(0, 1)   # (nh, T, hs)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, hs).swapaxes(0, 1)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, hs).swapaxes(0, 1)
    att = (q @ k.swapaxes(-2, -1)) * (1.0 / math.sqrt(hs))
    if causal:
        hide = np.triu(np.ones((T, T), dtype=bool))        # positions a token may not attend to
        att = att.copy()
        att[:, hide] = -np.inf
    att = softmax(att, axis=-1)
    y = att @ v                                              # (nh, T, hs)
    y = y.swapaxes(0, 1).reshape(T, C)
    return y @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])        # ln_f
    return x[-1] @ params["W_head"] + params["b_head"]      # lm_head on the last position


ANSWERS["causal_mask"] = "speed"
