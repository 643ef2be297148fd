"""Blind round 80 (b80_06, issue 38): num_patches and self_attention ported from
MenghaoGuo/EANet `multi_head_attention_torch.py` (external attention's double normalisation).

Mistakes:
1. num_patches (line 7 of the file as delivered): `(H / P) * (W / P)`, a float (196.0);
   num_tokens inherits it. Wrong on every call.
2. self_attention (lines 86-87): `softmax(attn, axis=-2)` (over the queries), then each row
   divided by its sum, instead of a softmax over the keys. Wrong on every input, one head too
   (and in encoder_block and vit_forward).

Grader: at blind time (a4b8673f) and now, 90/110. Mistake 1 named on patch-count ("In
`num_patches`, the count is a float (at your line `return (H / P) * (W / P)`)"). Mistake 2 was
only observed: no-causal-mask said "returns the expected values only in 1 of 4 rows (row 0)", and
multi-head-attention gave its checklists ("the softmax over the keys (the last axis)"). Since
483e77c7 (error_model/renormalised.py, tried where nothing else reproduces the calls) mistake 2 is
named on every failed check of both: "your values are the model solution's with
`softmax(scores)` taken over axis -2 and then divided by its sums over axis -1 plus a small
constant, in effect `w = softmax(scores, axis=-2)` then `w / (w.sum(axis=-1, keepdims=True) +
eps)` ..., instead of one `softmax` over axis -1 ... Normalise over axis -1 alone." Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area',
          'no-causal-mask': 'op:renormalised:self_attention/attention:softmax-plus-1e-09.axis=-2',
          'multi-head-attention':
              'op:renormalised:self_attention/attention:softmax-plus-1e-09.axis=-2'}


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
