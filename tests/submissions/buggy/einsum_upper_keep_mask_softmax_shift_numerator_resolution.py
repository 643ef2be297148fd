"""Blind round 8 (b8_14, issue 38): an einsum self_attention from a blog post, a hand-typed
"stable" softmax, and ANSWERS['positions'] = 'resolution'.

Mistakes:
1. self_attention: the causal keep-mask is `np.triu(np.ones((T, T)))`, the upper triangle, so each
   token sees itself and the later tokens (karpathy/nanoGPT#170). Shows only with causal=True.
2. softmax: the numerator is shifted, the denominator is not: `exp(x - max) / sum(exp(x))`
   (triton-lang/triton#230). Wrong whenever the max along the axis is not 0. Shows always.
3. ANSWERS["positions"] = "resolution" (positions thought to let the model take larger images).

Grader: the mask and the answer are named (attention_mask_transposed, positions:resolution), and
the softmax too (op:shift: "reads `e` shifted on one side only: its second `e` is `np.exp(x)`"),
with the probability property's checklist, which round 8 found wrong ("Pass axis (and
keepdims=True) to max and sum", though the code does) and now states the computation: exp(x -
max) over the sum of those same exp(x - max).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_mask_transposed',
          'stable-softmax': 'op:shift:softmax:e-2-unshifted',
          'why-positions': 'positions:resolution'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6)."""
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    d_h = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, d_h)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, d_h)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, d_h)
    scores = np.einsum("thd,shd->hts", q, k) / math.sqrt(d_h)
    if causal:
        mask = np.triu(np.ones((T, T)))
        scores = np.where(mask == 1, scores, -np.inf)
    w = softmax(scores, axis=-1)
    out = np.einsum("hts,shd->thd", w, v).reshape(T, d)
    return out @ p["Wo"] + p["bo"]


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out."""
    x_max = np.max(x, axis=axis, keepdims=True)
    e_x = np.exp(x - x_max)
    return e_x / np.sum(np.exp(x), axis=axis, keepdims=True)


ANSWERS["positions"] = "resolution"
