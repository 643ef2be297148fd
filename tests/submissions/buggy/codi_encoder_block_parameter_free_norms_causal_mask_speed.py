"""Blind round 53 (b53_12, issue 38): encoder_block ported from ever-oli/codi,
problems/vit-encoder-block.py (`vit_encoder_block`, with a `layer_norm(x, eps)` that has no
gamma/beta, and a tanh GELU), its helpers nested; one concept answer changed by hand.

Mistakes:
1. Both LayerNorms are the source's parameter-free `layer_norm`, so ln1_g, ln1_b, ln2_g, ln2_b
   are ignored: wrong whenever they are not ones and zeros (every random block). The tanh GELU
   is accepted. vit_forward inherits it.
2. `ANSWERS["causal_mask"] = "speed"`. The right option is "bidirectional".

Grader: at blind time (0ec6739e) and now, both named: M1 on encoder-block ("One slip, made at 4
places: (1) In `encoder_block` (at the lecture's step `layer_norm(x, p['ln1_g'], p['ln1_b'], eps)`),
the shift beta `beta` is left out of `(x - mean) / np.sqrt(var + eps) * gamma + beta`. (2) ... the
gain gamma `gamma` is left out of `(x - mean) / np.sqrt(var + eps) * gamma`. (3) ... (4) ..." at the
ln2 step), M2 on no-causal-mask ("A mask saves no compute: the T x T scores are computed either way,
then masked. ..."); vit-checkpoint observes encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:term:encoder_block/layer_norm:drop-beta'
                          '+op:term:encoder_block/layer_norm:drop-gamma'
                          '+op:term:encoder_block/layer_norm.2:drop-beta'
                          '+op:term:encoder_block/layer_norm.2:drop-gamma',
          'no-causal-mask': 'causal_mask:speed'}


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    def _layer_norm(x, eps=1e-6):
        mean = np.mean(x, axis=-1, keepdims=True)
        var = np.var(x, axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(var + eps)

    def _gelu(x):
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))

    # First sub-block: Multi-Head Self-Attention
    x_norm1 = _layer_norm(x)
    attn_output = self_attention(x_norm1, p, heads)
    x = x + attn_output

    # Second sub-block: MLP
    x_norm2 = _layer_norm(x)
    h = _gelu(np.matmul(x_norm2, p["W1"]) + p["b1"])
    mlp_output = np.matmul(h, p["W2"]) + p["b2"]
    x = x + mlp_output

    return x


ANSWERS["causal_mask"] = "speed"
