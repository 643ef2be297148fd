"""Blind round 83 (b83_07, issue 38): self_attention ported from ambujpawar/lets_learn_gpt
`answers/load_multihead.py`.

Mistakes:
1. self_attention (lines 97-98 of the file as delivered): the GPT Head's `tril` mask is applied
   in every head whatever `causal` says, so `causal=False` is ignored: wrong for any T > 1
   (encoder_block and vit_forward inherit it).

Grader: at blind time (2774dae9) and now, 93/110. Mistake 1 named on no-causal-mask and
multi-head-attention ("You applied GPT's causal mask although causal is False");
why-positions loses 1 point with its checklist (a permutation test on this self_attention, true
of it). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_causal',
          'no-causal-mask': 'attention_causal',
          'why-positions': 'attention_not_equivariant'}
ALIASES = ('gpt_causal_mask',)  # no-causal-mask's default check: the property's checklist


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("d not divisible by heads")
    dh = d // heads
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    outs = []
    for h in range(heads):
        sl = slice(h * dh, (h + 1) * dh)
        s = Q[:, sl] @ K[:, sl].T / math.sqrt(dh)
        tril = np.tril(np.ones((T, T)))
        s = np.where(tril == 0, -np.inf, s)
        outs.append(softmax(s) @ V[:, sl])
    return np.concatenate(outs, axis=1) @ p["Wo"] + p["bo"]
