"""Blind round 13 (b13_12, issue 38): an HF config habit: encoder_block reads the head count from
the block dict, p.get("heads", 1), ignoring its `heads` argument: attention always has one head.

Grader: named ("runs with heads = 1 whatever `heads` holds: pass `heads` itself",
op:count_as_one:encoder_block:heads-as-1).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:count_as_one:encoder_block:heads-as-1'}


def encoder_block(x, p, heads):
    """Pre-LN block; the attention reads its head count from the layer's config."""
    num_attention_heads = p.get("heads", 1)
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, num_attention_heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
