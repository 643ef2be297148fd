"""Blind round 26 (b26_03, issue 38): layer_norm and vit_forward ported from OpenGVLab's InternVL
(modeling_intern_vit.py, InternViT-6B: `InternRMSNorm.forward`, `variance =
hidden_states.pow(2).mean(-1, keepdim=True)`, `hidden_states * torch.rsqrt(variance + eps)`;
`InternVisionModel.forward`, `pooled_output = last_hidden_state[:, 0, :]` with no post-layernorm
on the vision tower).

Mistakes:
1. layer_norm is RMSNorm: no mean taken away, x divided by sqrt(mean(x ** 2) + eps) (beta kept as
   an added term).
2. vit_forward skips the final LayerNorm: the [CLS] row of the last block goes straight to the
   head.

Grader: at blind time and now, both named: the statistics taken about zero, as RMSNorm takes them,
on layer-norm (its shift property gives its checklist, mean_not_subtracted); the final LayerNorm
skipped on vit-forward; vit-checkpoint observes the broken functions. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:norm:layer_norm:rms-norm',
          'vit-forward': 'vit_final_ln_skipped'}
ALIASES = ('mean_not_subtracted',)  # the shift property's verdict on the same mistake


def layer_norm(x, gamma, beta, eps=1e-6):
    # InternRMSNorm.forward
    hidden_states = np.asarray(x)
    variance = np.mean(hidden_states ** 2, axis=-1, keepdims=True)
    hidden_states = hidden_states / np.sqrt(variance + eps)
    return gamma * hidden_states + beta


def vit_forward(image, params):
    # InternVisionModel.forward: embeddings -> encoder -> last_hidden_state[:, 0, :]
    hidden_states = embed_image(image, params)
    for encoder_layer in params["blocks"]:
        hidden_states = encoder_block(hidden_states, encoder_layer, params["heads"])
    last_hidden_state = hidden_states
    pooled_output = last_hidden_state[0, :]
    return pooled_output @ params["W_head"] + params["b_head"]
