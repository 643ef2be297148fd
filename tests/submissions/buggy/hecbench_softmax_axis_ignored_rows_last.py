"""Blind round 67 (b67_05, issue 38): softmax ported from zjin-lcf/HeCBench
`src/softmax-online-cuda/reference.h` (softmax_forward_cpu).

Mistakes:
8. softmax (line 124 of the file as delivered): `inp = x.reshape(-1, C)` with C = x.shape[-1]:
   `axis` ignored, the last axis always normalised. Wrong with axis != -1 only.

Grader: at blind time (d3fd340b) and now, 105/110, named on stable-softmax's axis checks ("In
`softmax`, `axis` is taken as its default, -1, whatever is given"). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default:softmax:axis-as-default'}
ALIASES = ('softmax_wrong_axis',)  # the sums property's checklist on the same mistake


def softmax(x, axis=-1):
    """Row softmax, ported from softmax_forward_cpu(out, inp, N, C)."""
    x = np.asarray(x, dtype=float)
    C = x.shape[-1]
    inp = x.reshape(-1, C)
    N = inp.shape[0]
    out = np.empty_like(inp)
    for i in range(N):
        inp_row = inp[i]
        maxval = -np.inf
        for j in range(C):
            if inp_row[j] > maxval:
                maxval = inp_row[j]
        total = 0.0
        for j in range(C):
            out[i, j] = math.exp(inp_row[j] - maxval)
            total += out[i, j]
        norm = 1.0 / total
        for j in range(C):
            out[i, j] *= norm
    return out.reshape(x.shape)
