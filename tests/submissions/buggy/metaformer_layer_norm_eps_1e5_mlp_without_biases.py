"""Blind round 30 (b30_01, issue 38): ported from sail-sg/metaformer (metaformer_baselines.py:
LayerNormGeneral, Mlp with bias=False, MetaFormerBlock with an attention token mixer). The
student's helpers `Mlp` and `token_mixer` are nested in encoder_block already.

Mistakes:
1. layer_norm: LayerNormGeneral's default eps=1e-5 kept in the signature instead of 1e-6. Shows
   on rows of small variance.
2. encoder_block: MetaFormer's Mlp has bias=False, so the MLP drops b1 and b2. Wrong whenever the
   biases are not zero.

Grader: at blind time and now, named: "In `layer_norm`, eps is 1e-05; the lecture's is 1e-06." on
layer-norm; "(in each of the 2 calls of `linear` in `mlp`), the bias `b` is left out of
`x @ W + b`" on encoder-block; vit-checkpoint observes the broken functions. Every mistake named,
so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05',
          'encoder-block': 'op:term:encoder_block/mlp/linear*:drop-b'}


def layer_norm(x, gamma, beta, eps=1e-05):
    """LayerNormGeneral(affine_shape=C, normalized_dim=(-1,), scale=True, bias=True)."""
    normalized_dim = (-1,)
    c = x - x.mean(normalized_dim, keepdims=True)
    s = (c ** 2).mean(normalized_dim, keepdims=True)
    x = c / np.sqrt(s + eps)
    x = x * gamma      # use_scale
    x = x + beta       # use_bias
    return x


def encoder_block(x, p, heads):
    """MetaFormerBlock with an attention token mixer and MetaFormer's Mlp."""
    def Mlp(x, fc1, fc2):
        # Mlp(dim, mlp_ratio=4, act_layer=GELU, drop=0., bias=False)
        x = x @ fc1
        x = gelu(x)
        x = x @ fc2
        return x

    def token_mixer(x):
        return self_attention(x, p, heads)

    # x = res_scale1(x) + layer_scale1(drop_path1(token_mixer(norm1(x))))  (scales are identity)
    x = x + token_mixer(layer_norm(x, p["ln1_g"], p["ln1_b"]))
    # x = res_scale2(x) + layer_scale2(drop_path2(mlp(norm2(x))))
    x = x + Mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p["W1"], p["W2"])
    return x
