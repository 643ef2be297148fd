"""Blind round 16 (b16_05, issue 38): vit_forward ported from Hugging Face
ViTForImageClassification (`self.classifier(sequence_output[:, 0, :])`, written as a slice),
ANSWERS filled in by hand.

Mistakes:
1. vit_forward takes the [CLS] row as x[:1], keeping the row axis: logits of shape (1, C) instead
   of (C,).
2. The positions answer is stored under the key "position" (singular), so ANSWERS["positions"]
   stays None. The builder replaces only the solution's own lines, so the student's
   `ANSWERS["position"] = "permutation"` is written below in place of the solution's "positions"
   line, as one that stores "permutation" under "position" and leaves "positions" at None.

Grader: at blind time and now, the slice is observed ("the right values, with an extra axis of
length 1", one_axis_off) and the key is told as an observation with no misconception ("ANSWERS
has the key 'position', which no question reads: write the answer under 'positions'"). The
slicing itself is not named.
Since session 14 the misspelt key is a named mistake (answer_under_misspelt_key), and the slice
is named on vit-forward (results.row_as_slice: `x[0]` read with its axis kept, as `x[:1]` reads
it): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:row_as_slice:vit_forward:x[0]-as-slice',
          'why-positions': 'answer_under_misspelt_key'}


def vit_forward(image, params):
    """HF ViTForImageClassification: encoder, layernorm, classifier on the [CLS] token."""
    hidden = embed_image(image, params)
    for layer in params["blocks"]:
        hidden = encoder_block(hidden, layer, params["heads"])
    sequence_output = layer_norm(hidden, params["ln_g"], params["ln_b"])
    return sequence_output[:1] @ params["W_head"] + params["b_head"]


# the student's line: ANSWERS["position"] = "permutation" (see the docstring)
ANSWERS["positions"] = ANSWERS.update(position="permutation")
