"""Blind round 32 (b32_05, issue 38): ultralytics/yolov5, models/common.py (TransformerLayer,
"LayerNorm layers removed for better performance": `x = self.ma(q(x), k(x), v(x))[0] + x;
x = self.fc2(self.fc1(x)) + x`), as encoder_block.

Mistakes:
1. encoder_block: no LayerNorm at all: x = attn(x) + x; x = mlp(x) + x (ln1, ln2 unused).
2. encoder_block: the MLP has no activation, fc2(fc1(x)): no GELU between W1 and W2.
Each on its own changes the output.

Grader: at blind time (a78aae9), neither named: both encoder-block checks got only the
checklist. Now both named, as two mistakes: omitted.skip_every leaves out `layer_norm` at both of
the block's places as one edit ("no `layer_norm` ... anywhere in `encoder_block`"), paired
(omitted.paired) with the MLP's activation as identity. vit-forward keeps its points;
vit-checkpoint observes the broken encoder_block.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:skip_every:encoder_block:skip-every-layer_norm'
                           '+op:activation:encoder_block/mlp:act=identity'}


def encoder_block(x, p, heads):
    """TransformerLayer.forward from YOLOv5's common.py, q/k/v/ma as self_attention, fc1/fc2 as W1/W2."""
    x = self_attention(x, p, heads) + x                   # x = self.ma(self.q(x), self.k(x), self.v(x))[0] + x
    x = (x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"] + x   # x = self.fc2(self.fc1(x)) + x
    return x
