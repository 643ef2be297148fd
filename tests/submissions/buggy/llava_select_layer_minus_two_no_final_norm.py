"""Blind round 24 (b24_11, issue 38): vit_forward ported from LLaVA's `CLIPVisionTower.feature_select`
(select_layer=-2: the hidden state before the last block, no final norm).

Mistakes:
1. vit_forward reads `hidden_states[-2]`, the output before the last block: the last block is
   dropped.
2. vit_forward skips the final LayerNorm.

Grader: at blind time and now, not named: vit-forward gives only its checklist ("check the order:
embed, every block of params["blocks"], the final LayerNorm, and the [CLS] row"; the final norm
skipped alone is named, tests/submissions/buggy/ fixtures, but not with the dropped block);
vit-checkpoint observes the broken vit_forward.
Since session 14 the second-to-last hidden state is named (sequence.penultimate_state: the loop's
last step and the final norm after it left out, one slip): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:penultimate:vit_forward:block-loop-penultimate'}


def vit_forward(image, params, select_layer=-2):
    hidden_states = [embed_image(image, params)]
    for block in params["blocks"]:
        hidden_states.append(encoder_block(hidden_states[-1], block, params["heads"]))
    image_features = hidden_states[select_layer]
    return image_features[0] @ params["W_head"] + params["b_head"]
