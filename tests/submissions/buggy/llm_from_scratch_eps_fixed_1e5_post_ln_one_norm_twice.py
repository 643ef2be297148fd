"""Blind round 69 (b69_08, issue 38): layer_norm and encoder_block ported from
jimmybanta/LLM-from-scratch `transformer/layer_norm.py` (and `transformer/block.py`).

Mistakes:
1. layer_norm (line 160 of the file as delivered): `np.sqrt(variance + 1e-5)` hard-coded (a
   source bug), the eps argument ignored. Wrong on small-variance rows or with eps passed.
2. encoder_block (lines 205 and 211): block.py's single `self.layer_norm`, post-LN (residual,
   then norm), with ln1's parameters for both norms; ln2_g/ln2_b never used. Wrong on every
   input.

Grader: at blind time (cb37e6da), 96/110: mistake 1 named on layer-norm ("`eps` is fixed at
1e-05 ... whatever is given: use the `eps` the caller passes"), mistake 2 not told (encoder-block's
checklist only, though a plain post-LN block is named, b69_02). Now both named: mistake 2 as a
pair on encoder-block, every LayerNorm after its residual sum (error_model/post_norm_block.py,
both branches moved as one edit) and the second LayerNorm given `p['ln1_g']`, `p['ln1_b']`
(names.py's `step_parameters`), paired as PARTNERS whatever their distances. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:default:layer_norm:eps-as-1e-05',
          'encoder-block': 'op:step_parameters:encoder_block:ln2_g-as-ln1_g-in-layer_norm'
                           '+op:post_norm_block:encoder_block:every-norm-after-residual'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """
    Forward pass through the layer norm (LayerNorm.forward, jimmybanta/LLM-from-scratch).
    """
    # calculate the mean and variance
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    # normalize the input
    x = (x - mean) / np.sqrt(variance + 1e-5)
    # scale and shift
    if gamma is not None:
        x = gamma * x + beta
    return x


def encoder_block(x, p, heads):
    """TransformerBlock.forward: attention, residual, norm; feedforward, residual, norm."""
    # pass through the attention block
    att_output = self_attention(x, p, heads)
    # add the residual connection
    x = x + att_output
    # normalize the output
    x = layer_norm(x, p["ln1_g"], p["ln1_b"])
    # pass through the feedforward block
    ff_output = gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    # add the residual connection
    x = x + ff_output
    # normalize the output (the block keeps a single self.layer_norm)
    x = layer_norm(x, p["ln1_g"], p["ln1_b"])
    return x
