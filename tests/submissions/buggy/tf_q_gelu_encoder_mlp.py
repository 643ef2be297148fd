"""Blind round 46 (b46_08, issue 38): encoder_block ported from a TensorFlow model using a
QuickGELU helper (code-search file id 5044676157: `def q_gelu(x): return x * tf.sigmoid(1.702 *
x)`), the student's q_gelu nested in encoder_block.

Mistakes:
1. The MLP's activation is QuickGELU, x * sigmoid(1.702 x), neither the exact GELU nor its tanh
   approximation (encoder_block off by 0.02-0.03).

Grader: at blind time (78229091) and now, named on encoder-block: "the activation is CLIP's quick
GELU, x * sigmoid(1.702 x) where the lecture uses GELU". vit-forward is graded with the grader's
encoder_block; vit-checkpoint observes the broken encoder_block. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation:encoder_block/mlp:act=quick_gelu'}


def encoder_block(x, p, heads):
    def q_gelu(x):
        # QuickGELU
        return x * (1.0 / (1.0 + np.exp(-1.702 * x)))

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    h = q_gelu(h @ p["W1"] + p["b1"])
    return x + h @ p["W2"] + p["b2"]
