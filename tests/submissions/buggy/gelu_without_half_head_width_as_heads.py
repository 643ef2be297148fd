"""Blind round 12 (b12_06, issue 38): Source style ported: a numpy "GELU from scratch" blog post for the MLP
activation and Hugging Face ViTConfig/ViTSelfAttention bookkeeping
(attention_head_size = hidden_size // num_attention_heads) in the forward pass.

Mistake 1 (encoder_block, the MLP's GELU): gelu is written x * (1 + erf(x / sqrt(2))), without
the factor 1/2. Right: 0.5 * x * (1 + erf(x / sqrt 2)). Shows in every block (the MLP branch is
twice the right one).
Mistake 2 (vit_forward): the student computes a head size from params["heads"] and passes
`d // params["heads"]` as the number of heads to the blocks (confusing the head count with
HF's attention_head_size). Right: pass params["heads"] itself. Shows whenever
heads != d // heads (e.g. d=8 with 2 heads runs 4 heads; heads=1 runs d heads of width 1).

Grader: the missing 0.5 is named (generated: "the activation is GELU's tanh approximation with `0.5`
left out of `0.5 * x`"; the code uses the erf GELU, a false detail); the head count d // heads
in vit_forward gets only the vit-forward checklist.
Since session 17 the head count is named (forward.heads_confused: HF's attention_head_size
passed as the number of heads), and the activation's sentence says "GELU's tanh approximation
or the exact GELU" (the cases cannot tell which): every mistake named, so in buggy/;
vit-checkpoint observes the broken encoder_block and vit_forward (not in EXPECT).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation_slip:encoder_block/mlp:act=gelu_tanh.drop-0.5',
          'vit-forward': 'op:heads_confused:vit_forward:heads-as-head-width'}


def encoder_block(x, p, heads):
    from math import erf, sqrt
    erf_v = np.vectorize(erf, otypes=[float])

    def gelu_(v):
        return v * (1.0 + erf_v(v / sqrt(2.0)))

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu_(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def vit_forward(image, params):
    hidden_states = embed_image(image, params)
    hidden_size = hidden_states.shape[-1]
    attention_head_size = hidden_size // params["heads"]
    for layer in params["blocks"]:
        hidden_states = encoder_block(hidden_states, layer, attention_head_size)
    hidden_states = layer_norm(hidden_states, params["ln_g"], params["ln_b"])
    return hidden_states[0] @ params["W_head"] + params["b_head"]
