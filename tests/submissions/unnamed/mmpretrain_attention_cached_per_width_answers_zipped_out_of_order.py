"""Blind round 18 (b18_05, issue 38): self_attention and ANSWERS in the style of mmpretrain / mmcv
(a MultiheadAttention "module" built once from its config, then called).

Mistakes:
1. self_attention caches the module in a dict keyed on the width only: a later call at the same
   width with another `heads` reuses the module built for the first head count (stale num_heads,
   head_dims and scale). Right while one head count is used per width.
2. ANSWERS is `dict(zip(_QUESTIONS, _CHOICES))` with the choices in another order:
   ANSWERS["medical"] == "bidirectional" and ANSWERS["causal_mask"] == "pretrained" (neither is an
   option of its question; "positions" is right).
The student's module-level `_ATTN_MODULES = {}` and MultiheadAttention class are kept here as a
function attribute and a nested class, and the zip as the two wrong ANSWERS lines: the builder
replaces only the solution's own definitions (and the solution sets each ANSWERS key on its own
line after the dict). The cache lives as long as the worker, as the module's did.

Grader: at blind time, the stale heads got no hint (multi-head-attention's checks failed with no
hint line); at b9994292 they give their checklists only ("With one head, d_h = d: q, k, v = ...",
"... head h takes the contiguous columns h*d_h:(h+1)*d_h ..."), and no-causal-mask says "returns
the expected values only in 1 of T rows";
the answers are told exactly by the check's message ("'bidirectional' is not one of the options
'pretrained', 'scratch'"), with no mistake name. Not every mistake named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': None, 'no-causal-mask': None, 'pretrained-or-scratch': None}


def self_attention(x, p, heads, causal=False):
    """mmcv MultiheadAttention built once per width; the student's module-level cache
    `_ATTN_MODULES = {}` and class are kept here as a function attribute and a nested class."""

    class MultiheadAttention:
        def __init__(self, embed_dims, num_heads, qk_scale=None):
            self.embed_dims = embed_dims
            self.num_heads = num_heads
            self.head_dims = embed_dims // num_heads
            self.scale = qk_scale or self.head_dims ** -0.5

        def forward(self, x, p, causal=False):
            N, C = x.shape
            q = (x @ p["Wq"] + p["bq"]).reshape(N, self.num_heads, self.head_dims).transpose(1, 0, 2)
            k = (x @ p["Wk"] + p["bk"]).reshape(N, self.num_heads, self.head_dims).transpose(1, 0, 2)
            v = (x @ p["Wv"] + p["bv"]).reshape(N, self.num_heads, self.head_dims).transpose(1, 0, 2)
            attn = (q @ k.transpose(0, 2, 1)) * self.scale
            if causal:
                attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)
            attn = softmax(attn, axis=-1)
            x = (attn @ v).transpose(1, 0, 2).reshape(N, self.embed_dims)
            return x @ p["Wo"] + p["bo"]

    _ATTN_MODULES = self_attention.__dict__.setdefault("_ATTN_MODULES", {})
    embed_dims = x.shape[-1]
    if embed_dims % heads != 0:
        raise ValueError(f"embed_dims ({embed_dims}) should be divisible by num_heads ({heads})")
    if embed_dims not in _ATTN_MODULES:
        _ATTN_MODULES[embed_dims] = MultiheadAttention(embed_dims, heads)
    return _ATTN_MODULES[embed_dims].forward(x, p, causal=causal)


ANSWERS["medical"] = "bidirectional"
ANSWERS["causal_mask"] = "pretrained"
