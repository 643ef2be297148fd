"""Blind round 37 (b37_08, issue 38): Hugging Face transformers models/vit/modeling_flax_vit.py
(FlaxViTLayer, FlaxViTIntermediate, FlaxViTOutput), as copied in Ace1928/eidosian_forge and
modeling_flax_dpt. The student's helpers are nested in encoder_block.

Mistakes:
1. `encoder_block`: the MLP residual is added to the normed stream: `vit_output(hidden_states,
   layer_output)` where HF passes `attention_output`: LN2(x1) + MLP(LN2(x1)) instead of
   x1 + MLP(LN2(x1)).

Grader: at blind time (273cad6) and now, named on encoder-block: "the residual of `x +
mlp(layer_norm(x, p['ln2_g'], p['ln2_b'], eps), p, activation)` adds back `layer_norm(...)`, the
step's output, instead of `x` itself". vit-checkpoint observes it. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:residual:encoder_block:residual-from-layer_norm.2'}


def encoder_block(x, p, heads):
    def vit_intermediate(hidden_states):
        hidden_states = hidden_states @ p["W1"] + p["b1"]
        hidden_states = gelu(hidden_states)
        return hidden_states

    def vit_output(hidden_states, attention_output):
        hidden_states = hidden_states @ p["W2"] + p["b2"]
        hidden_states = hidden_states + attention_output
        return hidden_states

    hidden_states = x
    attention_output = self_attention(layer_norm(hidden_states, p["ln1_g"], p["ln1_b"]), p, heads)  # layernorm_before

    # first residual connection
    attention_output = attention_output + hidden_states

    # in ViT, layernorm is also applied after self-attention
    layer_output = layer_norm(attention_output, p["ln2_g"], p["ln2_b"])

    hidden_states = vit_intermediate(layer_output)
    hidden_states = vit_output(hidden_states, layer_output)
    return hidden_states
