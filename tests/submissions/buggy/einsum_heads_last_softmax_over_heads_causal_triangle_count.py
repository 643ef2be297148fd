"""Blind round 15 (b15_01, issue 38): attention ported from the einsum write-ups ("Einsum is
all you need", T. Rocktaeschel's blog; the einops tutorial's attention), the attention count from a
blog post on GPT's causal attention cost.

Mistakes:
1. self_attention builds the scores with einsum "qhd,khd->qkh", laid out (T, T, heads) with the
   heads LAST, then calls softmax(scores) with the default axis -1: it normalises across the heads
   for each (query, key) pair instead of across the keys (with one head every weight is 1; with
   causal=True the masked entries are -inf for every head, so those rows are NaN).
2. attention_scores returns T * (T + 1) // 2 (a causal mask's triangle) instead of T * T.

Grader: at blind time the count was named and the softmax hint was WRONG ("`softmax(scores)` runs
over axis 0 instead of axis -1, the default of `softmax`": the student's call uses axis -1); now
both are named, the softmax as the lecture's code with the other axis ("your values are the
lecture's with `softmax(scores, axis=0)` in place of `softmax(scores)` ... (where your own call
names the right axis, your array holds its axes in another order than the lecture's)": axis 0 of
the lecture's (heads, T, T) scores is the heads; the word "heads" is not said). why-positions
observes it too, at blind time and now: with one head every row is the sum of the values, so
"what tells the tiles apart is lost in `self_attention`" (positions_lost_in_attention, ALIASES).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'attention-cost': 'op:triangle:attention_scores:T-squared-plus-one-halved',
          'no-causal-mask': 'op:axis:self_attention/attention:softmax.axis=0',
          'multi-head-attention': 'op:axis:self_attention/attention:softmax.axis=0'}
ALIASES = ('positions_lost_in_attention',)  # why-positions' verdict on the same softmax


def attention_scores(num_tokens):
    """Scores per head. From a blog post on GPT's attention cost: each token only attends to
    itself and the tokens before it, so the map is a triangle of T(T+1)/2 scores."""
    return num_tokens * (num_tokens + 1) // 2


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention with einsum (ported from "Einsum is all you need" and the einops
    tutorial's attention: split heads as (t, h, d), contract the head dimension d)."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, d_h)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, d_h)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, d_h)
    scores = np.einsum("qhd,khd->qkh", q, k) / np.sqrt(d_h)       # (T, T, heads)
    if causal:
        keep = np.tril(np.ones((T, T), dtype=bool))[:, :, None]
        scores = np.where(keep, scores, -np.inf)
    weights = softmax(scores)
    out = np.einsum("qkh,khd->qhd", weights, v).reshape(T, d)
    return out @ p["Wo"] + p["bo"]
