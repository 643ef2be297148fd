"""An MLP whose every linear map is followed by one activation other than GELU (Keras'
`Dense(units, activation=tanh)` in a loop: `tanh(tanh(h @ W1 + b1) @ W2 + b2)`): named by
error_model/every_map.py where the rewritten reference reproduces every call, never else."""
from __future__ import annotations

import numpy as np

from grader.checks.compare import Compare, agrees
from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.reference.layers import layer_norm

RNG = np.random.default_rng(71)
TIGHT = Compare("allclose", rtol=1e-5, atol=1e-6)
BLOCK = REFERENCE["encoder_block"]
ATTEND = REFERENCE["self_attention"]


def same(value, target) -> bool:
    return agrees(value, target, TIGHT, equal_nan=True)


def block_params(d, hidden, rng=RNG):
    shapes = {"W1": (d, hidden), "b1": (hidden,), "W2": (hidden, d)}
    names = ("Wq", "bq", "Wk", "bk", "Wv", "bv", "Wo", "bo", "W1", "b1", "W2", "b2",
             "ln1_g", "ln1_b", "ln2_g", "ln2_b")
    p = {n: rng.normal(size=shapes.get(n, (d, d) if n.startswith("W") else (d,)))
         for n in names}
    return p | {"ln1_g": 1 + 0.1 * p["ln1_g"], "ln2_g": 1 + 0.1 * p["ln2_g"]}


CASES = [(RNG.normal(size=(5, 8)), block_params(8, 16), 2),
         (RNG.normal(size=(3, 8)), block_params(8, 12), 4),
         (RNG.normal(size=(2, 4, 8)), block_params(8, 16), 1)]


def keras_block(first, last):
    """A pre-LN block whose MLP is `last(first(h @ W1 + b1) @ W2 + b2)`."""
    def encoder_block(x, p, heads):
        x = x + ATTEND(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
        h = layer_norm(x, p["ln2_g"], p["ln2_b"])
        return x + last(first(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"])
    return encoder_block


def calls(student):
    return [em.Call(args, {}, student(*args), BLOCK(*args)) for args in CASES]


def relu(h):
    return np.maximum(h, 0.0)


def test_tanh_after_both_linear_maps_is_named():
    """shakes76/PatternFlow's Keras `mlp()`: every Dense with activation=tanh."""
    found = em.search(BLOCK, calls(keras_block(np.tanh, np.tanh)), 0, same)
    assert found is not None and found.name == \
        "op:activation_every_map:encoder_block/mlp:act=tanh-after-every-map", found
    assert "tanh" in found.sentence and "`linear(h, p['W2'], p['b2'])`" in found.sentence
    assert "after the first `linear` only" in found.sentence


def test_relu_after_both_maps_is_named_and_a_single_swap_is_not_told_so():
    found = em.search(BLOCK, calls(keras_block(relu, relu)), 0, same)
    assert found is not None and found.name.endswith("act=relu-after-every-map"), found
    swapped = em.search(BLOCK, calls(keras_block(relu, lambda h: h)), 0, same)
    assert swapped is not None and "every-map" not in swapped.name, swapped
    assert swapped.name == "op:activation:encoder_block/mlp:act=relu", swapped


def test_tanh_in_place_of_gelu_is_an_activation_swapped():
    found = em.search(BLOCK, calls(keras_block(np.tanh, lambda h: h)), 0, same)
    assert found is not None and found.name == "op:activation:encoder_block/mlp:act=tanh", found
    assert "the activation is tanh" in found.sentence


def test_an_output_activation_alone_is_never_told_as_every_map():
    """GELU kept after the first map and tanh after the second: two different activations,
    which no single rewrite of this operator reproduces."""
    from grader.reference.layers import gelu

    found = em.search(BLOCK, calls(keras_block(gelu, np.tanh)), 0, same)
    assert found is None or "every_map" not in found.name, found
