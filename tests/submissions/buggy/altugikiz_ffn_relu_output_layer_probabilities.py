"""Blind round 45 (b45_10, issue 38): encoder_block's MLP and vit_forward's head ported from
altugikiz/LLMs-Transformers (NumPy): transformer-encoder-layer/engine/ffn.py (FeedForwardNetwork:
Linear, ReLU, Linear) and transformer-output-head/engine/output_layer.py (OutputLayer.forward
returns `probabilities, logits`), the student's helpers nested in the functions that call them.

Mistakes:
1. encoder_block: the MLP uses ReLU (`np.maximum(0, z1)`) instead of GELU. The block is
   otherwise pre-LN and right.
2. vit_forward: returns the softmax probabilities of the head's output instead of the logits.
   The loop, the final LayerNorm and the [CLS] row are right.

Grader: at blind time (fe6e9573) and now, both named: "The MLP uses ReLU; ViT's MLP uses GELU"
(encoder_relu) on encoder-block, "the result ... goes through a softmax over its last axis"
on vit-forward (graded with the grader's encoder_block); vit-checkpoint observes both. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_relu',
          'vit-forward': 'op:output_activation:vit_forward:result-through-softmax'}


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d)."""

    def feed_forward(x, W1, b1, W2, b2):
        # Linear 1 + ReLU
        z1 = np.dot(x, W1) + b1
        a1 = np.maximum(0, z1)  # ReLU
        # Linear 2
        return np.dot(a1, W2) + b2

    attn_output = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + attn_output  # Residual connection
    ffn_output = feed_forward(layer_norm(x, p["ln2_g"], p["ln2_b"]),
                              p["W1"], p["b1"], p["W2"], p["b2"])
    x = x + ffn_output  # Residual connection
    return x


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6)."""

    def output_layer(x, W, b):
        # 1. Linear
        logits = np.dot(x, W) + b
        # 2. Softmax
        probabilities = softmax(logits)
        return probabilities, logits

    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    probabilities, logits = output_layer(x[0], params["W_head"], params["b_head"])
    return probabilities
