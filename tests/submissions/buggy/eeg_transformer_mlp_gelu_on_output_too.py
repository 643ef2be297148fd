"""Blind round 42 (b42_09, issue 38): encoder_block ported from a PyTorch hierarchical (EEG)
transformer (code-search file id 2552810987: class MLP with `output = F.gelu(self.fc2(
dr_hidden))`; TransformerEncoderBlock does LN, attention, residual, LN, mlp, residual), dropout
off, the course's self_attention.

Mistakes:
1. The MLP applies GELU to its output too: gelu(gelu(h W1 + b1) W2 + b2) instead of
   gelu(h W1 + b1) W2 + b2.

Grader: at blind time (e77cb46) and now, named ("`linear(h, p['W2'], p['b2'])` also goes through
the activation") on encoder-block's two checks; vit-checkpoint observes encoder_block. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation_added:encoder_block/mlp:activation-after-linear.2'}


def encoder_block(x, p, heads):
    """TransformerEncoderBlock.forward with the course's self_attention (dropout off)."""

    def mlp(h):
        hidden = gelu(h @ p["W1"] + p["b1"])
        output = gelu(hidden @ p["W2"] + p["b2"])
        return output

    # layer normalization 1.
    x1 = layer_norm(x, p["ln1_g"], p["ln1_b"])
    # multi-head attention
    attention_output = self_attention(x1, p, heads)
    x2 = x + attention_output
    x3 = layer_norm(x2, p["ln2_g"], p["ln2_b"])
    x3 = mlp(x3)
    y = x2 + x3
    return y
