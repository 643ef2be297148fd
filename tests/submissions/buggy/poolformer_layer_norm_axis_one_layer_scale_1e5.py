"""Blind round 22 (b22_08, issue 38): layer_norm and encoder_block ported from sail-sg/poolformer
(LayerNormChannel's statistics over axis 1, PoolFormerBlock's layer scale).

Mistakes:
1. layer_norm takes the mean and variance over axis 1 (LayerNormChannel, for (B, C, H, W)):
   right for a (T, d) input only; batched 3-D input wrong, a 1-D token an error.
2. encoder_block multiplies both residual branches by a layer scale of 1e-5
   (layer_scale_init_value * ones(dim)): the attention and the MLP are added scaled to almost
   nothing.

Grader: at blind time and now (the same commit), both named: the mean and variance over axis 1
instead of -1 (one slip at 2 places), and both branches left out "or added scaled to almost
nothing, as a LayerScale of 1e-5 would" (one slip at 2 places); vit-checkpoint observes the
broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1',
          'encoder-block': "op:term:encoder_block:drop-self_attention(layer_norm(xp['ln1_g']p['+op:term:encoder_block:drop-mlp(layer_norm(xp['ln2_g']p['ln2_b']eps)"}


def layer_norm(x, gamma, beta, eps=1e-6):
    # LayerNormChannel.forward
    u = x.mean(1, keepdims=True)
    s = ((x - u) ** 2).mean(1, keepdims=True)
    x = (x - u) / np.sqrt(s + eps)
    return gamma * x + beta


def encoder_block(x, p, heads, layer_scale_init_value=1e-5):
    dim = x.shape[-1]
    layer_scale_1 = layer_scale_init_value * np.ones(dim)
    layer_scale_2 = layer_scale_init_value * np.ones(dim)
    x = x + layer_scale_1 * self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + layer_scale_2 * (gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"])
    return x
