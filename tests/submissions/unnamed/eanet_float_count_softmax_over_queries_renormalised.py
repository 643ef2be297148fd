"""Blind round 80 (b80_06, issue 38): num_patches and self_attention ported from
MenghaoGuo/EANet `multi_head_attention_torch.py` (external attention's double normalisation).

Mistakes:
1. num_patches (line 7 of the file as delivered): `(H / P) * (W / P)`, a float (196.0);
   num_tokens inherits it. Wrong on every call.
2. self_attention (lines 86-87): `softmax(attn, axis=-2)` (over the queries), then each row
   divided by its sum, instead of a softmax over the keys. Wrong on every input, one head too
   (and in encoder_block and vit_forward).

Grader: at blind time (a4b8673f) and now, 90/110. Mistake 1 named on patch-count ("In
`num_patches`, the count is a float (at your line `return (H / P) * (W / P)`)"). Mistake 2 only
observed: no-causal-mask says "returns the expected values only in 1 of 4 rows (row 0)", and
multi-head-attention gives its checklists ("the softmax over the keys (the last axis)"), never
the softmax over axis -2. Not every mistake named, so in unnamed/; EXPECT holds what must hold
today: the points lost, the mistakes named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area', 'no-causal-mask': None,
          'multi-head-attention': None}


def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError("P must divide H and W")
    return (H / P) * (W / P)


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    if C % heads != 0:
        raise ValueError("dim must be divisible by num_heads")
    hd = C // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(N, heads, -1).transpose(1, 0, 2)   # heads, N, hd
    k = (x @ p["Wk"] + p["bk"]).reshape(N, heads, -1).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(N, heads, -1).transpose(1, 0, 2)

    attn = q @ k.transpose(0, 2, 1) / np.sqrt(hd)
    if causal:
        attn = np.where(np.tril(np.ones((N, N))) > 0, attn, -np.inf)
    attn = softmax(attn, axis=-2)
    attn = attn / (1e-9 + attn.sum(axis=-1, keepdims=True))

    out = (attn @ v).transpose(1, 0, 2).reshape(N, -1)
    return out @ p["Wo"] + p["bo"]
