"""Blind round 70 (b70_10, issue 38): conv_equivalent and layer_norm ported from
danielemoro/pylife `np_test.py` (as_strided sub-matrix views and einsum).

Mistakes:
1. conv_equivalent (line 79 of the file as delivered): returns `(P, 1)`, stride 1 (the source's
   conv has no stride). Wrong for every P.
2. layer_norm (line 96): `(x - mean) / (std + eps)`, eps outside the square root. About 1e-6
   relative on unit-variance rows; clearly wrong on tiny-variance rows or with eps=0.5.

Grader: at blind time (3f040026) and now, 105/110. Mistake 1 named on kernel-stride ("Stride 1
slides the kernel one pixel at a time ... stride P"); mistake 2 named on layer-norm ("eps goes
inside the square root: (x - mean) / sqrt(var + eps), not / (std + eps)"). Every mistake named,
so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_equivalent_stride_one',
          'layer-norm': 'layer_norm_eps_outside'}


def conv_equivalent(P):
    # kernel of P x P sliding over the image
    return (P, 1)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return gamma * (x - mean) / (std + eps) + beta
