"""Blind round 30 (b30_09, issue 38): ported from tensorflow/tensor2tensor (common_layers.py
layer_norm_compute, dense_relu_dense; transformer.py's encoder layer with layer_preprocess "n"
and layer_postprocess "da"). layer_norm is layer_norm_compute and is right (CORRECT). The
student's helpers `layer_preprocess`, `layer_postprocess` and `dense_relu_dense` are nested in
encoder_block already.

Mistakes:
1. encoder_block: the MLP is dense_relu_dense, ReLU instead of GELU.

Grader: at blind time and now, named: "The MLP uses ReLU; ViT's MLP uses GELU" (encoder_relu) on
encoder-block; vit-checkpoint observes the broken encoder_block. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_relu'}
CORRECT = ('layer_norm',)  # right: keeps every point


def layer_norm(x, gamma, beta, eps=1e-6):
    """common_layers.layer_norm_compute(x, epsilon, scale, bias)."""
    epsilon, scale, bias = eps, gamma, beta
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    norm_x = (x - mean) * (1.0 / np.sqrt(variance + epsilon))   # tf.math.rsqrt
    return norm_x * scale + bias


def encoder_block(x, p, heads):
    """One layer of tensor2tensor's transformer_encoder."""
    def layer_preprocess(t, g, b):          # layer_preprocess_sequence = "n"
        return layer_norm(t, g, b)

    def layer_postprocess(t, y):            # layer_postprocess_sequence = "da" (dropout off, add)
        return t + y

    def dense_relu_dense(inputs, W1, b1, W2, b2):
        h = np.maximum(inputs @ W1 + b1, 0.0)
        return h @ W2 + b2

    y = self_attention(layer_preprocess(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = layer_postprocess(x, y)
    y = dense_relu_dense(layer_preprocess(x, p["ln2_g"], p["ln2_b"]), p["W1"], p["b1"], p["W2"], p["b2"])
    x = layer_postprocess(x, y)
    return x
