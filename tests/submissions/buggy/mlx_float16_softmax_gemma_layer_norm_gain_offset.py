"""Blind round 16 (b16_01, issue 38): softmax and layer_norm ported from the MLX examples
(mlx-examples transformer_lm: half precision for speed; Gemma-style norm weights stored as an
offset from one).

Mistakes:
1. softmax casts its input to float16 before subtracting the max and exponentiating, and returns
   float16: off by about 1e-3, and inputs near 1000 lose their differences (float16 spacing 0.5).
2. layer_norm scales the normalised value by (1 + gamma) instead of gamma.

Grader: at blind time the float16 softmax got only the softmax checklists and the (1 + gamma) was
observed ("the expected values times 2, everywhere: one scale factor is off"); now the gain used as
an offset from one is named (Gemma's norm), the float16 softmax still gets only checklists.
Since the eleventh session the float16 softmax is named too (the input cast to a narrower float).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:computed_in:softmax:x-as-float16', 'layer-norm': 'op:gain_from_one:layer_norm:1-plus-gamma'}


def softmax(x, axis=-1):
    """Port of the MLX examples' softmax, computed in half precision for speed."""
    x = np.asarray(x).astype(np.float16)
    x = x - x.max(axis=axis, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    """Port of the MLX/Gemma norm: weights are stored as an offset from one."""
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * (1.0 + gamma) + beta
