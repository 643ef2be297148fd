"""Blind round 65 (b65_13, issue 38): gelu and encoder_block ported from wusatosi/tt-metal
`models/experimental/functional_stable_diffusion3_5/ttnn/ttnn_clip_mlp.py` (ttnn_CLIPMLP: fc1,
ACT2FN[hidden_act] with "quick_gelu", fc2). The student's top-level `QuickGELUActivation` and
`ACT2FN` are nested in gelu, `clip_mlp` in encoder_block: the builder replaces only the
solution's own definitions.

Mistakes:
18. gelu (lines 167 and 177 of the file as delivered, used by clip_mlp in encoder_block): CLIP's
    QuickGELU, `x * sigmoid(1.702 x)`, neither the exact erf GELU nor the accepted tanh form (off
    by up to about 0.02). Wrong on any input through encoder_block and vit_forward.

Grader: at blind time (0cd43d22) and now, 99/110, named. Mistake 18 on encoder-block's two checks
("In `encoder_block` (in the MLP step), the activation is CLIP's quick GELU, x * sigmoid(1.702 x)
where the student API's activation is GELU ..."; encoder_block -> clip_mlp -> gelu, one short
step); vit-checkpoint observes encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation:encoder_block/mlp:act=quick_gelu'}


def gelu(x):
    """GELU used in the MLP: ACT2FN[config.hidden_act] with hidden_act = "quick_gelu"."""
    class QuickGELUActivation:
        def __call__(self, input):
            return input * (1.0 / (1.0 + np.exp(-1.702 * input)))

    ACT2FN = {
        "quick_gelu": QuickGELUActivation(),
    }

    return ACT2FN["quick_gelu"](np.asarray(x, dtype=float))


def encoder_block(x, p, heads):
    """Pre-LN block: x + attn(ln1(x)), then x + mlp(ln2(x))."""
    def clip_mlp(hidden_states, p):
        """ttnn_CLIPMLP.__call__: fc1 -> activation_fn -> fc2."""
        hidden_states = hidden_states @ p["W1"] + p["b1"]
        hidden_states = gelu(hidden_states)
        hidden_states = hidden_states @ p["W2"] + p["b2"]
        return hidden_states

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    return x + clip_mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
