"""Blind round 40 (b40_03, issue 38): encoder_block ported from htang7415/Code-Lab
modules/ml/llm/transformer/python/transformer.py (transformer_block with `_relu_row` in the FFN;
the student's helper is nested in the function).

Mistakes:
1. encoder_block: the MLP's activation is ReLU, np.maximum(0, .), instead of GELU.

Grader: at blind time (b589706) and now, named: "The MLP uses ReLU; ViT's MLP uses GELU" on the
visible and hidden encoder-block checks; vit-forward is graded with the grader's encoder_block;
vit-checkpoint observes the broken encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_relu'}


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5)."""
    def _relu_row(row):
        return np.maximum(0.0, row)

    attn = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    res1 = x + attn
    ffn_hidden = layer_norm(res1, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]
    ffn_hidden = _relu_row(ffn_hidden)
    ffn = ffn_hidden @ p["W2"] + p["b2"]
    res2 = res1 + ffn
    return res2
