"""Blind round 10 (b10_09, issue 38): encoder_block ported from DINOv2's Block with LayerScale
(facebookresearch/dinov2 layers/layer_scale.py, `gamma = init_values * ones(dim)`, init_values
1e-5) and vit_forward from Hugging Face (config.num_attention_heads).

Mistakes:
1. encoder_block: both branches times a LayerScale fixed at 1e-5 (no trained gamma in p).
2. vit_forward: heads read as params.get("num_attention_heads", 1): always one head. Right for
   one-head ViTs only.

Grader: the LayerScale is named as both branch terms left out (true to within 1e-5); the head
count, vit-forward's checklist in the blind round, is named since sequence.count_as_one.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': "op:term:encoder_block:drop-self_attention(layer_norm(xp['ln1_g']p['+op:term:encoder_block:drop-mlp(layer_norm(xp['ln2_g']p['ln2_b']eps)",
          'vit-forward': 'op:count_as_one:vit_forward:heads-as-1'}


def encoder_block(x, p, heads, init_values=1e-5):
    """DINOv2 Block: x + ls1(attn(norm1(x))), then x + ls2(mlp(norm2(x)))."""
    d = x.shape[-1]
    ls1_gamma = init_values * np.ones(d)
    ls2_gamma = init_values * np.ones(d)

    def attn_residual_func(x):
        return ls1_gamma * self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)

    def ffn_residual_func(x):
        h = layer_norm(x, p["ln2_g"], p["ln2_b"])
        return ls2_gamma * (gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"])

    x = x + attn_residual_func(x)
    x = x + ffn_residual_func(x)
    return x


def vit_forward(image, params):
    """ViTForImageClassification.forward for one image."""
    num_heads = params.get("num_attention_heads", 1)
    hidden_states = embed_image(image, params)
    for layer in params["blocks"]:
        hidden_states = encoder_block(hidden_states, layer, num_heads)
    sequence_output = layer_norm(hidden_states, params["ln_g"], params["ln_b"])
    return sequence_output[0, :] @ params["W_head"] + params["b_head"]
