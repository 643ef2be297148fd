"""Blind round 61 (b61_08, issue 38): self_attention and ANSWERS ported from stanford-crfm/levanter
`src/levanter/models/gpt2.py` (Gpt2Attention, with GPT-2's causal mask on by default) and
`src/levanter/models/attention.py` (dot_product_attention's named axes as einsum subscripts,
`"qhd,khd->hqk"`), with encoder_block ported right (CORRECT: Gpt2Block, calling self_attention
with causal=False as the file does). The student's top-level `gelu_new` (tanh GELU, accepted) is
nested in encoder_block here: the builder replaces only the solution's own definitions.

Mistakes:
12. self_attention (line 83 of the file as delivered): the signature's default is `causal=True`,
    copied from GPT-2, so a call without `causal` hides later tokens. Wrong whenever `causal` is
    not passed (any heads); this file's encoder_block passes causal=False.
13. ANSWERS["causal_mask"] (line 122) is "speed" where the answer is "bidirectional".

Grader: at blind time (90d6c97e) and now, 98/110, both named. Mistake 12 on multi-head-attention's
three checks ("In `self_attention`, `causal` defaults to True (`causal=True` in the signature)
..."), on no-causal-mask's default check and why-positions' property ("Your `self_attention` masks
the later tokens when `causal` is left out ..."). Mistake 13 on no-causal-mask's answer check ("A
mask saves no compute ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:default_flipped:self_attention:causal-defaults-True',
          'no-causal-mask': 'causal_default_true',
          'why-positions': 'causal_default_true'}
ALIASES = ('causal_mask:speed',)  # mistake 13, named on no-causal-mask too
CORRECT = ('encoder_block',)  # Gpt2Block, causal=False passed


def self_attention(x, p, heads, causal=True):
    Pos, Embed = x.shape
    if Embed % heads != 0:
        raise ValueError("Embed must be divisible by heads")
    HeadSize = Embed // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(Pos, heads, HeadSize)
    k = (x @ p["Wk"] + p["bk"]).reshape(Pos, heads, HeadSize)
    v = (x @ p["Wv"] + p["bv"]).reshape(Pos, heads, HeadSize)
    q = q / math.sqrt(HeadSize)
    # dot_product_attention: "qpos heads head_size, kpos heads head_size -> heads qpos kpos"
    attn_scores = np.einsum("qhd,khd->hqk", q, k)
    if causal:
        causal_mask = np.arange(Pos)[:, None] >= np.arange(Pos)[None, :]
        attn_scores = np.where(causal_mask, attn_scores, -1e9)
    attn_weights = softmax(attn_scores, axis=-1)
    attn_output = np.einsum("hqk,khd->qhd", attn_weights, v).reshape(Pos, Embed)
    return attn_output @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    def gelu_new(x):
        x = np.asarray(x, dtype=float)
        return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))

    attn_output = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads, causal=False)
    x = x + attn_output
    ff_output = gelu_new(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x + ff_output


ANSWERS["causal_mask"] = "speed"
