"""Blind round 65 (b65_11, issue 38): linear_patch_embed ported from RECHE23/NumPy-Neural-Network
`neural_network/modules/linear.py` (Linear._forward_propagation: weight (out_features,
in_features), `einsum("ij,kj->ik")`).

Mistakes:
15. linear_patch_embed (line 82 of the file as delivered): W_e (P*P*C, d) forced into the
    framework's (out_features, in_features) layout with `np.reshape` instead of a transpose, then
    `einsum("ij,kj->ik")`: the weights are scrambled whenever d > 1 (d = 1 is right).
    embed_image and vit_forward inherit it.

Grader: at blind time (0cd43d22), 98/110, not named: linear-patch-embed's three failed checks
gave their checklists, true but with no cause. Now named (issue 38, session 32,
error_model/reshaped_weights.py, an operator on every weight a `linear` step multiplies by):
"`W_e` is reshaped to (d, P*P*C) where its transpose belongs: a reshape keeps the elements in
their order; use `W_e.T`". No wrong hint.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed':
          'op:reshaped_weight:linear_patch_embed/linear:W.reshaped-for-T'}


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): Linear._forward_propagation on the flattened patches."""
    input_data = patchify(image, P)
    in_features = input_data.shape[1]
    out_features = np.shape(b_e)[0]

    # weight : np.ndarray, shape (out_features, in_features)
    weight = np.reshape(W_e, (out_features, in_features))
    bias = np.reshape(b_e, (out_features,))

    assert input_data.shape[1] == in_features, "Input size doesn't match"

    output = np.einsum("ij,kj->ik", input_data, weight, optimize=True) + bias
    return output
