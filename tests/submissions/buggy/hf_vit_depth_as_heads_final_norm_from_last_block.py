"""Blind round 11 (b11_13, issue 38): vit_forward ported from HF ViTForImageClassification.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/models/vit/modeling_vit.py
(ViTModel.forward: embeddings -> encoder (for i, layer_module in enumerate(self.layer)) ->
self.layernorm -> classifier(sequence_output[:, 0, :])); ViTConfig has both
num_hidden_layers and num_attention_heads.
Mistakes:
 1. the number of layers len(params["blocks"]) is passed as the head count: shows whenever
    the depth differs from params["heads"] (ValueError when it does not divide d).
 2. the final LayerNorm uses the leftover loop variable's ln2_g/ln2_b (the last block's MLP
    norm) instead of params["ln_g"], params["ln_b"] (every ViT with >= 1 block).

Grader: vit-forward's checklist only, for both mistakes.
Since session 17 both are named as one pair (forward.heads_confused: the loop's length, the
depth, passed as the head count; forward.leftover_parameters: the final norm reads the leftover
loop variable's ln2_g/ln2_b): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': ('op:heads_confused:vit_forward:heads-as-depth'
                          '+op:leftover_parameters:vit_forward:ln_g-ln_b-as-last-block-ln2_g-ln2_b')}


def vit_forward(image, params):
    """ViTForImageClassification: embeddings, encoder layers, layernorm, classifier on [CLS]."""
    hidden_states = embed_image(image, params)
    num_hidden_layers = len(params["blocks"])
    for i in range(num_hidden_layers):
        layer = params["blocks"][i]
        hidden_states = encoder_block(hidden_states, layer, num_hidden_layers)
    sequence_output = layer_norm(hidden_states, layer["ln2_g"], layer["ln2_b"])
    return sequence_output[0] @ params["W_head"] + params["b_head"]
