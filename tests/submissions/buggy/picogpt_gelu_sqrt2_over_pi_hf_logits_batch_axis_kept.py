"""Blind round 14 (b14_02, issue 38): picoGPT's gpt2.py gelu, and HF
ViTForImageClassification.forward (a batch of one) for vit_forward.

Mistakes:
1. gelu (the MLP's activation): the tanh form with np.sqrt(2) / np.pi (0.450) for
   np.sqrt(2 / np.pi) (0.798). encoder_block calls it; encoder_block itself is the solution's,
   listed here only so that its exercises may lose points (no `uses:` line names gelu).
2. vit_forward keeps HF's batch axis (x[None]) and returns logits of shape (1, num_classes);
   the values are right.

Grader: at blind time and now, the gelu constant gets only encoder-block's checklist ("... and
the MLP step by step: gelu(h @ W1 + b1) @ W2 + b2"); the kept axis is observed as such
(one_axis_off: "right values, with an extra axis of length 1 (a batch axis kept from batched
code?)").
Since blind round 14's fixes the constant is named (a square root taken of the numerator
alone, one of the accepted activations' slips).
Since session 14 the kept axis is named (results.row_as_slice: the [CLS] row read with its axis of
length 1 kept, `sequence_output[:, 0, :]` on a batch of one): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation_slip:encoder_block/mlp:act=gelu_tanh.2.0math.pi-numerator-rooted',
          'vit-forward': 'op:row_as_slice:vit_forward:x[0]-as-slice'}


def gelu(x):
    """GELU, tanh form, ported from picoGPT (gpt2.py):
    0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))"""
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1 + np.tanh(np.sqrt(2) / np.pi * (x + 0.044715 * x ** 3)))


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    ### BEGIN SOLUTION
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    ### END SOLUTION


def vit_forward(image, params):
    """Logits of one image, ported from HF ViTForImageClassification.forward:
    sequence_output = self.layernorm(encoder_outputs[0]); logits = self.classifier(sequence_output[:, 0, :])."""
    x = embed_image(image, params)[None]           # (1, T, d): batch of one, like pixel_values
    for block in params["blocks"]:
        x = encoder_block(x[0], block, params["heads"])[None]
    sequence_output = layer_norm(x, params["ln_g"], params["ln_b"])
    logits = sequence_output[:, 0, :] @ params["W_head"] + params["b_head"]
    return logits
