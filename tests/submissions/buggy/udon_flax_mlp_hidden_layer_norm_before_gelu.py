"""Blind round 40 (b40_08, issue 38): encoder_block's MLP ported from the Flax Mlp module of
nikosips/UDON (universal_embedding/mlp.py: for each layer nn.Dense, then, except after the last,
nn.LayerNorm() and nn.gelu). The student's MLP helper is nested in encoder_block.

Mistakes:
1. encoder_block: a parameter-free LayerNorm (gain 1, shift 0, the lecture's eps 1e-6) of the
   MLP's hidden layer, between `h @ W1 + b1` and GELU: gelu(LN(h @ W1 + b1)) @ W2 + b2 where
   gelu(h @ W1 + b1) @ W2 + b2 belongs. Wrong on every input.

Grader: at blind time (b589706), observed only: encoder-block's visible and hidden checks gave
the checklist "... the MLP step by step: gelu(h @ W1 + b1) @ W2 + b2, each bias added before what
follows it" (true), no hint named the extra normalisation. Now named on both: "each row of
`linear(x, p['W1'], p['b1'])` is standardised, (x - mean) / sqrt(var + eps), before it goes
through `activation(...)` (a LayerNorm with no gain or shift between the dense layer and its
activation, as a Flax `Mlp` of `nn.Dense`, `nn.LayerNorm()`, `nn.gelu`)"
(sequence.standardised_before_activation); vit-checkpoint observes the broken encoder_block.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:standardised_before_activation:encoder_block/mlp:'
                           'standardised-before-activation'}


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5)."""

    def Mlp(y, layers):
        num_layers = len(layers)
        for i, (kernel, bias) in enumerate(layers):
            y = y @ kernel + bias                                   # nn.Dense
            # dont use nonlinearity in the last layer
            if i == num_layers - 1:
                break
            y = layer_norm(y, np.ones(y.shape[-1]), np.zeros(y.shape[-1]))  # nn.LayerNorm()
            y = gelu(y)                                             # nn.gelu
        return y

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + Mlp(y, [(p["W1"], p["b1"]), (p["W2"], p["b2"])])
