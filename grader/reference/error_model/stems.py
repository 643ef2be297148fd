"""Operators on a linear step's output given an activation the lecture's has not: a port of a
convolutional stem keeps the activation that follows its convolution there (ConvMixer's
`nn.Sequential(nn.Conv2d(3, dim, kernel_size=p, stride=p), nn.GELU(), nn.BatchNorm2d(dim))`,
EfficientNet's and MobileNet's conv-BN-SiLU/ReLU stems, ResNet's conv-bn-relu), or a patch
embedding or projection written as a Keras `Dense(d, activation="gelu")`, or a classifier head
ported from Flax as `nn.Sequential([nn.Dense(num_classes), nn.gelu])` (GabinAgbale/vit_jax's
VisionTransformer). The lecture's linear maps are the map alone; its activation comes later,
inside the MLP. The exact GELU is said as "GELU" where the check's tolerance cannot tell it from
its tanh approximation, which is named only where it can (`_tanh_told`).

Applies only where the checked function returns a linear map's value: a product (`@`,
`np.tensordot`, `np.einsum`, `np.dot`, `np.matmul`), such a product plus a bias, or a call of
the lecture's `linear` step. Each rewrite wraps that value in the activation; a value it does
not fit (no float array) comes back as it is, so the rewrite is the reference there.
An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

import numpy as np

from .activations import ACTIVATIONS
from .change import Change, Context, callee, code, is_result, where, whose
from .evidence import agree
from .tree import PREFIX

PRODUCTS = frozenset({"tensordot", "einsum", "dot", "matmul"})
STEM_ACTIVATIONS = ("gelu", "gelu_tanh", "relu", "silu")  # what conv stems put after the conv
STYLES = {"gelu": "ConvMixer's stem, `Conv2d` then `nn.GELU()`",
          "gelu_tanh": "a stem or Dense layer built with GELU's tanh approximation",
          "relu": "ResNet's and VGG's conv-bn-relu stems",
          "silu": "EfficientNet's and MobileNet's conv-BN-SiLU (swish) stems"}
# a dense map (`@`, `linear`) ported from a layer that keeps its activation: a Keras
# `Dense(n, activation=...)`, a Flax head `nn.Sequential([nn.Dense(num_classes), nn.gelu])`
DENSE = {"gelu": "a layer built with its activation, Keras' `Dense(n, activation='gelu')` or "
                 "Flax's `nn.Sequential([nn.Dense(n), nn.gelu])`",
         "gelu_tanh": "a Dense layer built with GELU's tanh approximation, `approximate=True` "
                      "(the default of Flax's `nn.gelu`)",
         "relu": "a layer built with its activation, Keras' `Dense(n, activation='relu')`",
         "silu": "a layer built with its activation, Keras' `Dense(n, activation='swish')`"}
# the words of the exact GELU here: where the check's tolerance cannot tell it from its tanh
# approximation (`_tanh_told`), this is the one named, and it is either
WORDS = {"gelu": "GELU"}


def _is_product(node: ast.AST) -> bool:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        return True
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in PRODUCTS)


def is_linear_map(node: ast.AST) -> bool:
    """Whether `node` computes a linear map's value: a product, a product plus a term (its
    bias), or a call of the `linear` step."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_product(node.left) or _is_product(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return callee(node) == "linear"
    return _is_product(node)


def _activated(function: Callable) -> Callable:
    def activated(value):
        if not (isinstance(value, np.ndarray) and np.issubdtype(value.dtype, np.floating)):
            return value
        with np.errstate(all="ignore"):
            return function(value)
    return activated


BOUND = {name: _activated(ACTIVATIONS[name][1]) for name in STEM_ACTIVATIONS}


def _tanh_told(rewritten, calls, same) -> bool:
    """Whether the calls tell GELU's tanh approximation from the exact GELU: the exact one,
    applied to the value the reference returns (the linear map's, this operator's place), is
    not the student's value on one of them. Else the exact GELU, said as "GELU", is named."""
    for call in calls:
        if isinstance(call.got, np.ndarray) and isinstance(call.expected, np.ndarray):
            exact = BOUND["gelu"](call.expected)
            if not agree(same, exact, call.got):
                return True
    return False


def stem_activation(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's linear map returned through an activation: `return
    np.tensordot(windows, K, ...) + b` as `return gelu(np.tensordot(windows, K, ...) + b)`;
    `return linear(x[0], W, b)` as `return gelu(linear(x[0], W, b))` (a head)."""
    if not (is_result(context, node) and is_linear_map(node)):
        return
    shown = code(node)
    styles = STYLES if _is_convolution(node) else DENSE
    for name in STEM_ACTIVATIONS:
        words = WORDS.get(name, ACTIVATIONS[name][0])
        bound = f"{PREFIX}stem_{name}"
        yield Change(f"result-through-{name}",
                     f"In {where(context)}, the linear map's output `{shown}` goes through "
                     f"{words} before it is returned, as in {styles[name]}: the model solution's "
                     f"`{context.root}` returns the linear map's values themselves, with no "
                     f"activation after them ({whose(context)} GELU belongs inside the MLP only). "
                     "Return them without it.",
                     lambda n, bound=bound: ast.Call(ast.Name(bound, ast.Load()), [n], []),
                     ((bound, BOUND[name]),), holds=_tanh_told if name == "gelu_tanh" else None)


def _is_convolution(node: ast.AST) -> bool:
    """Whether the linear map is a contraction written with `np.tensordot` or `np.einsum` (the
    convolution's windows against its kernel), not a dense `@` or `linear`."""
    calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Attribute)]
    return any(n.func.attr in ("tensordot", "einsum") for n in calls)


OPERATORS = {"stem_activation": stem_activation}
