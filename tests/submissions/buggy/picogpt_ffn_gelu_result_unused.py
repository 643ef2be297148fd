"""Blind round 13 (b13_08, issue 38): picoGPT's ffn in two lines with a variable slip: gelu(a) is
computed but `a @ W2 + b2` is returned, so the MLP is linear.

Grader: named on both encoder-block checks ("the activation is no activation where the lecture
uses GELU", op:activation:encoder_block/mlp:act=identity).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation:encoder_block/mlp:act=identity'}


def encoder_block(x, p, heads):
    def ffn(h, W1, b1, W2, b2):
        a = h @ W1 + b1          # project up
        g = gelu(a)              # activation
        return a @ W2 + b2       # project back down

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + ffn(layer_norm(x, p["ln2_g"], p["ln2_b"]), p["W1"], p["b1"], p["W2"], p["b2"])
    return x
