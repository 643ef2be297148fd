"""Blind round 30 (b30_12, issue 38): ported from tensorflow/models
(official/nlp/modeling/layers/transformer_encoder_block.py: TransformerEncoderBlock with
norm_first=True, inner_activation='gelu', and its LayerNormalization(epsilon=norm_epsilon),
norm_epsilon=1e-12). encoder_block is right (CORRECT): it calls layer_norm with its default.

Mistakes:
1. layer_norm: default eps=1e-12 (TransformerEncoderBlock's norm_epsilon) instead of 1e-6. Shows
   on rows of small variance; encoder_block's use of the default stays within its tolerance.

Grader: at blind time and now, named: "In `layer_norm`, eps is 1e-12; the lecture's is 1e-06."
(Now named eps below about 1e-09, as the calls cannot tell 1e-12 from 0, and said with the
student's own `eps=1e-12`.)
on layer-norm. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=below-1e-09'}
CORRECT = ('encoder_block',)  # right: keeps every point


def layer_norm(x, gamma, beta, eps=1e-12):
    """tf.keras.layers.LayerNormalization(axis=-1, epsilon=norm_epsilon), TransformerEncoderBlock's default norm_epsilon."""
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    inv = 1.0 / np.sqrt(variance + eps) * gamma
    return x * inv + (beta - mean * inv)


def encoder_block(x, p, heads):
    """TransformerEncoderBlock.call with norm_first=True, inner_activation='gelu'."""
    input_tensor = x
    source_tensor = input_tensor
    input_tensor = layer_norm(input_tensor, p["ln1_g"], p["ln1_b"])      # _attention_layer_norm
    target_tensor = input_tensor
    attention_output = self_attention(target_tensor, p, heads)
    attention_output = source_tensor + attention_output
    source_attention_output = attention_output
    attention_output = layer_norm(attention_output, p["ln2_g"], p["ln2_b"])   # _output_layer_norm
    inner_output = attention_output @ p["W1"] + p["b1"]                       # _intermediate_dense
    inner_output = gelu(inner_output)                                         # _intermediate_activation_layer
    layer_output = inner_output @ p["W2"] + p["b2"]                           # _output_dense
    return source_attention_output + layer_output
