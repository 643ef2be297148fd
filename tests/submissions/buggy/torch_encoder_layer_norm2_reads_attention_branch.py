"""Blind round 11 (b11_10, issue 38): encoder_block ported from torch.nn.TransformerEncoderLayer (norm_first=True).

Source: https://github.com/pytorch/pytorch/blob/main/torch/nn/modules/transformer.py
(TransformerEncoderLayer.forward: if norm_first: x = x + self._sa_block(self.norm1(x), ...);
x = x + self._ff_block(self.norm2(x)); _ff_block = linear2(dropout(activation(linear1(x))))).
Mistakes:
 1. the MLP's LayerNorm reads the attention branch output `sa` instead of the updated stream
    x + sa (every input).

Grader: encoder-block's checklist only in the blind round; named since (names.stale's branch read).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:stale:encoder_block:x-branch-read.1'}


def encoder_block(x, p, heads):
    """TransformerEncoderLayer(norm_first=True, activation='gelu') without dropout."""
    def _sa_block(h):
        return self_attention(h, p, heads)

    def _ff_block(h):
        return gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    sa = _sa_block(layer_norm(x, p["ln1_g"], p["ln1_b"]))
    x = x + sa
    x = x + _ff_block(layer_norm(sa, p["ln2_g"], p["ln2_b"]))
    return x
