"""Blind round 67 (b67_09, issue 38): encoder_block ported from TecXCTO/nn
`src/nn/Attention_&_Transformers/quick_Transformer_Encoder_block.py`.

Mistakes:
14. encoder_block (lines 174-175 of the file as delivered): a post-LN "Add & Norm" block,
    `x = LN1(x + attn(x)); x = LN2(x + ff(x))`. Wrong on any input.
15. encoder_block (line 172): the feed-forward is Linear, ReLU, Linear:
    `np.maximum(h @ W1 + b1, 0)` instead of GELU. Wrong on any input.

Grader: at blind time (d3fd340b) and now, 99/110, both named together on encoder-block's two
checks ("2 mistakes at once: (1) That is a post-LN block ... (2) The MLP uses ReLU; ViT's MLP
uses GELU"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln+encoder_relu'}


def encoder_block(x, p, heads):
    """TransformerBlock.forward: attention, add & norm, feed-forward, add & norm."""
    def ff(h):  # nn.Sequential(Linear, ReLU, Linear)
        return np.maximum(h @ p["W1"] + p["b1"], 0.0) @ p["W2"] + p["b2"]

    x = layer_norm(x + self_attention(x, p, heads), p["ln1_g"], p["ln1_b"])
    x = layer_norm(x + ff(x), p["ln2_g"], p["ln2_b"])
    return x
