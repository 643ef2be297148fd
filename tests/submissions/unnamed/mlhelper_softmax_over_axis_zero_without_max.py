"""Blind round 68 (b68_05, issue 38): softmax and self_attention ported from pluu2/MLhelper
`attention.py` (softmaxT(logits, temperature), an attention whose temperature is sqrt(d_h), the
right scale). The student's top-level `softmaxT` is nested in both functions here: the builder
replaces only the solution's own definitions.

Mistakes:
9. softmax (lines 123 and 132 of the file as delivered): `softmaxT` sums over `axis=0` whatever
   `axis` is: wrong for every 2-D or larger input along the last axis (1-D is right). In
   self_attention (line 167) it normalises each head's (T, T) scores over the queries instead of
   the keys: wrong on any input.
10. softmax (line 123): no max subtracted: exp overflows to inf/nan for inputs near 1000. Wrong
    for far-from-zero values only.

Grader: at blind time (766069c5) 88/110, with two WRONG hints (the judge's wrong hints 2
and 3): stable-softmax's small examples were told "One slip, made at 2 places: (1) ...
`np.max(x, axis=axis, keepdims=True)` taken over axis 0 ... (2) ... `np.sum` ... taken over axis
0" of code that has no max at all, and multi-head-attention's and no-causal-mask's hidden checks
"`softmax(scores)` taken over axis 1, ... instead of over axis -1", an axis number of the model
solution's (heads, T, T) array, of per-head (T, T) scores summed over axis 0. Now (main at
cb37e6da, after wrong68), 88/110: the pair (the sum over axis 0, the max subtraction left out)
named on stable-softmax's overflow and hidden checks; no-causal-mask's hidden check names
"`softmax(scores)` taken over axis -2, instead of over axis -1" (given_axes.py: true of the
per-head scores); multi-head-attention's visible and hidden checks "The softmax runs over the
queries" (attention_softmax_wrong_axis); the sums property and one attention check give their
checklists, the rest "also loses points in multi-head-attention". STILL WRONG: stable-softmax's
small examples are told "One slip, made at 2 places: (1) ... `np.max(x, axis=axis,
keepdims=True)` taken over axis 0 (2) ... `np.sum` ... taken over axis 0"
(op:axis:softmax:max.axis=0+op:axis:softmax:sum.axis=0). quiet_parts.py mends it only where the
search's calls are the check's four cases (this softmax alone, or with the solution's
self_attention: "sum over axis 0", the max's place quiet); beside a wrong self_attention (this
one, or an unscaled one) the passed cases of the function's other checks are weighed too (a 1-D,
axis=0 and (1, 3, 4) random cases) and a third pair fits them all
(op:axis_2d:softmax:last-or-0+op:default_flipped:softmax:axis-defaults--2, with a quiet part of
its own): with two pairs that have a quiet part, quiet_parts.undetermined gives way and the max
over axis 0 is told. Not every hint right, so in unnamed/; EXPECT holds what must hold
today: the points lost, each mistake named where it is now; the wrong hint is not in ALIASES
(not this file's mistake as said), so this file's test of "no wrong cause" fails until it is
mended.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:sum.axis=0'
                            '+op:term:softmax:drop-np.max(xaxis=axiskeepdims=True)',
          'multi-head-attention': 'attention_softmax_wrong_axis',
          'no-causal-mask': 'op:axis:self_attention/attention:softmax.axis=-2'}


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out.

    Numerically stable: subtracting the max along `axis` first changes nothing mathematically
    and keeps exp from overflowing for inputs near 1000.
    """
    def softmaxT(logits, temperature=1):  # default temperature is 1
        return np.exp(logits / temperature) / np.sum(np.exp(logits / temperature), axis=0)

    return softmaxT(np.asarray(x, dtype=float))


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    q = x @ Wq + bq (likewise k, v); head h uses columns h*d_h:(h+1)*d_h, d_h = d // heads;
    softmax(q_h k_h^T / sqrt(d_h)) v_h per head, heads side by side, then @ Wo + bo.
    No mask by default (every patch sees every patch); causal=True hides later tokens as GPT
    does. ValueError when heads does not divide d.
    """
    def softmaxT(logits, temperature=1):  # default temperature is 1
        return np.exp(logits / temperature) / np.sum(np.exp(logits / temperature), axis=0)

    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    outs = []
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        scores = np.dot(q[:, cols], k[:, cols].T)
        if causal:
            scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
        # attention(q, k, temp): the temperature plays the role of sqrt(d_h)
        weights = softmaxT(scores, temperature=math.sqrt(d_h))
        outs.append(weights @ v[:, cols])
    return np.concatenate(outs, axis=1) @ p["Wo"] + p["bo"]
