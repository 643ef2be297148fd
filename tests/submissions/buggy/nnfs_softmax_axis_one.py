"""Blind round 31 (b31_09, issue 38): Sentdex/nnfs_book, Neural Networks from Scratch in Python
(Activation_Softmax.forward; Layer_Dense.forward as linear_patch_embed, right: CORRECT).

Mistakes:
1. softmax: the source's max and sum are over `axis=1`, hard-coded; `axis` is never read. Right
   for 2-D input with the default axis; a 1-D input raises AxisError; a (heads, T, T) input is
   normalised over the queries, so self_attention, encoder_block and vit_forward follow.

Grader: at blind time (fbf6cc7) and now, named: "One slip, made at 2 places: (1) In `softmax`,
your values are the lecture's with `np.max(x, keepdims=True, axis=1)` in place of `np.max(x,
axis=axis, keepdims=True)` ... (2) ... `np.sum(e, keepdims=True, axis=1)`" on stable-softmax
(its near-1000 check names the max alone; its property check observes that softmax raised).
The attention exercises keep their points (the grader's softmax standing in); vit-checkpoint
observes the broken softmax. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=1+op:axis:softmax:sum.axis=1'}
CORRECT = ('linear_patch_embed',)  # nnfs' Layer_Dense, right


def linear_patch_embed(image, W_e, b_e, P):
    """Layer_Dense.forward on the flattened patches."""
    inputs = patchify(image, P)
    output = np.dot(inputs, W_e) + b_e
    return output


def softmax(x, axis=-1):
    """Activation_Softmax.forward."""
    # Get unnormalized probabilities
    exp_values = np.exp(x - np.max(x, axis=1, keepdims=True))
    # Normalize them for each sample
    probabilities = exp_values / np.sum(exp_values, axis=1, keepdims=True)
    return probabilities
