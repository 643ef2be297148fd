"""Blind round 51 (b51_10, issue 38): self_attention after Ivanyan0516/Paddle-vision-transformer,
ViT/attention.py (transpose_multi_head, `scale * (q k^T)`, softmax, `out.transpose([0, 2, 1,
3]).reshape([B, N, -1])`); the causal branch uses fla-org flash-linear-attention's
`tril_softmax(scores, strict: bool = True)`; the guard is `assert dim % num_heads == 0,
"model_dim must be divisible by num_heads"`. The student's `_tril_softmax` (top-level in the file)
is nested in self_attention here: the builder replaces only the solution's own definitions.

Mistakes:
1. causal=True goes through `tril_softmax` with its default `strict=True`: the mask is `j < i`, so
   each token is also hidden from itself. Row 0 has no visible key at all: its probabilities are
   all 0 (the denominator is clipped) and its output row is just bo; every other row attends only
   to strictly earlier tokens. GPT's mask keeps the diagonal (j <= i). causal=False is right.
2. `assert embed_dim % heads == 0`: when heads does not divide d (d = 6, heads = 4) the function
   raises AssertionError instead of the ValueError the API asks for.

Grader: at blind time (b53db91d), mistake 2 named on multi-head-attention ("Your code refused the
input with `assert` (AssertionError), where ValueError is asked for: an assert is no input check
(python -O skips it); write `raise ValueError(...)`."); mistake 1 only the checklist on the hidden
causal check ("With causal=True, token i sees tokens 0..i only: ..."), and on the visible one a
wrong hedge: "Your `self_attention` also loses points in multi-head-attention: fix it there first,
as the mistake there may be what fails here too." (the assert never fires on its one-head case).
Now named: mistake 1 on both causal checks (masks.empty_rows_zeroed, paired with the diagonal's
operator): "In `self_attention` (at the lecture's step `causal_mask(x.shape[-2])`), `np.tri(T,
dtype=bool)` is one diagonal off, k=-1 instead of k=0: the keys of each query end one earlier.
..."; the hedge on the assert is gone (a function's failures elsewhere that are all refusals are
not offered for a case due a value that returned one: dependencies.py).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:diagonal:self_attention/causal_mask:tri.k=-1'
                            '+~op:empty_rows_zeroed:self_attention/attention:hidden-rows-zero-weights',
          'multi-head-attention': 'refused_with_assert'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d), following the Paddle ViT Attention layer."""
    def _tril_softmax(scores, strict=True):
        """Row-wise causal softmax over lower-triangular positions (zeros elsewhere)."""
        T = scores.shape[-1]
        i = np.arange(T).reshape(1, T, 1)
        j = np.arange(T).reshape(1, 1, T)
        if strict:
            mask = (j < i)
        else:
            mask = (j <= i)
        masked = np.where(mask, scores, -np.inf)
        max_per_row = masked.max(axis=-1, keepdims=True)
        with np.errstate(invalid="ignore"):
            exp = np.exp(masked - max_per_row)
        exp = np.where(mask, exp, 0.0)
        denom = np.clip(exp.sum(axis=-1, keepdims=True), 1e-20, None)
        return exp / denom

    N, embed_dim = x.shape
    assert embed_dim % heads == 0, "model_dim must be divisible by num_heads"
    head_dim = embed_dim // heads
    scale = head_dim ** -0.5

    def transpose_multi_head(t):
        # [N, all_head_dim] -> [num_heads, N, head_dim]
        return t.reshape(N, heads, head_dim).transpose(1, 0, 2)

    q, k, v = map(transpose_multi_head, (x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]))
    attn = scale * np.matmul(q, k.transpose(0, 2, 1))
    if causal:
        attn = _tril_softmax(attn)
    else:
        attn = softmax(attn, axis=-1)
    out = np.matmul(attn, v)                     # [num_heads, N, head_dim]
    out = out.transpose(1, 0, 2).reshape(N, -1)
    return out @ p["Wo"] + p["bo"]
