"""Blind round 67 (b67_02, issue 38): layer_norm ported from
Nankago/CUDA_learn `layernorm_forward.cu` (layernorm_forward_kernel3).

Mistakes:
3. layer_norm (line 142 of the file as delivered): the kernel's hard-coded `1e-5f` kept,
   `... / C + 1e-5`: the `eps` argument never used. Wrong on any input, slightly at the default
   eps, much with a small variance or a passed eps.
4. layer_norm (lines 134 and 139): the kernel's `inp + idx * C` row walk as
   `for idx in range(x.shape[0]): row = x[idx]`: right for (T, d), a whole (T, d) slab reduced for
   (B, T, d), ValueError for a 1-D input. Wrong on batched or 1-D input only.

Grader: at blind time (d3fd340b), 105/110, mistake 3 only observed ("Your `layer_norm`
returns the expected values times 1.183, everywhere: one scale factor is off"; "... except in 1
of 4 rows (row 3)") and mistake 4 not told (the hidden check's checklist). Now both named
together on layer-norm's hidden check: "2 mistakes at once: (1) In `layer_norm`, `eps` is fixed
at 1e-05 (a library's usual default) whatever is given ... (2) ... the mean and the variance sum
each row `x[i]` as a whole and divide by the width ..." (both rewrite the whole function, one
place, searched as a pair: error_model/pairs.stacked). The visible checks keep their
observations (the eps check alone reproduces eps fixed at 1e-5, but its wider search with the
hidden cases does not reach the pair; the float32 case is the student's float64 arithmetic on a
tolerance's edge). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:default:layer_norm:eps-as-1e-05+op:row_sums:layer_norm:row-sums'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm over the last axis, ported from layernorm_forward_kernel3 (one row = one token)."""
    x = np.asarray(x, dtype=float)
    C = x.shape[-1]
    N = x.shape[0]
    out = np.empty_like(x)
    for idx in range(N):              # blockIdx.x * num_warps + warp_id
        row = x[idx]                  # inp + idx * C
        # mean
        m = row.sum() / C
        # rstd
        diff = row - m
        s = 1.0 / np.sqrt((diff * diff).sum() / C + 1e-5)
        # final normalization and scaling by weight/bias
        out[idx] = s * (row - m) * gamma + beta
    return out
