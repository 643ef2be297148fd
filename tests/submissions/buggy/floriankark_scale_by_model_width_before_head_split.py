"""Blind round 72 (b72_07, issue 38): self_attention (with its `_attention`) ported from
floriankark/transformer `modelling/attention.py` (`F.softmax(q @ k.T / np.sqrt(q.size(-1)) +
mask)`, the mask `-1e10 * triu(ones, 1)`).

Mistakes:
1. self_attention (line 111 of the file as delivered): `scale = np.sqrt(q.shape[-1])` is taken
   on the projected q before the head split, so the scores are divided by sqrt(d), not
   sqrt(d_h). Right with heads=1, too small a scale with heads > 1.
The delivered file's top-level helper `_attention` is nested here.

Grader: at blind time (2df48139) and now, 96/110. Mistake 1 named on multi-head-attention ("You
scaled by 1/sqrt(d), the model width. Each head's dot products are over d_h = d // heads numbers:
scale by 1/sqrt(d_h).") and on no-causal-mask ("In `self_attention` (where each head's attention
weights are computed and applied to its values), the scores are divided by sqrt(d) (at your line
`scale = np.sqrt(q.shape[-1])`), the model width, instead of sqrt(d_h) (d_h = d // heads)"; the
line since report/root_line.py). At blind time the no-causal-mask hint quoted as the fix
`math.sqrt(q.shape[-1])`, the student's own line 111 (`np.sqrt` of the full-width q; the judge's
wrong hint 2); now a fix the student's function already holds is said by its meaning, "instead of
sqrt(d_h) (d_h = d // heads)" (report/held_fixes.py, 855463cc). vit-checkpoint runs the broken
self_attention and says so.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def self_attention(x, p, heads, causal=False):
    def _attention(q, k, v, scale, mask_future=False):
        mask = (
            -1e10 * np.triu(np.ones((q.shape[0], k.shape[0])), k=1)
            if mask_future
            else 0
        )  # upper triangular matrix [n_q, n_k] -inf
        return softmax(q @ k.T / scale + mask, axis=-1) @ v

    d = x.shape[-1]
    if d % heads != 0:
        raise ValueError("d_model must be divisible by the number of heads")
    d_h = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    scale = np.sqrt(q.shape[-1])
    out = np.concatenate(
        [
            _attention(q[:, i * d_h:(i + 1) * d_h], k[:, i * d_h:(i + 1) * d_h], v[:, i * d_h:(i + 1) * d_h],
                       scale, mask_future=causal)
            for i in range(heads)
        ],
        axis=-1,
    )
    return out @ p["Wo"] + p["bo"]
