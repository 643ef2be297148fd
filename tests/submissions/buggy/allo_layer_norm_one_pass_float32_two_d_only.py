"""Blind round 50 (b50_04, issue 38): layer_norm ported from cornell-zhang/allo's HLS kernel
`layer_norm[Ty, L, D]` (loops "sum", "mean_var", "norm"; float32 accumulators `mean`, `mean2`,
`var`, output `Z` float32; the hard-coded 0.00001 replaced by `eps`).

Mistakes:
1. One-pass variance `E[x²] - E[x]²` accumulated in float32. Far from 0 it cancels: rows near
   1e4 give a variance that is garbage or negative (nan from sqrt of a negative); near 300 or
   d = 1 it misses the tolerance too. Ordinary inputs (|x| ~ 1) agree within 1e-5 but the result
   is float32.
2. `L, D = x.shape`: only 2-D input; batched (B, T, d) and 1-D (d,) raise ValueError ("too many
   / not enough values to unpack") where the API returns the normalised array.

Grader: at blind time (593126bb), (1) checklist only, on "small examples" case 4 (float32 tokens
at 100 +- 0.5, off by 0.0126): "Each token (row) is normalised over the last axis by its own mean
and variance: ..."; the exercise's one-pass variance misconception computes with numpy's
pairwise float32 mean, 0.0153 away from the file's in-order float32 sums. (2) named on the hidden
"random tokens, widths and eps": "In `layer_norm`, the shape of `x` is read as two sizes, `T, d =
x.shape`: code written for one (T, d) sequence, ...".
Now named: (1) on "small examples", the one-pass variance's sums added in order
(row_sums.ACCUMULATED): "In `layer_norm`, the variance is collected in the same pass as the mean,
`mean(x**2) - mean(x)**2`, as running sums added one number at a time, in order (a loop's `s +=
x[i, j]`, in float32 where the numbers or the sums are), where the lecture's `np.var(x, axis=-1,
keepdims=True)` takes it about the mean, ..."; (2) still named on the hidden check, as above, and
since blind round 51's merges also on "small examples", as the pair "2 mistakes at once: (1) In
`layer_norm`, an `x` that is not a 2-D (T, d) matrix ... is refused ... (2) In `layer_norm`, the
variance is collected in the same pass as the mean ...".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:guarded:layer_norm:two-axes-only'
                        '+op:one_pass:layer_norm:var.one-pass-in-order'}


def layer_norm(x, gamma, beta, eps=1e-6):
    L, D = x.shape
    Z = np.zeros((L, D), dtype=np.float32)
    mean = np.zeros(L, dtype=np.float32)
    mean2 = np.zeros(L, dtype=np.float32)
    var = np.zeros(L, dtype=np.float32)

    for i in range(L):                      # "sum"
        for j in range(D):
            mean[i] += x[i, j]
            mean2[i] += x[i, j] * x[i, j]

    for i in range(L):                      # "mean_var"
        mean[i] = mean[i] / float(D)
        mean2[i] = mean2[i] / float(D)
        var[i] = mean2[i] - mean[i] * mean[i]

    for i in range(L):                      # "norm"
        for j in range(D):
            Z[i, j] = gamma[j] * (x[i, j] - mean[i]) / np.sqrt(var[i] + eps) + beta[j]

    return Z
