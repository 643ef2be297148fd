"""Blind round 15 (b15_11, issue 38): LayerNorm after Keras' LayerNormalization (its argument is
called `epsilon`), computing in float32, the default compute dtype of Keras and JAX.

Mistakes:
1. layer_norm's optional argument is named `epsilon`, so a call passing eps by keyword (allowed
   by the API) raises TypeError; positional calls work.
2. layer_norm casts x to float32: float32 rounding, large on tokens with a large common offset
   (the x + 1e7 check).

Grader: at blind time, the keyword is named (signature_differs: "has no parameter `eps` ...
rename yours"); the float32 computation got only the property's checklist. Since session 18
the shift property names it too (layer_norm_float32: LayerNorm with x cast to float32 first
returns this code's values on every call the property made, x + 1e7 included). In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'signature_differs'}
ALIASES = ('layer_norm_float32',)  # the shift property's verdict on the float32 computation


def layer_norm(x, gamma, beta, epsilon=1e-6):
    """keras.layers.LayerNormalization(epsilon=...) in numpy; compute dtype float32 like Keras/JAX."""
    inputs = np.asarray(x, dtype=np.float32)
    mean = inputs.mean(axis=-1, keepdims=True)
    variance = inputs.var(axis=-1, keepdims=True)
    return (inputs - mean) / np.sqrt(variance + epsilon) * gamma + beta
