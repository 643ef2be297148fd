"""Blind round 16 (b16_13, issue 38): encoder_block after nanoGPT's Block, with the vanilla
dropout of the cs231n notes (scale by the keep probability at test time).

Mistakes:
1. encoder_block multiplies the MLP branch by 1 - dropout = 0.9 at inference before adding it.

Grader: at blind time and now, named (the MLP branch added back scaled by 0.9). Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:residual_scaled:encoder_block:mlp-branch-times-0.9'}


def encoder_block(x, p, heads, dropout=0.1):
    """nanoGPT Block in eval mode; vanilla dropout scales by the keep probability at test time."""
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    mlp = gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x + mlp * (1.0 - dropout)
