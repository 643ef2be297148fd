"""Blind round 9 (b9_03, issue 38): a submission ported from harvardnlp's "The Annotated
Transformer".

Mistakes:
1. layer_norm: `a_2 * (x - mean) / (std + eps) + b_2`: eps added to the standard deviation
   instead of inside the square root. Shows when the variance is small next to eps (a large
   eps or nearly constant tokens); with eps=1e-6 and unit-variance tokens the relative
   difference is about 5e-7.
   Sources: codertimo/BERT-pytorch issue #30; hkproj/pytorch-transformer PR #31
   "Fix Layernorm Implementation"; hyunwoongko/transformer issue #7.
2. encoder_block: the feed-forward uses ReLU (Annotated Transformer's
   `w_2(dropout(w_1(x).relu()))`) instead of GELU. Shows on every input (negative
   pre-activations).
   Sources: harvardnlp/annotated-transformer PositionwiseFeedForward; ViT paper / timm Mlp
   use GELU; google-research/vision_transformer issue #253 (ViT's block vs the 2017 one).

Grader: both named: layer_norm_eps_outside ("eps goes inside the square root") and encoder_relu
("The MLP uses ReLU").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_eps_outside',
          'encoder-block': 'encoder_relu'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """Construct a layernorm module (See citation for details)."""
    mean = x.mean(-1, keepdims=True)
    std = x.std(-1, keepdims=True)
    return gamma * (x - mean) / (std + eps) + beta


def encoder_block(x, p, heads):
    """Encoder layer: self-attn and feed forward, each wrapped in a SublayerConnection."""
    def sublayer(x, norm_g, norm_b, fn):
        # SublayerConnection: x + dropout(sublayer(norm(x)))
        return x + fn(layer_norm(x, norm_g, norm_b))

    def feed_forward(h):
        # PositionwiseFeedForward: w_2(dropout(w_1(x).relu()))
        return np.maximum(h @ p["W1"] + p["b1"], 0.0) @ p["W2"] + p["b2"]

    x = sublayer(x, p["ln1_g"], p["ln1_b"], lambda h: self_attention(h, p, heads))
    return sublayer(x, p["ln2_g"], p["ln2_b"], feed_forward)
