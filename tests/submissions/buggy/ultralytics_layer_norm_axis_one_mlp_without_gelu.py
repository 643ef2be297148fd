"""Blind round 58 (b58_01, issue 38): layer_norm and encoder_block ported from
ultralytics/ultralytics `ultralytics/nn/modules/transformer.py` (LayerNorm2d's
`u = x.mean(1, keepdim=True)`, TransformerEncoderLayer.forward_pre, TransformerLayer's
`self.fc2(self.fc1(x)) + x`).

Mistakes:
1. layer_norm (lines 78-79 of the file as delivered) takes the mean and the variance over axis 1,
   as LayerNorm2d does for the channels of a (B, C, H, W) map, instead of the last axis. Right on
   (T, d) input; a batched (B, T, d) input gives wrong values and a 1-D (d,) input raises
   AxisError.
2. encoder_block (line 112) computes the MLP as `(h @ W1 + b1) @ W2 + b2`, with no GELU between
   the two linears (TransformerLayer's `fc2(fc1(x))`). Wrong on every input, and so in
   vit_forward.

Grader: at blind time (ba46f523) and now, 97/110, both named. Mistake 1 on layer-norm's random
check, told as one slip made at 2 places ("(1) In `layer_norm`, your values are the model
solution's with `np.mean(x, keepdims=True, axis=1)` in place of `np.mean(x, axis=-1,
keepdims=True)`: over axis 1 instead of axis -1 ..." and (2) the same of the variance). Mistake 2
on encoder-block's two checks ("In `encoder_block` (...), the activation is no activation where
the student API's activation is GELU (exact, x * Phi(x); its tanh approximation is accepted).");
vit-forward keeps full marks around it (a correct encoder_block standing in); vit-checkpoint
observes encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1',
          'encoder-block': 'op:activation:encoder_block/mlp:act=identity'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm over the last axis of x."""
    u = x.mean(1, keepdims=True)
    s = ((x - u) ** 2).mean(1, keepdims=True)
    x = (x - u) / np.sqrt(s + eps)
    return gamma * x + beta


def encoder_block(x, p, heads):
    """A pre-norm Transformer block (T, d) -> (T, d)."""
    # forward_pre
    src = x
    src2 = layer_norm(src, p["ln1_g"], p["ln1_b"])
    src = src + self_attention(src2, p, heads)
    src2 = layer_norm(src, p["ln2_g"], p["ln2_b"])
    src2 = (src2 @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return src + src2
