"""Blind round 75 (b75_13, issue 38): encoder_block ported from
krithikag23/AI-Papers-Explained-Rebuilt `papers/01_Attention_Is_All_You_Need/encoder_layer.py`
(`X = self.norm1(X + attn_output)`, `X = self.norm2(X + ffn_output)`).

Mistakes:
1. encoder_block (lines 167-172 of the file as delivered): post-LN: attention and MLP read the
   raw x, the norm follows each residual sum. Wrong on every input.
The delivered file's top-level helper `feed_forward` is nested in encoder_block here.

Grader: at blind time (db1f63a6) and now, 99/110. Named on encoder-block ("That is a
post-LN block (LayerNorm after each residual sum ...). ViT is pre-LN..."). Every mistake named,
so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln'}


def encoder_block(X, p, heads):
    """
    Args:
        X: shape (seq_len, d_model)

    Returns:
        output: shape (seq_len, d_model)
    """
    def feed_forward(X, p):
        return gelu(X @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    # Multi-head self-attention + residual
    attn_output = self_attention(X, p, heads)
    X = layer_norm(X + attn_output, p["ln1_g"], p["ln1_b"])

    # Feed-forward network + residual
    ffn_output = feed_forward(X, p)
    X = layer_norm(X + ffn_output, p["ln2_g"], p["ln2_b"])

    return X
