"""Blind round 33 (b33_13, issue 38): encoder_block ported from google-research/t5x
(t5x/examples/t5/layers.py: the pre-LN EncoderLayer, MlpBlock with DenseGeneral layers and
_convert_to_activation_function), JAX/Flax written with numpy. The student's top-level
`import functools, operator` and the helpers are nested in encoder_block.

Mistakes:
1. MlpBlock's default activations=('relu',): ReLU instead of GELU.
2. T5X's DenseGeneral has no bias: the MLP computes relu(h W1) W2, b1 and b2 ignored.

Grader: at blind time (c4f83ef) and now, named: "2 mistakes at once: (1) ... the activation is
ReLU where the lecture uses GELU ... (2) In `encoder_block` (in each of the 2 calls of `linear`
in `mlp`), the bias `b` is left out of `x @ W + b`." on encoder-block; vit-checkpoint observes
it. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation:encoder_block/mlp:act=relu+op:term:encoder_block/mlp/linear*:drop-b'}


def encoder_block(x, p, heads):
    import functools
    import operator

    def _convert_to_activation_function(fn_or_string):
        """Convert a string to an activation function."""
        if fn_or_string == 'linear':
            return lambda x: x
        elif fn_or_string == 'gelu':
            return gelu
        elif fn_or_string == 'relu':
            return lambda x: np.maximum(x, 0)
        elif callable(fn_or_string):
            return fn_or_string
        else:
            raise ValueError("don't know how to convert %s to an activation function" % (fn_or_string,))

    def mlp_block(inputs, activations_=('relu',)):
        # Iterate over specified MLP input activation functions.
        activations = []
        for idx, act_fn in enumerate(activations_):
            x = inputs @ p["W1"]                                  # DenseGeneral 'wi'
            x = _convert_to_activation_function(act_fn)(x)
            activations.append(x)
        # Take elementwise product of above intermediate activations.
        x = functools.reduce(operator.mul, activations)
        output = x @ p["W2"]                                      # DenseGeneral 'wo'
        return output

    # Attention block.
    x_norm = layer_norm(x, p["ln1_g"], p["ln1_b"])               # pre_attention_layer_norm
    x = x + self_attention(x_norm, p, heads)
    # MLP block.
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])                    # pre_mlp_layer_norm
    y = mlp_block(y)
    return y + x
