"""Blind round 47 (b47_06, issue 38): vit_forward's head ported from a numpy ViT exercise file
(code-search file id 58017422062: `layer_norm(x, eps=1e-6)` with no gain or bias, and
`classification_head(encoder_output, num_classes, W_head)`: "Extract [CLS], LayerNorm, linear
projection", returning `layer_norm(cls) @ W_head`).

Mistakes:
1. The final LayerNorm has no parameters: `ln_g`, `ln_b` are never used (the student's
   parameterless layer norm, x normalised and nothing more).
2. No classifier bias: `... @ W_head`, `b_head` left out.
The student's `_head_layer_norm` and `classification_head` (top-level in the file) are nested in
vit_forward here: the builder replaces only the solution's own definitions.

Grader: at blind time (a4c32119), vit-forward's visible and hidden checks had only the
`[checklist]` "... the final LayerNorm, and the [CLS] row (row 0) through W_head, b_head ..."
(true, but it never mentions ln_g, ln_b); neither mistake named. Now both, as "2 mistakes at
once": (1) at the lecture's step `layer_norm(x, params['ln_g'], params['ln_b'])` the
normalisation is used without its learned scale and shift (op:affine_not_passed), (2) the bias
`b` left out of the head's `linear` (op:term). vit-checkpoint observes vit_forward. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:affine_not_passed:vit_forward/layer_norm:affine-not-passed'
                          '+op:term:vit_forward/linear:drop-b'}


def vit_forward(image, params):
    def _head_layer_norm(x, eps=1e-6):
        mean = np.mean(x, axis=-1, keepdims=True)
        var = np.var(x, axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(var + eps)

    def classification_head(encoder_output, W_head):
        """Classification head for ViT. Extract [CLS], LayerNorm, linear projection."""
        return _head_layer_norm(encoder_output[0, :]) @ W_head

    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    return classification_head(x, params["W_head"])
