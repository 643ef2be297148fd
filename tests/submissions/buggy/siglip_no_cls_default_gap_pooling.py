"""Blind round 26 (b26_05, issue 38): num_tokens and vit_forward ported from Hugging Face
transformers' SigLIP (modeling_siglip.py: `SiglipVisionEmbeddings`, `self.num_positions =
self.num_patches`, no [CLS]; the 'gap' pooling of the vision head). (The student's
self_attention, `SiglipAttention` with eager_attention_forward, is correct and grades as the
solution's: left out.)

Mistakes:
1. num_tokens defaults to `cls_token=False`: SigLIP has no [CLS] token.
2. vit_forward averages every token after the final LayerNorm instead of reading the [CLS] row.

Grader: at blind time and now, both named: `cls_token` defaulting to False on token-count; "You
averaged every token" on vit-forward; vit-checkpoint observes the broken vit_forward.
attention-cost, which runs the student's num_tokens with attention_scores, got its checklist at
blind time; now an observation that num_tokens loses points in token-count (since 520e065).
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'op:default_flipped:num_tokens:cls_token-defaults-False',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def num_tokens(H, W, P, cls_token=False):
    # SiglipVisionEmbeddings: self.num_positions = self.num_patches
    num_positions = num_patches(H, W, P)
    if cls_token:
        num_positions += 1
    return num_positions


def vit_forward(image, params):
    hidden_states = embed_image(image, params)
    for encoder_layer in params["blocks"]:
        hidden_states = encoder_block(hidden_states, encoder_layer, params["heads"])
    last_hidden_state = layer_norm(hidden_states, params["ln_g"], params["ln_b"])  # post_layernorm
    pooled_output = last_hidden_state.mean(axis=0)   # no [CLS] token in SigLIP: 'gap' pooling
    return pooled_output @ params["W_head"] + params["b_head"]
