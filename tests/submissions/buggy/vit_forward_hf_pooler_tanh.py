"""HF ViTModel ported with its pooler's activation: the [CLS] row goes through tanh before the
classifier (ViTPooler is dense + tanh; the student kept the tanh, not the dense)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:activation_inserted:vit_forward:tanh-before-linear'}


def vit_forward(image, params):
    embedding_output = embed_image(image, params)
    hidden_states = embedding_output
    for layer_params in params["blocks"]:
        hidden_states = encoder_block(hidden_states, layer_params, params["heads"])
    sequence_output = layer_norm(hidden_states, params["ln_g"], params["ln_b"])
    pooled_output = np.tanh(sequence_output[0])
    return pooled_output @ params["W_head"] + params["b_head"]
