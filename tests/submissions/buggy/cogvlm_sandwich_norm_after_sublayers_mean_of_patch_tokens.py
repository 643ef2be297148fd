"""Blind round 60 (b60_07, issue 38): encoder_block and vit_forward ported from THUDM/CogVLM
`utils/models/eva_clip_model.py` (NewLayerForward.layer_forward's sandwich order,
IdentityMixin.final_forward's `logits[1:]`). The student's top-level `mlp` is nested in
encoder_block and `final_forward` in vit_forward here: the builder replaces only the solution's own
definitions.

Mistakes:
11. encoder_block (lines 127 and 132 of the file as delivered) normalises each sublayer's output,
    `x + LN(attn(x))` and `x + LN(mlp(x))` (NewLayerForward's order), instead of pre-LN
    `x + attn(LN(x))`. Wrong on any input.
12. vit_forward (lines 138-148): `final_forward` returns `logits[1:]`, dropping [CLS], and the head
    takes the mean of the patch tokens instead of the [CLS] row. Wrong on any input.

Grader: at blind time (528b2ec3) and now, 92/110, both named. Mistake 11 on encoder-block's two
checks (at blind time "One slip, made at 2 places: (1) In `encoder_block`, the two steps of
`self_attention(layer_norm(x, ...))` run in the other order ..."; now: "One slip, made at 2 places:
(1) In `encoder_block`, the two steps of the model solution's `self_attention(layer_norm(x,
p['ln1_g'], p['ln1_b'], eps), p, heads)` run in the other order ..."). Mistake 12 on vit-forward's
visible check ("You pooled the mean of the patch tokens. ...") and, as the error model says it, on
its random check ("`x[0]` is read as `x[1:].mean(axis=0)` ..."); vit-checkpoint observes
vit_forward. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:steps:encoder_block:self_attention-and-layer_norm-swapped'
                           '+op:steps:encoder_block:mlp-and-layer_norm.2-swapped',
          'vit-forward': 'vit_mean_pool'}


def encoder_block(x, p, heads):
    def mlp(x, p):
        return gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    attention_input = x
    # Self attention.
    attention_output = layer_norm(self_attention(attention_input, p, heads), p["ln1_g"], p["ln1_b"])
    # Residual connection.
    hidden_states = attention_input + attention_output
    mlp_input = hidden_states
    # MLP.
    mlp_output = layer_norm(mlp(mlp_input, p), p["ln2_g"], p["ln2_b"])
    # Second residual connection.
    output = mlp_input + mlp_output
    return output


def vit_forward(image, params):
    def final_forward(logits):
        return logits[1:]

    x = embed_image(image, params)
    for layer in params["blocks"]:
        x = encoder_block(x, layer, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = final_forward(x)
    return x.mean(axis=0) @ params["W_head"] + params["b_head"]
