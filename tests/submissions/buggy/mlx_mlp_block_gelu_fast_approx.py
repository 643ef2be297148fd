"""Blind round 54 (b54_09, issue 38): encoder_block ported in an MLX MLPBlock style (linear_1 ->
GELU -> linear_2) with ml-explore/mlx `mlx.nn.gelu_fast_approx` (`x * sigmoid(1.702 * x)`,
python/mlx/nn/layers/activations.py; doc page in roboalchemist/llm-code-docs). The student's
`gelu_fast_approx` (top-level in the file) is nested in encoder_block here: the builder replaces
only the solution's own definitions.

Mistakes:
1. The MLP uses the sigmoid approximation x * sigmoid(1.702 x) instead of the exact (erf) GELU or
   the accepted tanh form; it is off by up to 0.020 on [-4, 4]. Every encoder_block output differs
   (~1e-2), and so does vit_forward.

Grader: at blind time (5f4a3d53) and now, named on encoder-block's two checks ("In
`encoder_block` (at the lecture's step `mlp(layer_norm(x, p['ln2_g'], p['ln2_b'], eps), p,
activation)`), the activation is CLIP's quick GELU, x * sigmoid(1.702 x) where the lecture uses
GELU (exact, x * Phi(x); its tanh approximation is accepted)."); vit-checkpoint observes
encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation:encoder_block/mlp:act=quick_gelu'}


def encoder_block(x, p, heads):
    """Transformer encoder block (T, d) -> (T, d): pre-norm attention and MLP, each with a residual.

    MLPBlock: linear_1 -> GELU -> linear_2.
    """
    def gelu_fast_approx(x):
        """A fast approximation to Gaussian Error Linear Unit: x * sigmoid(1.702 * x)."""
        return x * (1.0 / (1.0 + np.exp(-1.702 * x)))

    y = layer_norm(x, p["ln1_g"], p["ln1_b"])
    y = self_attention(y, p, heads)
    x = x + y
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    y = y @ p["W1"] + p["b1"]
    y = gelu_fast_approx(y)
    y = y @ p["W2"] + p["b2"]
    return x + y
