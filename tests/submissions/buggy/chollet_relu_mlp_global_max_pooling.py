"""Blind round 30 (b30_11, issue 38): ported from fchollet/deep-learning-with-python-notebooks
(chapter11_part03_transformer.ipynb: TransformerEncoder with dense_proj's Dense(activation=
"relu"), GlobalMaxPooling1D before the classifier), the LayerNorms moved first (pre-LN). The
student's helper `dense_proj` is nested in encoder_block already.

Mistakes:
1. encoder_block: dense_proj's ReLU instead of GELU.
2. vit_forward: GlobalMaxPooling1D, the max over the tokens, instead of the [CLS] row.

Grader: at blind time and now, named: "The MLP uses ReLU" (encoder_relu) on encoder-block;
"`x[0]` is read as `x.max(axis=0)`" on vit-forward; vit-checkpoint observes the broken
functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_relu',
          'vit-forward': 'op:pool:vit_forward:x[0]-max-all'}


def encoder_block(x, p, heads):
    """TransformerEncoder.call, with the LayerNorms moved before each branch (pre-LN)."""
    def dense_proj(t):
        # keras.Sequential([layers.Dense(dense_dim, activation="relu"), layers.Dense(embed_dim)])
        t = np.maximum(t @ p["W1"] + p["b1"], 0)
        return t @ p["W2"] + p["b2"]

    attention_output = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    proj_input = x + attention_output
    proj_output = dense_proj(layer_norm(proj_input, p["ln2_g"], p["ln2_b"]))
    return proj_input + proj_output


def vit_forward(image, params):
    """inputs -> embedding -> TransformerEncoder(s) -> GlobalMaxPooling1D -> Dense."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x.max(axis=0)                  # layers.GlobalMaxPooling1D()(x)
    return x @ params["W_head"] + params["b_head"]
