"""Blind round 63 (b63_15, issue 38): self_attention ported from openai/glide-text2im
`glide_text2im/xf.py` (QKVMultiheadAttention, MultiheadAttention).

Mistakes:
23. self_attention (line 94 of the file as delivered): `attn_ch = width // heads // 3`, copied
    from QKVMultiheadAttention, where width is the fused qkv's 3d; here width is d, so the scale
    `1 / sqrt(sqrt(attn_ch))` on q and k uses d_h // 3: 1 (no scale) for d_h of 3 to 5, sqrt(2)
    for 6 to 8, ZeroDivisionError for d_h < 3. Wrong on any input.

Grader: at blind time (edc81c9a) and now, 90/110. Mistake 23 only partly, and with a WRONG hint:
no-causal-mask's two causal checks and multi-head-attention's random (hidden) check say
"[named mistake] The scores are not scaled: divide q k^T by sqrt(d_h) before the softmax", of
code that does scale (true of the values on those calls, d_h 3 to 5, not of the code);
multi-head-attention's one-head and head-count checks get the checklist; why-positions and
no-causal-mask's default check observe the ZeroDivisionError (the traceback points at line 95);
vit-checkpoint observes self_attention. Mended in the same session: a listed mistake is not
named where the student's code raised on a call it returns a value for (the hidden checks: d_h
<= 2 raises ZeroDivisionError), and the visible causal check, whose calls all have d_h = 4 (the
scale 1), is told what the values show: "Your values are those of attention whose scores come out
unscaled on these calls ... (if your code has a scale, on these calls it acts as 1: check how it is
computed)". Named since (error_model/scales.py): every failed attention check says the scores
are divided by sqrt(d_h // 3) where sqrt(d_h) belongs, at the line `attn_ch = width // heads //
3`; the visible causal check (d_h = 4 only, where the formula is 1) says it too, as the formula
that reproduces the function's other calls, where "not scaled" raises none of their
ZeroDivisionErrors (kinds/mistakes.bettered).
Back in unnamed/ at the session's end (the same session): its scale is named on every failed
attention check, but the student bundle (no error model, visible cases only) points its
encoder-block stand-in note at multi-head-attention where the full grader points at
no-causal-mask (test_bundle compares buggy/ files): to be made one before it returns to buggy/.
Back in buggy/ (session 32): a stand-in note's exercise is chosen by what the bundle has too, the
points lost on visible checks (checks/dependencies.py): multi-head-attention (4) over
no-causal-mask (2) in both, where the full grader had weighed which mistakes its error model named
and the hidden checks. Every mistake now named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:constant:self_attention/attention:scale=sqrt(d_h//3)',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d_h//3)'}


def self_attention(x, p, heads, causal=False):
    n_ctx, width = x.shape
    if width % heads:
        raise ValueError("width must be divisible by heads")
    q = (x @ p["Wq"] + p["bq"]).reshape(n_ctx, heads, -1)
    k = (x @ p["Wk"] + p["bk"]).reshape(n_ctx, heads, -1)
    v = (x @ p["Wv"] + p["bv"]).reshape(n_ctx, heads, -1)
    attn_ch = width // heads // 3
    scale = 1 / math.sqrt(math.sqrt(attn_ch))
    weight = np.einsum("thc,shc->hts", q * scale, k * scale)  # More stable with f16 than dividing afterwards
    if causal:
        weight = np.where(np.tril(np.ones((n_ctx, n_ctx), dtype=bool)), weight, -np.inf)
    weight = softmax(weight, axis=-1)
    out = np.einsum("hts,shc->thc", weight, v).reshape(n_ctx, width)
    return out @ p["Wo"] + p["bo"]

