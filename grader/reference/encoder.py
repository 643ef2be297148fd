"""The encoder block and the whole single-image ViT (lecture 4.2, section 3 steps 5-6).

Pre-LN blocks as in ViT (Dosovitskiy et al. 2021): LayerNorm, then attention or MLP, then the
residual. The classifier reads the [CLS] row after a final LayerNorm.
"""
from .attention import self_attention
from .layers import gelu, layer_norm, linear
from .patches import embed_image


def mlp(x, p, activation=gelu):  # [..., d] -> [..., d]
    """Position-wise feed-forward: activation(x @ W1 + b1) @ W2 + b2."""
    h = activation(linear(x, p["W1"], p["b1"]))  # [..., mlp_dim]
    return linear(h, p["W2"], p["b2"])  # [..., d]


def encoder_block(x, p, heads, *, eps=1e-6, activation=gelu):  # [..., T, d] -> [..., T, d]
    """Pre-LN block: x + attention(LN1(x)), then x + mlp(LN2(x)); no causal mask.

    `eps` and `activation` are not part of the student API: checkpoints need other values.
    """
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"], eps), p, heads)  # [..., T, d]
    return x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"], eps), p, activation)  # [..., T, d]


def vit_forward(image, params):  # [H, W, C] -> [num_classes]
    """Logits of one image: embed, every block, final LayerNorm, then the [CLS] row's head."""
    x = embed_image(image, params)  # [N+1, d]
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])  # [N+1, d]
    x = layer_norm(x, params["ln_g"], params["ln_b"])  # [N+1, d]
    return linear(x[0], params["W_head"], params["b_head"])  # [num_classes], from [CLS]
