"""Generated cases: named functions that draw one argument list from a seeded rng.

A spec says `generate: {generator: tiling_sizes, count: 20, seed: 4, options: {...}}`;
the engine seeds one `np.random.default_rng(seed)` and calls the generator `count`
times, so hidden cases are random yet the same on every run. Register a new one with
`@generator("name")`; its keyword options come from the spec.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from grader.params import ViTSizes, init_params

from .block_params import ATTENTION_KEYS, BLOCK_KEYS, random_block_params

GeneratedCase = tuple[tuple, dict]           # (args, kwargs)
GENERATORS: dict[str, Callable[..., GeneratedCase]] = {}


def generator(name: str):
    def register(fn):
        GENERATORS[name] = fn
        return fn
    return register


def generate_cases(name: str, count: int, seed: int, options: dict) -> list[GeneratedCase]:
    rng = np.random.default_rng(seed)
    return [GENERATORS[name](rng, **options) for _ in range(count)]


@generator("shapes")
def shapes(rng, args=(), sizes=None) -> GeneratedCase:
    """Arguments of any function (a course's own: docs/authoring.md, section 4) from named sizes,
    each drawn from `sizes` ({name: [low, high] or [low, high, step]}, inclusive): an argument
    that is a size's name is that integer, a list of names and integers a standard normal array
    of that shape, anything else itself."""
    drawn = {name: int(rng.choice(np.arange(low, high + 1, *step)))
             for name, (low, high, *step) in (sizes or {}).items()}
    return tuple(rng.standard_normal([drawn.get(s, s) for s in a]) if isinstance(a, list)
                 else drawn.get(a, a) if isinstance(a, str) else a for a in args), {}


def _grid(rng, patch_sizes, max_grid):
    P = int(rng.choice(patch_sizes))
    return int(rng.integers(1, max_grid + 1)) * P, int(rng.integers(1, max_grid + 1)) * P, P


@generator("tiling_sizes")
def tiling_sizes(rng, patch_sizes=(1, 2, 3, 4, 7, 8, 14, 16, 32), max_grid=24) -> GeneratedCase:
    """(H, W, P) where P tiles both sides; often non-square."""
    return _grid(rng, patch_sizes, max_grid), {}


@generator("non_tiling_sizes")
def non_tiling_sizes(rng, patch_sizes=(2, 3, 4, 8, 16), max_grid=16) -> GeneratedCase:
    """(H, W, P) where P fails to tile at least one side."""
    H, W, P = _grid(rng, [p for p in patch_sizes if p > 1], max_grid)
    side = int(rng.integers(0, 3))
    H += int(rng.integers(1, P)) if side in (0, 2) else 0
    W += int(rng.integers(1, P)) if side in (1, 2) else 0
    return (H, W, P), {}


@generator("token_counts")
def token_counts(rng, patch_sizes=(2, 4, 8, 14, 16, 32), max_grid=24) -> GeneratedCase:
    """(H, W, P) plus a random cls_token keyword (sometimes left to its default)."""
    args = _grid(rng, patch_sizes, max_grid)
    choice = int(rng.integers(0, 3))
    return args, ({} if choice == 2 else {"cls_token": bool(choice)})


@generator("sequence_lengths")
def sequence_lengths(rng, low=1, high=1200) -> GeneratedCase:
    """(T,) a number of tokens."""
    return (int(rng.integers(low, high + 1)),), {}


@generator("images")
def images(rng, patch_sizes=(1, 2, 3, 4, 8), max_grid=5, channels=(1, 3, 4), grayscale=0.2,
           dtype="float64") -> GeneratedCase:
    """(image, P): a random image that P tiles; sometimes 2-D (grayscale)."""
    H, W, P = _grid(rng, patch_sizes, max_grid)
    return (_image(rng, H, W, channels, grayscale, dtype), P), {}


@generator("patch_dims")
def patch_dims(rng, patch_sizes=(1, 2, 3, 4, 5, 7, 8, 14, 16, 32),
               channels=(1, 2, 3, 4)) -> GeneratedCase:
    """(P,) or (P, C): a flatten length; C sometimes left to its default of 3."""
    P = int(rng.choice(patch_sizes))
    return ((P,) if rng.random() < 0.25 else (P, int(rng.choice(channels)))), {}


@generator("patch_sizes")
def patch_sizes(rng, low=1, high=32) -> GeneratedCase:
    """(P,) a patch size."""
    return (int(rng.integers(low, high + 1)),), {}


def _image(rng, H, W, channels=(1, 3), grayscale=0.2, dtype="float64"):
    if rng.random() < grayscale:
        return rng.standard_normal((H, W)).astype(dtype)
    return rng.standard_normal((H, W, int(rng.choice(channels)))).astype(dtype)


def _channels(image) -> int:
    return 1 if image.ndim == 2 else image.shape[2]


@generator("patch_embed_inputs")
def patch_embed_inputs(rng, patch_sizes=(1, 2, 3, 4), max_grid=4, channels=(1, 3), max_dim=8,
                       grayscale=0.2, dtype="float64") -> GeneratedCase:
    """(image, W_e, b_e, P): a tiled image and a random linear map to width d."""
    H, W, P = _grid(rng, patch_sizes, max_grid)
    image = _image(rng, H, W, channels, grayscale, dtype)
    d = int(rng.integers(1, max_dim + 1))
    W_e = rng.standard_normal((P * P * _channels(image), d)).astype(dtype)
    return (image, W_e, rng.standard_normal(d).astype(dtype), P), {}


@generator("conv_inputs")
def conv_inputs(rng, max_kernel=4, max_side=12, channels=(1, 3), max_dim=6, grayscale=0.2,
                dtype="float64") -> GeneratedCase:
    """(image, K, b, stride): any kernel and stride, sizes need not tile (the output floors)."""
    k = int(rng.integers(1, max_kernel + 1))
    H, W = (int(rng.integers(k, max_side + 1)) for _ in range(2))
    stride = int(rng.integers(1, k + 2))
    image = _image(rng, H, W, channels, grayscale, dtype)
    d = int(rng.integers(1, max_dim + 1))
    K = rng.standard_normal((k, k, _channels(image), d)).astype(dtype)
    return (image, K, rng.standard_normal(d).astype(dtype), stride), {}


@generator("embed_inputs")
def embed_inputs(rng, patch_sizes=(1, 2, 3, 4), max_grid=4, channels=(1, 3), max_dim=8,
                 grayscale=0.2, dtype="float64") -> GeneratedCase:
    """(image, params): params keys P, W_e, b_e, cls (d,), pos (N + 1, d), all O(1)."""
    (image, W_e, b_e, P), _ = patch_embed_inputs(rng, patch_sizes, max_grid, channels, max_dim,
                                                 grayscale, dtype)
    N, d = (image.shape[0] // P) * (image.shape[1] // P), W_e.shape[1]
    params = {"P": P, "W_e": W_e, "b_e": b_e, "cls": rng.standard_normal(d).astype(dtype),
              "pos": rng.standard_normal((N + 1, d)).astype(dtype)}
    return (image, params), {}


@generator("softmax_inputs")
def softmax_inputs(rng, max_ndim=3, max_side=7, large=0.3, axis=0.5,
                   dtype="float64") -> GeneratedCase:
    """(x,) with an `axis` keyword half the time; `large` of them near +-1000 (exp overflows)."""
    ndim = int(rng.integers(1, max_ndim + 1))
    shape = tuple(int(rng.integers(1, max_side + 1)) for _ in range(ndim))
    x = rng.standard_normal(shape) * float(rng.choice([0.1, 1.0, 5.0, 30.0]))
    if rng.random() < large:
        x += float(rng.choice([-1000.0, 1000.0, 800.0]))
    kwargs = {"axis": int(rng.integers(-len(shape), len(shape)))} if rng.random() < axis else {}
    return (x.astype(dtype),), kwargs


@generator("layer_norm_inputs")
def layer_norm_inputs(rng, max_tokens=9, max_dim=16, batch=0.2, eps=0.3,
                      dtype="float64") -> GeneratedCase:
    """(x, gamma, beta): x (T, d) or (B, T, d), a random offset and scale per token; some eps=."""
    shape = (int(rng.integers(1, max_tokens + 1)), int(rng.integers(2, max_dim + 1)))
    if rng.random() < batch:
        shape = (int(rng.integers(1, 4)),) + shape
    per_token = shape[:-1] + (1,)
    x = rng.standard_normal(shape) * rng.uniform(0.2, 3.0, per_token)
    x = x + rng.uniform(-3, 3, per_token)
    gamma, beta = 1 + 0.5 * rng.standard_normal(shape[-1]), rng.standard_normal(shape[-1])
    kwargs = {"eps": float(rng.choice([1e-5, 1e-3, 0.1]))} if rng.random() < eps else {}
    return (x.astype(dtype), gamma.astype(dtype), beta.astype(dtype)), kwargs


def _widths(rng, head_counts, max_head_dim, min_dim=1):  # -> (d, heads), heads | d, d >= min_dim
    # a block's min_dim is 4: LayerNorm of 1 or 2 numbers is nearly constant
    heads = int(rng.choice(head_counts))
    low = max(1, -(-min_dim // heads))
    return heads * int(rng.integers(low, max(low, max_head_dim) + 1)), heads


@generator("attention_inputs")
def attention_inputs(rng, head_counts=(1, 2, 3, 4), max_head_dim=4, max_tokens=9, causal=0.3,
                     dtype="float64") -> GeneratedCase:
    """(x, p, heads): x (T, d) with d a multiple of heads; `causal` of them pass causal=True."""
    d, heads = _widths(rng, head_counts, max_head_dim)
    x = rng.standard_normal((int(rng.integers(1, max_tokens + 1)), d)).astype(dtype)
    kwargs = {"causal": True} if rng.random() < causal else {}
    return (x, random_block_params(rng, d, 2 * d, ATTENTION_KEYS, dtype), heads), kwargs


@generator("bad_head_counts")
def bad_head_counts(rng, max_dim=12, max_tokens=5, dtype="float64") -> GeneratedCase:
    """(x, p, heads), heads not dividing the width d: self_attention must raise ValueError."""
    d = int(rng.integers(3, max_dim + 1))
    heads = int(rng.choice([h for h in range(2, d) if d % h]))
    x = rng.standard_normal((int(rng.integers(1, max_tokens + 1)), d)).astype(dtype)
    return (x, random_block_params(rng, d, d, ATTENTION_KEYS, dtype), heads), {}


@generator("block_inputs")
def block_inputs(rng, head_counts=(1, 2, 4), max_head_dim=4, max_tokens=9,
                 dtype="float64") -> GeneratedCase:
    """(x, p, heads): one encoder block's parameters (reference init), a random sequence, d >= 4."""
    d, heads = _widths(rng, head_counts, max_head_dim, min_dim=4)
    x = rng.standard_normal((int(rng.integers(1, max_tokens + 1)), d)).astype(dtype)
    mlp_dim = int(rng.choice([d, 2 * d, 4 * d]))
    return (x, random_block_params(rng, d, mlp_dim, BLOCK_KEYS, dtype), heads), {}


@generator("vit_inputs")
def vit_inputs(rng, patch_sizes=(1, 2, 4), max_grid=3, channels=(1, 3), head_counts=(1, 2, 4),
               max_head_dim=4, max_depth=2, max_classes=6, dtype="float64") -> GeneratedCase:
    """(image, params): a random small ViT (square image, 1 to max_depth blocks), a random image."""
    P = int(rng.choice(patch_sizes))
    size = P * int(rng.integers(1, max_grid + 1))
    d, heads = _widths(rng, head_counts, max_head_dim, min_dim=4)
    config = ViTSizes(image_size=size, patch_size=P, channels=int(rng.choice(channels)), dim=d,
                       depth=int(rng.integers(1, max_depth + 1)), heads=heads,
                       mlp_dim=int(rng.choice([d, 2 * d])),
                       num_classes=int(rng.integers(1, max_classes + 1)), dtype=dtype)
    image = rng.standard_normal((size, size, config.channels)).astype(dtype)
    return (image, init_params(config, int(rng.integers(0, 2 ** 31)))), {}
