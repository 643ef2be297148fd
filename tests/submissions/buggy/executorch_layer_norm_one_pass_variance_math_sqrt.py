"""Blind round 57 (b57_12, issue 38): pytorch/executorch
`kernels/portable/cpu/op_native_layer_norm.cpp` (the portable kernel's one pass: `sum`,
`sq_sum`, `variance = sq_sum / dim - mean * mean`, `std = std::sqrt(variance + eps)`).

Mistakes:
18. `layer_norm` takes the variance in one pass, `E[x^2] - E[x]^2`, which cancels far from
    zero (offset 1e5: error ~2e-6, 1e6: 4e-4, 1e7: 0.04, 1e8: O(1)); a negative variance makes
    `math.sqrt` raise ValueError (no NaN); inputs near zero are right.

Grader: at blind time (84f876fc) named by the shift property, with "(and below zero its square
root is NaN)": false of `math.sqrt`, which raises there. Now named without it: a NaN is said only
where a value the student returned holds one (property_named.below_zero). In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_one_pass_variance'}


def layer_norm(x, gamma, beta, eps=1e-6):
    input_ = np.asarray(x, dtype=float)
    dim = input_.shape[-1]
    leading = input_.reshape(-1, dim)
    output = np.empty_like(leading)
    for i in range(leading.shape[0]):
        xi = leading[i]
        s = xi.sum()
        sq_sum = (xi * xi).sum()
        mean_value = s / dim
        variance = sq_sum / dim - mean_value * mean_value
        std = math.sqrt(variance + eps)
        output[i] = (xi - mean_value) / std * gamma + beta
    return output.reshape(input_.shape)
