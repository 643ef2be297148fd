"""Blind round 23 (b23_11, issue 38): encoder_block and vit_forward ported from Hugging Face's
OWL-ViT vision tower (transformers, models/owlvit/modeling_owlvit.py: OwlViTMLP with hidden_act
"quick_gelu", OwlViTVisionTransformer's `pre_layernorm` on the embeddings before the encoder and
`post_layernorm` on the pooled [CLS] after it). The student's top-level helper `quick_gelu` is
nested in encoder_block here: the builder replaces only the solution's own definitions.

Mistakes:
1. encoder_block's MLP keeps OWL-ViT's quick_gelu, x * sigmoid(1.702 x), instead of GELU.
2. vit_forward keeps OWL-ViT's pre_layernorm: the embeddings go through layer_norm(ln_g, ln_b)
   before the first block as well as after the last (there on the [CLS] row only, which is the
   same).

Grader: at blind time and now, both named: the activation is CLIP's quick GELU on
encoder-block, and `x = layer_norm(x, params['ln_g'], params['ln_b'])` also run before the
blocks ("as CLIP's ln_pre does") on vit-forward; vit-checkpoint observes the broken functions.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation:encoder_block/mlp:act=quick_gelu',
          'vit-forward': "op:indentation:vit_forward:layer_norm(xparams['ln_g']params['ln_b']"
                         "-before-loop-too"}


def encoder_block(x, p, heads):
    def quick_gelu(x):
        return x * (1.0 / (1.0 + np.exp(-1.702 * x)))

    residual = x
    hidden_states = layer_norm(x, p["ln1_g"], p["ln1_b"])
    hidden_states = self_attention(hidden_states, p, heads)
    hidden_states = residual + hidden_states
    residual = hidden_states
    hidden_states = layer_norm(hidden_states, p["ln2_g"], p["ln2_b"])
    hidden_states = quick_gelu(hidden_states @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return residual + hidden_states


def vit_forward(image, params):
    hidden_states = embed_image(image, params)
    hidden_states = layer_norm(hidden_states, params["ln_g"], params["ln_b"])   # pre_layernorm
    for layer in params["blocks"]:
        hidden_states = encoder_block(hidden_states, layer, params["heads"])
    pooled_output = hidden_states[0]
    pooled_output = layer_norm(pooled_output, params["ln_g"], params["ln_b"])  # post_layernorm
    return pooled_output @ params["W_head"] + params["b_head"]
