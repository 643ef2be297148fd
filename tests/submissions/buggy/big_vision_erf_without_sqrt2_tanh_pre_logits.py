"""Blind round 8 (b8_12, issue 38): encoder_block and vit_forward after google-research's
big_vision ViT (Encoder1DBlock, pre_logits), with a hand-written exact GELU.

Mistakes:
1. encoder_block: the GELU is `0.5 * x * (1 + erf(x))`, without the `/ sqrt(2)` inside erf (the
   CDF of N(0, 1/2)). Shows always.
2. vit_forward: big_vision's `pre_logits` tanh is kept without its Dense, so the head reads
   `tanh(x[0])` (Project-MONAI/MONAI#4581: a classification ViT ending in nn.Tanh). Shows always.

Grader: the tanh is named (op:activation_inserted: "`x[0]` goes through tanh (HF's ViTPooler ends
in one)"), and the erf too (op:activation_slip: "the exact GELU with `math.sqrt(2.0)` left out of
`-x / math.sqrt(2.0)`").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation_slip:encoder_block/mlp:act=gelu.drop-math.sqrt(2.0)',
          'vit-forward': 'op:activation_inserted:vit_forward:tanh-before-linear'}


def encoder_block(x, p, heads):
    """Encoder1DBlock: pre-LN attention and MLP, each with a residual."""
    def _gelu_exact(x):
        erf = np.vectorize(math.erf, otypes=[float])
        return 0.5 * x * (1.0 + erf(x))
    y = layer_norm(x, p["ln1_g"], p["ln1_b"])
    y = self_attention(y, p, heads)
    x = x + y
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    y = _gelu_exact(y @ p["W1"] + p["b1"])
    y = y @ p["W2"] + p["b2"]
    return x + y


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6)."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    encoded = layer_norm(x, params["ln_g"], params["ln_b"])
    x = encoded[0]                      # classifier == "token"
    x = np.tanh(x)                      # pre_logits
    return x @ params["W_head"] + params["b_head"]
