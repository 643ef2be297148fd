"""Blind round 68 (b68_02, issue 38): layer_norm and gelu ported from Salazar-99/gaia
`llms/src/llms/layers.py` (LayerNorm.forward with `self.eps = 1e-5`, GELU.forward, the tanh
form with the source's typo).

encoder_block, the solution's own, is listed too: it calls gelu, and encoder-block's `uses:`
names encoder_block only, so the exercise may lose points for it.

Mistakes:
3. layer_norm (line 138 of the file as delivered): `eps = 1e-5` (the source's `self.eps = 1e-5`)
   overwrites the argument: eps is 1e-5 instead of the default 1e-6 and a caller's `eps=` is
   ignored. Wrong on low-variance rows or with eps passed; about 1e-4 off on ordinary rows.
4. gelu (line 175): the source's typo `0.44715` for `0.044715` in the tanh approximation (up to
   about 0.07 off on [-4, 4]). Wrong on any non-tiny input, through encoder_block.

Grader: at blind time (766069c5) and now, 96/110. Mistake 3 named on layer-norm's two failed
checks ("In `layer_norm`, `eps` is fixed at 1e-05 (a library's usual default) whatever is given:
use the `eps` the caller passes"); mistake 4 only observed: encoder-block's visible check gives
its checklist ("Check the pre-LN order ... gelu(h @ W1 + b1) @ W2 + b2"), the hidden one "Your
`encoder_block` returns the expected values only in 1 of 3 rows (row 2)"; nothing names `gelu`
or its constant. At blind time both encoder-block checks had a WRONG detail (the judge's wrong
hint 1): "(graded with the grader's correct `layer_norm` standing in for yours ...; so this
failure is in `encoder_block`'s own code)", where the failure is in `gelu`, which encoder_block
calls; now (after the same session's report/own_code.py) "... so this failure is in `encoder_block`'s own
code or in `gelu`, which it calls", true. Not every mistake named, so in unnamed/; EXPECT holds
what must hold today: the points lost, mistake 3 named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:default:layer_norm:eps-as-1e-05',
          'encoder-block': None}


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis: (..., d), (d,), (d,) -> (..., d).

    The biased variance (ddof=0), eps inside the square root; each token is normalised on its own.
    """
    # LayerNorm.forward (scale/shift = gamma/beta), as in my GPT layers file
    eps = 1e-5  # self.eps = 1e-5
    mean = x.mean(axis=-1, keepdims=True)
    variance = x.var(axis=-1, keepdims=True)  # unbiased=False
    norm_x = (x - mean) / np.sqrt(variance + eps)
    return gamma * norm_x + beta


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    # Approximation formula
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1 + np.tanh(
        np.sqrt(2.0 / np.pi) *
        (x + 0.44715 * np.power(x, 3))
    ))


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
