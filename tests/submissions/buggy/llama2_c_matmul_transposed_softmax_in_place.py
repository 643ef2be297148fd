"""Blind round 27 (b27_03, issue 38): softmax and self_attention ported from Karpathy's llama2.c
(run.c: `matmul(xout, x, w, n, d)` computing W (d, n) @ x, the in-place `softmax(float* x, int
size)`, the per-position, per-head attention loop). The student's top-level helpers
`_softmax_inplace` and `_matmul` are nested in softmax and self_attention here: the builder
replaces only the solution's own definitions.

Mistakes:
1. self_attention multiplies W @ x per token, run.c's (out, in) layout: x @ W.T for q, k, v and
   the output projection.
2. softmax normalises the caller's array in place (and returns it): the argument is changed.
   self_attention relies on that, calling `softmax(att)` and dropping its result.

Grader: at blind time and now, both named: the change in place on stable-softmax; on
multi-head-attention, with the grader's softmax standing in, `x @ W` using W transposed in each of
the 4 calls of linear together with the step softmax(scores) left out (true of the code as
graded: it drops softmax's result); no-causal-mask loses points with an observation that points
at multi-head-attention, which names it; vit-checkpoint observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'changes_input_in_place',
          'multi-head-attention': 'op:skip:self_attention/attention:skip-softmax'
                                  '+op:transpose:self_attention/linear*:W.T-added'}


def softmax(x, axis=-1):
    def _softmax_inplace(x):
        """run.c softmax(float* x, int size), on one 1-D row view."""
        max_val = x.max()            # find max value (for numerical stability)
        x -= max_val
        np.exp(x, out=x)             # exp and sum
        x /= x.sum()                 # normalize

    x = np.asarray(x, dtype=float)
    rows = np.moveaxis(x, axis, -1)
    for idx in np.ndindex(*rows.shape[:-1]):
        _softmax_inplace(rows[idx])
    return x


def self_attention(x, p, heads, causal=False):
    def _matmul(w, x):
        """run.c: W (d,n) @ x (n,) -> xout (d,); by far the most amount of time is spent here."""
        d, n = w.shape
        xout = np.zeros(d)
        for i in range(d):
            xout[i] = np.dot(w[i, :], x)
        return xout

    T, dim = x.shape
    if dim % heads:
        raise ValueError(f"dim {dim} must be a multiple of n_heads {heads}")
    head_size = dim // heads
    q = np.array([_matmul(p["Wq"], x[t]) + p["bq"] for t in range(T)])
    k = np.array([_matmul(p["Wk"], x[t]) + p["bk"] for t in range(T)])
    v = np.array([_matmul(p["Wv"], x[t]) + p["bv"] for t in range(T)])
    xb = np.zeros((T, dim))
    for pos in range(T):
        # multihead attention. iterate over all heads
        for h in range(heads):
            hs = slice(h * head_size, (h + 1) * head_size)
            n_keys = pos + 1 if causal else T
            att = k[:n_keys, hs] @ q[pos, hs] / math.sqrt(head_size)
            softmax(att)
            xb[pos, hs] = att @ v[:n_keys, hs]
    return np.array([_matmul(p["Wo"], xb[t]) + p["bo"] for t in range(T)])
