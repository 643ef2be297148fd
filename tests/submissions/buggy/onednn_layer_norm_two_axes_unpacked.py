"""Blind round 57 (b57_15, issue 38): uxlfoundation/oneDNN `src/cpu/ref_layer_normalization.cpp`
(execute_forward: `across_axis` N rows of `norm_axis` C channels, mean and variance by loops).

Mistakes:
23. `N, C = src.shape` assumes a 2-D input; the API takes `(..., d)`: batched 3-D and 1-D
    inputs raise ValueError on unpacking; 2-D inputs (all that encoder_block and vit_forward
    pass) are right.

Grader: at blind time (84f876fc) named, but quoting `T, d = x.shape` (the error model's rewrite,
in the model solution's names) where the student wrote `N, C = src.shape`. Now the same mistake
is said with the student's own statement (report/spelled.py: an assignment their function
writes once with other names). In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:two_axes_unpacked:layer_norm:x-shape-as-T-d'}


def layer_norm(x, gamma, beta, eps=1e-6):
    src = np.asarray(x, dtype=float)
    N, C = src.shape                      # across_axis, norm_axis
    dst = np.empty_like(src)
    for n in range(N):
        v_mean = 0.0
        for c in range(C):
            v_mean += src[n, c]
        v_mean /= C
        v_variance = 0.0
        for c in range(C):
            m = src[n, c] - v_mean
            v_variance += m * m
        v_variance /= C
        sqrt_variance = math.sqrt(v_variance + eps)
        for c in range(C):
            sm = gamma[c] / sqrt_variance
            dst[n, c] = sm * (src[n, c] - v_mean) + beta[c]
    return dst
