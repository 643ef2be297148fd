"""Blind round 8 (b8_01, issue 38): encoder_block and vit_forward after the keras.io "Image
classification with Vision Transformer" example (its `mlp()` helper and a Dense head).

Mistakes:
1. encoder_block: the MLP is the Keras example's `mlp(x, hidden_units)`, which applies
   `Dense(units, activation=gelu)` to every layer, so GELU follows W2 + b2 too:
   `gelu(gelu(h @ W1 + b1) @ W2 + b2)` (IamMohitM/translation_transformer's vit_mlp.py). Shows
   always.
2. vit_forward: the head is `Dense(num_classes, activation="softmax")` (jeonsworld/ViT-pytorch#41),
   so it returns probabilities, not logits. Shows always.

Grader: the second GELU is named (op:activation_added: "`linear(h, p['W2'], p['b2'])` also goes
through the activation"), and the softmax on the logits too (op:output_activation: "the result
`linear(x[0], params['W_head'], params['b_head'])` goes through a softmax over its last axis").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation_added:encoder_block/mlp:activation-after-linear.2',
          'vit-forward': 'op:output_activation:vit_forward:result-through-softmax'}


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5)."""
    def _dense(x, kernel, bias, activation=None):
        """keras.layers.Dense: activation(x @ kernel + bias)."""
        y = x @ kernel + bias
        return activation(y) if activation is not None else y
    def mlp(x, kernels, biases):
        # keras example: for units in hidden_units: x = layers.Dense(units, activation=gelu)(x)
        for kernel, bias in zip(kernels, biases):
            x = _dense(x, kernel, bias, activation=gelu)
        return x
    x1 = layer_norm(x, p["ln1_g"], p["ln1_b"])
    attention_output = self_attention(x1, p, heads)
    x2 = attention_output + x
    x3 = layer_norm(x2, p["ln2_g"], p["ln2_b"])
    x3 = mlp(x3, [p["W1"], p["W2"]], [p["b1"], p["b2"]])
    encoded_patches = x3 + x2
    return encoded_patches


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6)."""
    def _dense(x, kernel, bias, activation=None):
        """keras.layers.Dense: activation(x @ kernel + bias)."""
        y = x @ kernel + bias
        return activation(y) if activation is not None else y
    encoded_patches = embed_image(image, params)
    for block in params["blocks"]:
        encoded_patches = encoder_block(encoded_patches, block, params["heads"])
    representation = layer_norm(encoded_patches, params["ln_g"], params["ln_b"])
    cls_representation = representation[0]
    logits = _dense(cls_representation, params["W_head"], params["b_head"], activation=softmax)
    return logits
