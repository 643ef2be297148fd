"""One encoder block's parameters, as the student API takes them: their names, and random ones.

The names come from `grader.params.param_shapes`, the one list of a block's parameters;
attention reads the subset `ATTENTION_KEYS`.
"""
from __future__ import annotations

import numpy as np

from grader.params import BIAS_STD, GAIN_STD, ViTSizes, param_shapes

BLOCK_KEYS = tuple(param_shapes(ViTSizes(depth=1))["blocks"][0])
ATTENTION_KEYS = ("Wq", "bq", "Wk", "bk", "Wv", "bv", "Wo", "bo")


def random_block_params(rng, d, mlp_dim, keys=BLOCK_KEYS, dtype="float64") -> dict:
    """One block's parameters (only `keys`), drawn as grader.params.init_params draws them."""
    shapes = param_shapes(ViTSizes(dim=d, mlp_dim=mlp_dim, heads=1, depth=1))["blocks"][0]
    out = {}
    for key in keys:
        shape = shapes[key]
        if key.startswith("W"):  # matrices ~ N(0, 1/fan_in)
            value = rng.standard_normal(shape) / np.sqrt(shape[0])
        elif key.endswith("_g"):  # LayerNorm gains around 1
            value = 1.0 + GAIN_STD * rng.standard_normal(shape)
        else:  # biases and LayerNorm shifts, clearly non-zero
            value = BIAS_STD * rng.standard_normal(shape)
        out[key] = value.astype(dtype)
    return out
