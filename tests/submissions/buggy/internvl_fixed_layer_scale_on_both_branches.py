"""Blind round 31 (b31_12, issue 38): OpenGVLab/InternVL, modeling_intern_vit.py
(InternVisionEmbeddings.forward as embed_image, right: CORRECT; InternVisionEncoderLayer with
InternMLP, nested in encoder_block).

Mistakes:
1. encoder_block: InternViT's layer scales are hard-coded at their initial value, `ls1 = ls2 =
   initializer_factor * ones = 0.1`: each residual branch is multiplied by 0.1,
   x + 0.1 * attn(LN1(x)), then x + 0.1 * mlp(LN2(x)).

Grader: at blind time (fbf6cc7) and now, not named: encoder-block's two checks get only the
spec's generic checklist (pre-LN order, both residuals, the MLP), nothing about a scaled branch;
vit-forward keeps its points (the grader's encoder_block standing in); vit-checkpoint observes
the broken encoder_block.
Since session 17 (terms.residual_scaled with InternViT's 0.1) named as "One slip, made at 2
places": each branch added back scaled by 0.1. In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:residual_scaled:encoder_block:self_attention-branch-times-0.1+op:residual_scaled:encoder_block:mlp-branch-times-0.1'}
CORRECT = ('embed_image',)  # InternVisionEmbeddings, right


def embed_image(image, params):
    """InternVisionEmbeddings.forward for one image."""
    patch_embeds = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    class_embeds = params["cls"][None, :]
    embeddings = np.concatenate([class_embeds, patch_embeds], axis=0)
    position_embedding = params["pos"]
    embeddings = embeddings + position_embedding
    return embeddings


def encoder_block(x, p, heads):
    """InternVisionEncoderLayer.forward (drop_path is the identity at inference)."""
    initializer_factor = 0.1
    embed_dim = x.shape[-1]
    ls1 = initializer_factor * np.ones(embed_dim)
    ls2 = initializer_factor * np.ones(embed_dim)

    def mlp(hidden_states):                    # InternMLP: fc1 -> act -> fc2
        hidden_states = hidden_states @ p["W1"] + p["b1"]
        hidden_states = gelu(hidden_states)
        hidden_states = hidden_states @ p["W2"] + p["b2"]
        return hidden_states

    hidden_states = x
    hidden_states = hidden_states + self_attention(layer_norm(hidden_states, p["ln1_g"], p["ln1_b"]), p, heads) * ls1
    hidden_states = hidden_states + mlp(layer_norm(hidden_states, p["ln2_g"], p["ln2_b"])) * ls2
    return hidden_states
