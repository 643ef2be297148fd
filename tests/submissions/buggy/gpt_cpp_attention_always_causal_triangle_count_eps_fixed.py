"""Blind round 66 (b66_03, issue 38): attention_scores, layer_norm and
self_attention ported from Autobot37/gpt.cpp (C: `kernels/attention_forward.c`,
`kernels/layernorm_forward.c`).

Mistakes:
6. self_attention (lines 181, 191 and 197 of the file as delivered): the GPT kernel's loop over
   `t2 in range(t + 1)` and its zeroing of `t2 > t` always apply a causal mask; `causal` is never
   read. Wrong on any input with T > 1 and causal=False.
7. attention_scores (lines 51-52): counts the causal kernel's scores, T(T+1)/2, not T * T.
8. layer_norm (line 144): `eps = 1e-5` hard-coded (the C `float eps = 1e-5f;`); the `eps`
   argument is ignored.
(Not in the key, found by the judge: the running max starts at `maxval = 1e-5` (line 180), a
floor, with the zero sum guarded: a row of scores all far below 0 comes out as zeros.)

Grader: at blind time (f4776223) and now, 83/110, all named. Mistake 6 on multi-head-attention
("In `self_attention`, the model solution's `causal_mask(x.shape[-2]) if causal else None` is
always ... `causal_mask(x.shape[-2])`"); mistake 7 on attention-cost ("`T * T` is counted as `T *
(T + 1) // 2`, a causal mask's triangle"); mistake 8 on layer-norm ("`eps` is fixed at 1e-05 ...
use the `eps` the caller passes"). Two checks named mistake 6 together with the max floor; at
blind time that floor was said to be "in its call of your `softmax`", a call this self_attention
does not make (its softmax is a loop of its own): mended since (a step is said "in its call of
your `f`" only where the function calls its own `f`, tests/test_quotes.py), and now it is said
"In `self_attention`". Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:condition_ignored:self_attention:causal-ignored',
          'attention-cost': 'op:triangle:attention_scores:T-squared-plus-one-halved',
          'layer-norm': 'op:default:layer_norm:eps-as-1e-05'}
ALIASES = ('gpt_causal_mask', 'attention_not_equivariant')  # the properties' checklists on mistake 6


def attention_scores(num_tokens):
    """Scores in one attention map of one head.

    Counted as in attention_forward.c: query t is scored against keys t2 = 0..t, so the
    map holds 1 + 2 + ... + T entries.
    """
    count = 0
    for t in range(num_tokens):
        for t2 in range(t + 1):
            count += 1
    return count


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm over the last axis, loop port of layernorm_forward.c (any leading axes)."""
    x = np.asarray(x, dtype=float)
    C = x.shape[-1]
    inp = x.reshape(-1, C)
    out = np.empty_like(inp)
    eps = 1e-5  # float eps = 1e-5f;
    for bt in range(inp.shape[0]):
        inp_p = inp[bt]
        m = 0.0
        for i in range(C):
            m += inp_p[i]
        m = m / C
        v = 0.0
        for i in range(C):
            diff = inp_p[i] - m
            v += diff * diff
        v = v / C
        s = 1.0 / math.sqrt(v + eps)
        for i in range(C):
            out[bt, i] = ((inp_p[i] - m) * s) * gamma[i] + beta[i]
    return out.reshape(x.shape)


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d), loop port of attention_forward.c.

    qkv is packed as in gpt2.c: row t holds [q | k | v], each C wide, head h at h*hs.
    """
    T, C = x.shape
    NH = heads
    if C % NH:
        raise ValueError(f"width {C} is not divisible by {NH} heads")
    hs = C // NH
    scale = 1.0 / math.sqrt(hs)
    qkv = np.concatenate([x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]], axis=1)
    out = np.zeros((T, C))
    for t in range(T):
        for h in range(NH):
            query = qkv[t, h * hs:(h + 1) * hs]
            preatt = np.zeros(T)
            att = np.zeros(T)
            maxval = 1e-5
            for t2 in range(t + 1):
                key = qkv[t2, C + h * hs:C + (h + 1) * hs]
                val = 0.0
                for i in range(hs):
                    val += query[i] * key[i]
                val *= scale
                if val > maxval:
                    maxval = val
                preatt[t2] = val
            total = 0.0
            for t2 in range(t + 1):
                ev = math.exp(preatt[t2] - maxval)
                att[t2] = ev
                total += ev
            expinv = 0.0 if total == 0.0 else 1.0 / total
            for t2 in range(T):
                if t2 <= t:
                    att[t2] *= expinv
                else:
                    att[t2] = 0.0
            for i in range(hs):
                val = 0.0
                for t2 in range(T):
                    val += att[t2] * qkv[t2, 2 * C + h * hs + i]
                out[t, h * hs + i] = val
    return out @ p["Wo"] + p["bo"]
