"""Blind round 64 (b64_04, issue 38): layer_norm ported from azret/llm.cs
`dev/layernorm_forward.cu` (layernorm_forward_kernel, one row per "thread").

Mistakes:
6. layer_norm (line 145 of the file as delivered): `eps = 1e-5`, the kernel's local
   `float eps = 1e-5f;`, overwrites the `eps` argument: the default is in effect 1e-5 and a
   caller's eps is ignored. Wrong at 1e-6 tolerance on rows of small variance and with `eps=`.

Grader: at blind time (0cd43d22) and now, 105/110, named. Mistake 6 on layer-norm's eps and
random checks ("In `layer_norm`, `eps` is fixed at 1e-05 (a library's usual default) whatever is
given: use the `eps` the caller passes (its default is 1e-06)."); its small examples observe
"returns the expected values except in 1 of 4 rows (row 3)", the row of smallest variance (true).
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:default:layer_norm:eps-as-1e-05'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis: (..., d), (d,), (d,) -> (..., d).

    Port of layernorm_forward_kernel: inp is viewed as (N, C), one row per idx.
    """
    x = np.asarray(x, dtype=float)
    C = x.shape[-1]
    inp = x.reshape(-1, C)
    N = inp.shape[0]
    out = np.empty_like(inp)
    eps = 1e-5
    for idx in range(N):
        # seek to the input position inp[idx,:]
        xi = inp[idx]
        # calculate the mean
        m = xi.sum() / C
        # calculate the variance (without any bias correction)
        xshift = xi - m
        v = (xshift * xshift).sum() / C
        # calculate the rstd
        s = 1.0 / math.sqrt(v + eps)
        # normalized output, scale and shift it
        out[idx] = (s * xshift) * gamma + beta
    return out.reshape(x.shape)
