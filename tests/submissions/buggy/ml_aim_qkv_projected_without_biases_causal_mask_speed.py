"""Blind round 57 (b57_10, issue 38): self_attention and ANSWERS ported from apple/ml-aim
`aim-v1/aim/v1/torch/layers.py` (Attention with `qkv_bias=False`: `self.qkv = nn.Linear(dim,
dim * 3, bias=qkv_bias)`, torch's `scaled_dot_product_attention`). The student's
`scaled_dot_product_attention` (top-level in the file) is nested in self_attention here: the
builder replaces only the solution's own definitions.

Mistakes:
17. self_attention (lines 111-112 of the file as delivered) projects `x @ qkv_weight` with the
    concatenated `Wq|Wk|Wv` and never adds `bq, bk, bv`. Wrong on any input with a nonzero `bq`
    or `bv` (any heads, causal or not); zero q/k/v biases agree (`bk` alone would not matter).
24. `ANSWERS["causal_mask"]` (line 150) is "speed" (AIM is pre-trained with a causal/prefix mask,
    so the mask is thought dropped to save compute) instead of "bidirectional".

Grader: at blind time (84f876fc) and now, both named. Mistake 17 on multi-head-attention's three
checks and no-causal-mask's causal checks ("In `self_attention`, q, k and v are projected without
their biases: `x @ p['Wq']`, `x @ p['Wk']`, `x @ p['Wv']` (as a projection built with bias=False
does: ...), where the lecture adds `p['bq']`, `p['bk']`, `p['bv']` to them (the output
projection keeps its bias in both). `p['bk']` alone would change nothing, the softmax cancels it;
the others show."); vit-checkpoint observes self_attention. Mistake 24 on no-causal-mask's
ANSWERS check, with the option's feedback ("A mask saves no compute: the T x T scores are
computed either way, then masked. ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'no-causal-mask': 'causal_mask:speed'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d)."""
    def scaled_dot_product_attention(q, k, v, is_causal=False):
        L, S = q.shape[-2], k.shape[-2]
        attn = q @ np.swapaxes(k, -2, -1) / math.sqrt(q.shape[-1])
        if is_causal:
            attn = np.where(np.tril(np.ones((L, S), dtype=bool)), attn, -np.inf)
        return softmax(attn, axis=-1) @ v

    N, C = x.shape
    num_heads = heads
    if C % num_heads:
        raise ValueError("dim must be divisible by num_heads")
    qkv_weight = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)   # self.qkv
    qkv = (x @ qkv_weight).reshape(N, 3, num_heads, C // num_heads).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]
    x = scaled_dot_product_attention(q, k, v, is_causal=causal)
    x = x.transpose(1, 0, 2).reshape(N, C)
    x = x @ p["Wo"] + p["bo"]                                         # self.proj
    return x


ANSWERS["causal_mask"] = "speed"
