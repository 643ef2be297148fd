"""Blind round 52 (b52_12, issue 38): vit_forward ported from Hugging Face transformers,
models/vit/modeling_vit.py (ViTModel.forward: `embedding_output = self.embeddings(...)`, the
encoder's layers, `sequence_output = self.layernorm(sequence_output)`; ViTForImageClassification's
`self.classifier(sequence_output[:, 0, :])`), with `layer_norm_eps=1e-12` from ViTConfig.

Mistakes:
1. The final layer_norm is called with `eps=1e-12` instead of the API's default 1e-6. Shows only
   where the final [CLS] row has a tiny variance (no blocks, cls = 3 + 1e-4 * noise, pos[0] = 0:
   the logits differ); on ordinary rows the two are the same to 1e-9.

Grader: at blind time (db53909c), nothing: 110/110 with no failed check ("17 with full marks, 0
lost points"); no vit-forward or vit-checkpoint case has a final [CLS] row of tiny variance.
Now caught: vit-forward's visible check has a freshly initialised ViT ([CLS] of spread 1e-4, then
timm's 1e-6; positions zero; the block's residual branches zero), whose final [CLS] row's
variance is near eps. Now named there (the error model's `constant` at the final layer_norm):
"In `vit_forward` (at the lecture's step `layer_norm(x, params['ln_g'], params['ln_b'])`), eps
is 1e-12; the lecture's is 1e-06." Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:constant:vit_forward/layer_norm:eps=1e-12'}


def vit_forward(image, params):
    """Logits of one image from the [CLS] token."""
    layer_norm_eps = 1e-12
    embedding_output = embed_image(image, params)
    hidden_states = embedding_output
    for layer_module in params["blocks"]:
        hidden_states = encoder_block(hidden_states, layer_module, params["heads"])
    sequence_output = layer_norm(hidden_states, params["ln_g"], params["ln_b"], eps=layer_norm_eps)
    logits = sequence_output[0, :] @ params["W_head"] + params["b_head"]
    return logits
