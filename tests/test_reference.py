"""The reference functions of the student API, each checked against an independent fact:
the lecture's numbers, a formula written out, or a slow loop implementation."""
import math

import numpy as np
import pytest

from grader.reference import (
    REFERENCE,
    attention_scores,
    conv_equivalent,
    conv_patch_embed,
    embed_image,
    encoder_block,
    erf,
    erfc,
    gelu,
    gelu_tanh,
    layer_norm,
    linear_patch_embed,
    num_patches,
    num_tokens,
    patch_dim,
    patchify,
    self_attention,
    softmax,
    vit_forward,
)

STUDENT_API = ["num_patches", "num_tokens", "patch_dim", "attention_scores", "patchify",
               "linear_patch_embed", "conv_patch_embed", "conv_equivalent", "embed_image",
               "softmax", "layer_norm", "self_attention", "encoder_block", "vit_forward"]


@pytest.fixture
def rng():
    return np.random.default_rng(0)


# --- slow, obviously-correct implementations to compare with -----------------------------------

def loop_patchify(image, P):
    H, W, _ = image.shape
    return np.array([image[r:r + P, c:c + P, :].reshape(-1)
                     for r in range(0, H, P) for c in range(0, W, P)])


def loop_conv(image, K, b, stride):
    k, _, _, d = K.shape
    H, W = image.shape[:2]
    out = np.zeros(((H - k) // stride + 1, (W - k) // stride + 1, d))
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            window = image[i * stride:i * stride + k, j * stride:j * stride + k, :]
            for o in range(d):
                out[i, j, o] = np.sum(window * K[..., o]) + b[o]
    return out


def loop_single_head(q, k, v, causal):
    T, d_h = q.shape
    out = np.zeros_like(v)
    for i in range(T):
        seen = range(i + 1) if causal else range(T)
        scores = [q[i] @ k[j] / math.sqrt(d_h) for j in seen]
        weights = np.exp(scores - np.max(scores))
        weights /= weights.sum()
        out[i] = sum(w * v[j] for w, j in zip(weights, seen, strict=True))
    return out


def loop_self_attention(x, p, heads, causal=False):
    q, k, v = x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]
    d_h = x.shape[1] // heads
    cols = [slice(h * d_h, (h + 1) * d_h) for h in range(heads)]
    merged = np.hstack([loop_single_head(q[:, c], k[:, c], v[:, c], causal) for c in cols])
    return merged @ p["Wo"] + p["bo"]


def math_gelu(x):
    return np.vectorize(lambda t: 0.5 * t * (1.0 + math.erf(t / math.sqrt(2.0))))(x)


def naive_layer_norm(x, g, b, eps=1e-6):
    out = np.empty_like(x)
    for i, row in enumerate(x):
        mean = sum(row) / len(row)
        var = sum((row - mean) ** 2) / len(row)
        out[i] = (row - mean) / math.sqrt(var + eps) * g + b
    return out


def naive_block(x, p, heads):
    x = x + loop_self_attention(naive_layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = naive_layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + math_gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def random_block(rng, d, m=None, dtype=np.float64):
    m = m or 2 * d
    shapes = {"Wq": (d, d), "bq": (d,), "Wk": (d, d), "bk": (d,), "Wv": (d, d), "bv": (d,),
              "Wo": (d, d), "bo": (d,), "ln1_g": (d,), "ln1_b": (d,), "ln2_g": (d,),
              "ln2_b": (d,), "W1": (d, m), "b1": (m,), "W2": (m, d), "b2": (d,)}
    block = {k: rng.normal(0, 1 / math.sqrt(s[0]) if k[0] == "W" else 0.5, s)
             for k, s in shapes.items()}
    block["ln1_g"] += 1.0
    block["ln2_g"] += 1.0
    return {k: v.astype(dtype) for k, v in block.items()}


def random_vit_params(rng, H=8, W=8, C=3, P=4, d=8, heads=2, depth=2, classes=3):
    T = (H // P) * (W // P) + 1
    return {"P": P, "heads": heads, "W_e": rng.normal(0, 0.2, (P * P * C, d)),
            "b_e": rng.normal(0, 0.5, d), "cls": rng.normal(size=d), "pos": rng.normal(size=(T, d)),
            "blocks": [random_block(rng, d) for _ in range(depth)],
            "ln_g": 1 + rng.normal(0, 0.2, d), "ln_b": rng.normal(0, 0.5, d),
            "W_head": rng.normal(0, 0.3, (d, classes)), "b_head": rng.normal(0, 0.5, classes)}


# --- the registry --------------------------------------------------------------------------------

def test_reference_registry_holds_exactly_the_student_api_functions():
    assert sorted(REFERENCE) == sorted(STUDENT_API)


# --- counting (lecture 4.2, section 4 and Practice 1, 4, 5) ---------------------------------------

@pytest.mark.parametrize("H, W, P, N", [
    (224, 224, 16, 196), (384, 384, 16, 576), (224, 224, 8, 784), (32, 32, 8, 16), (4, 4, 2, 4),
    (32, 64, 8, 32), (224, 160, 16, 140),
])
def test_num_patches_counts_the_tiles(H, W, P, N):
    assert num_patches(H, W, P) == N


def test_num_tokens_adds_one_for_cls_only_when_asked():
    assert num_tokens(224, 224, 16) == 197
    assert num_tokens(224, 224, 16, cls_token=False) == 196


def test_attention_scores_of_197_tokens_is_38809():
    assert attention_scores(197) == 38809


@pytest.mark.parametrize("args, kwargs, expected", [
    ((16,), {}, 768), ((8,), {}, 192), ((2,), {"C": 1}, 4), ((16, 1), {}, 256),
])
def test_patch_dim_is_p_squared_times_channels(args, kwargs, expected):
    assert patch_dim(*args, **kwargs) == expected


@pytest.mark.parametrize("count", [
    lambda: num_patches(np.int64(224), 224, 16), lambda: num_tokens(224, 224, np.int32(16)),
    lambda: patch_dim(16), lambda: attention_scores(np.int64(197)),
])
def test_counts_are_python_ints(count):
    assert type(count()) is int


@pytest.mark.parametrize("count", [
    lambda: num_patches(30, 32, 16), lambda: num_tokens(30, 32, 16),
    lambda: patchify(np.zeros((30, 32, 3)), 16),
])
def test_sizes_that_do_not_tile_raise_value_error_with_the_remainder(count):
    with pytest.raises(ValueError, match=r"16 does not tile a 30x32 image: 30 % 16 = 14"):
        count()


@pytest.mark.parametrize("P", [0, -4])
def test_non_positive_patch_size_raises_value_error(P):
    with pytest.raises(ValueError, match="patch size must be positive"):
        num_patches(32, 32, P)


def test_float_sizes_raise_type_error():
    with pytest.raises(TypeError, match="must be an integer"):
        num_patches(224.0, 224, 16)


def test_conv_equivalent_is_kernel_p_stride_p():
    assert conv_equivalent(16) == (16, 16)


# --- patchify (Lab 4) ----------------------------------------------------------------------------

@pytest.mark.parametrize("H, W, C, P", [(8, 8, 3, 4), (6, 10, 2, 2), (12, 4, 1, 4), (5, 5, 3, 5)])
def test_patchify_matches_a_loop_over_the_grid(rng, H, W, C, P):
    image = rng.normal(size=(H, W, C))
    np.testing.assert_array_equal(patchify(image, P), loop_patchify(image, P))


def test_patchify_treats_a_2d_image_as_one_channel(rng):
    image = rng.normal(size=(6, 4))
    np.testing.assert_array_equal(patchify(image, 2), patchify(image[..., None], 2))
    assert patchify(image, 2).shape == (6, 4)


@pytest.mark.parametrize("shape", [(16,), (2, 8, 8, 3)])
def test_patchify_rejects_arrays_that_are_not_2d_or_3d(shape):
    with pytest.raises(ValueError, match=r"\(H, W\) or \(H, W, C\)"):
        patchify(np.zeros(shape), 4)


def worked_example_image():  # 4x4, one channel, top-left patch [[1, 2], [3, 4]]
    return np.array([[1, 2, 5, 6], [3, 4, 7, 8], [9, 10, 13, 14], [11, 12, 15, 16]], dtype=float)


def test_worked_example_top_left_patch_flattens_to_1_2_3_4():
    np.testing.assert_array_equal(patchify(worked_example_image(), 2)[0], [1, 2, 3, 4])


def test_worked_example_mean_row_maps_the_patch_to_2_5():
    W = np.array([[0.25, 0.25, 0.25, 0.25], [1.0, -1.0, 0.0, 2.0]])  # the lecture's 2 x 4 map
    tokens = linear_patch_embed(worked_example_image(), W.T, np.zeros(2), 2)
    assert tokens.shape == (4, 2)
    assert tokens[0, 0] == 2.5


# --- convolution ---------------------------------------------------------------------------------

def test_conv_with_kernel_p_and_stride_p_equals_linear_patch_embed(rng):
    H, W, C, P, d = 8, 12, 3, 4, 5
    image, W_e, b = rng.normal(size=(H, W, C)), rng.normal(size=(P * P * C, d)), rng.normal(size=d)
    conv = conv_patch_embed(image, W_e.reshape(P, P, C, d), b, P)
    assert conv.shape == (H // P, W // P, d)
    np.testing.assert_allclose(conv.reshape(-1, d), linear_patch_embed(image, W_e, b, P),
                               rtol=1e-12)


@pytest.mark.parametrize("H, W, C, k, stride, d", [
    (7, 9, 2, 3, 2, 4), (5, 5, 1, 5, 1, 2), (10, 7, 3, 2, 3, 3), (6, 6, 1, 1, 1, 2),
    (9, 11, 3, 4, 4, 2),
])
def test_conv_matches_a_naive_loop_including_sizes_that_do_not_tile(rng, H, W, C, k, stride, d):
    image, K, b = rng.normal(size=(H, W, C)), rng.normal(size=(k, k, C, d)), rng.normal(size=d)
    np.testing.assert_allclose(conv_patch_embed(image, K, b, stride),
                               loop_conv(image, K, b, stride), rtol=1e-12, atol=1e-12)


def test_conv_treats_a_2d_image_as_one_channel(rng):
    image, K, b = rng.normal(size=(6, 7)), rng.normal(size=(3, 3, 1, 2)), rng.normal(size=2)
    np.testing.assert_allclose(conv_patch_embed(image, K, b, 2),
                               loop_conv(image[..., None], K, b, 2), rtol=1e-12)


def test_conv_rejects_a_kernel_larger_than_the_image():
    with pytest.raises(ValueError, match="does not fit"):
        conv_patch_embed(np.zeros((4, 8, 1)), np.zeros((5, 5, 1, 2)), np.zeros(2), 1)


# --- sequence assembly ---------------------------------------------------------------------------

def test_embed_image_prepends_cls_then_adds_positions(rng):
    p = random_vit_params(rng)
    image = rng.normal(size=(8, 8, 3))
    tokens = loop_patchify(image, 4) @ p["W_e"] + p["b_e"]
    np.testing.assert_allclose(embed_image(image, p), np.vstack([p["cls"], tokens]) + p["pos"],
                               rtol=1e-12)


def test_embed_image_rejects_positions_of_the_wrong_length(rng):
    p = random_vit_params(rng)
    p["pos"] = p["pos"][:-1]
    with pytest.raises(ValueError, match="pos has 4 rows but the image makes 5 tokens"):
        embed_image(rng.normal(size=(8, 8, 3)), p)


# --- softmax and LayerNorm -----------------------------------------------------------------------

def test_softmax_rows_sum_to_one_and_stay_finite_near_1000(rng):
    out = softmax(1000.0 + rng.normal(size=(4, 7)))
    assert np.all(np.isfinite(out))
    np.testing.assert_allclose(out.sum(axis=-1), 1.0, rtol=1e-12)


def test_softmax_equals_the_naive_formula_on_small_inputs(rng):
    x = rng.normal(size=(3, 5))
    naive = np.exp(x) / np.exp(x).sum(axis=-1, keepdims=True)
    np.testing.assert_allclose(softmax(x), naive, rtol=1e-12)


def test_softmax_normalises_along_the_given_axis(rng):
    columns = softmax(rng.normal(size=(3, 5)), axis=0)
    np.testing.assert_allclose(columns.sum(axis=0), 1.0, rtol=1e-12)


def test_layer_norm_gives_mean_0_and_variance_1_before_the_affine_map(rng):
    out = layer_norm(3.0 + 5.0 * rng.normal(size=(4, 16)), np.ones(16), np.zeros(16), eps=0.0)
    np.testing.assert_allclose(out.mean(axis=-1), 0.0, atol=1e-12)
    np.testing.assert_allclose(out.var(axis=-1), 1.0, rtol=1e-12)


def test_layer_norm_matches_the_formula_with_biased_variance_and_affine_map(rng):
    x, g, b = rng.normal(size=(3, 6)), rng.normal(size=6), rng.normal(size=6)
    np.testing.assert_allclose(layer_norm(x, g, b), naive_layer_norm(x, g, b), rtol=1e-12)


def test_layer_norm_puts_eps_inside_the_square_root():
    x = np.array([[1e-3, -1e-3]])  # variance 1e-6, as large as eps
    np.testing.assert_allclose(layer_norm(x, np.ones(2), np.zeros(2)),
                               [[0.5 ** 0.5, -(0.5 ** 0.5)]])
    np.testing.assert_allclose(layer_norm(x, np.ones(2), np.zeros(2), eps=0.0), [[1.0, -1.0]])


# --- erf and GELU --------------------------------------------------------------------------------

def test_erf_matches_math_erf_on_a_dense_grid_with_tails():
    x = np.linspace(-12.0, 12.0, 120_001)
    expected = np.array([math.erf(t) for t in x])
    np.testing.assert_allclose(erf(x), expected, rtol=1e-15, atol=0)


def test_erf_is_relatively_accurate_near_zero():
    x = np.concatenate([np.logspace(-300, 0, 3001), -np.logspace(-300, 0, 3001), [0.0]])
    expected = np.array([math.erf(t) for t in x])
    np.testing.assert_allclose(erf(x), expected, rtol=1e-15, atol=0)


def test_erf_is_odd_and_saturates_at_plus_and_minus_one():
    np.testing.assert_array_equal(erf([-np.inf, -1e300, -30.0, 30.0, 1e300, np.inf]),
                                  [-1, -1, -1, 1, 1, 1])
    x = np.linspace(0, 7, 701)
    np.testing.assert_array_equal(erf(-x), -erf(x))


def test_erf_passes_nan_through():
    assert np.isnan(erf(np.nan))


def test_erf_of_float32_is_float32_and_correctly_rounded():
    x = np.linspace(-6, 6, 10_001, dtype=np.float32)
    out = erf(x)
    assert out.dtype == np.float32
    expected = np.array([math.erf(float(t)) for t in x]).astype(np.float32)
    np.testing.assert_array_equal(out, expected)


def test_erfc_matches_math_erfc_far_into_the_right_tail():
    x = np.linspace(-5.0, 26.0, 31_001)
    expected = np.array([math.erfc(t) for t in x])
    np.testing.assert_allclose(erfc(x), expected, rtol=1e-14, atol=0)


def test_gelu_matches_the_erf_formula():
    x = np.linspace(-10, 10, 4001)
    # atol: 1 + erf(x) cancels for x < -5, so the formula itself is only good to ~|x| * 1e-16
    np.testing.assert_allclose(gelu(x), math_gelu(x), rtol=1e-14, atol=1e-15)


def test_gelu_is_relatively_accurate_in_the_left_tail():
    x = np.linspace(-30, -3, 2701)
    expected = np.array([0.5 * t * math.erfc(-t / math.sqrt(2.0)) for t in x])
    np.testing.assert_allclose(gelu(x), expected, rtol=1e-13, atol=0)


def test_gelu_tanh_is_within_5e_4_of_exact_gelu():
    x = np.linspace(-8, 8, 4001)
    assert 1e-4 < np.max(np.abs(gelu_tanh(x) - gelu(x))) < 5e-4


# --- attention ------------------------------------------------------------------------------------

def test_self_attention_without_positions_is_permutation_equivariant(rng):
    x, p, perm = rng.normal(size=(6, 8)), random_block(rng, 8), rng.permutation(6)
    np.testing.assert_allclose(self_attention(x[perm], p, 2), self_attention(x, p, 2)[perm],
                               rtol=1e-12, atol=1e-12)


def test_causal_self_attention_is_not_permutation_equivariant(rng):
    x, p, perm = rng.normal(size=(6, 8)), random_block(rng, 8), np.array([5, 4, 3, 2, 1, 0])
    out = self_attention(x, p, 2, causal=True)
    out_of_permuted = self_attention(x[perm], p, 2, causal=True)
    assert not np.allclose(out_of_permuted, out[perm])


def test_causal_self_attention_equals_a_gpt_style_loop(rng):
    x, p = rng.normal(size=(5, 8)), random_block(rng, 8)
    np.testing.assert_allclose(self_attention(x, p, 2, causal=True),
                               loop_self_attention(x, p, 2, causal=True), rtol=1e-12, atol=1e-12)


def test_first_causal_token_sees_only_itself(rng):
    x, p = rng.normal(size=(5, 8)), random_block(rng, 8)
    alone = ((x[0] @ p["Wv"] + p["bv"]) @ p["Wo"]) + p["bo"]
    np.testing.assert_allclose(self_attention(x, p, 4, causal=True)[0], alone, rtol=1e-12)


@pytest.mark.parametrize("heads", [1, 2, 4, 8])
def test_multi_head_attention_concatenates_heads_over_contiguous_columns(rng, heads):
    x, p = rng.normal(size=(7, 8)), random_block(rng, 8)
    np.testing.assert_allclose(self_attention(x, p, heads), loop_self_attention(x, p, heads),
                               rtol=1e-12, atol=1e-12)


def test_self_attention_rejects_a_width_that_heads_do_not_divide(rng):
    with pytest.raises(ValueError, match="width 8 does not split into 3 heads: 8 % 3 = 2"):
        self_attention(rng.normal(size=(4, 8)), random_block(rng, 8), 3)


# --- the encoder and the whole forward pass ------------------------------------------------------

def test_encoder_block_is_the_pre_ln_residual_formula(rng):
    x, p = rng.normal(size=(5, 8)), random_block(rng, 8)
    np.testing.assert_allclose(encoder_block(x, p, 2), naive_block(x, p, 2), rtol=1e-12, atol=1e-12)


def test_vit_forward_equals_the_steps_written_out(rng):
    p, image = random_vit_params(rng), rng.normal(size=(8, 8, 3))
    x = np.vstack([p["cls"], loop_patchify(image, 4) @ p["W_e"] + p["b_e"]]) + p["pos"]
    for block in p["blocks"]:
        x = naive_block(x, block, 2)
    logits = naive_layer_norm(x, p["ln_g"], p["ln_b"])[0] @ p["W_head"] + p["b_head"]
    np.testing.assert_allclose(vit_forward(image, p), logits, rtol=1e-12, atol=1e-12)


# --- dtype discipline -----------------------------------------------------------------------------

def call_every_function(rng, dtype):
    p = random_vit_params(rng)
    p = {k: (v.astype(dtype) if isinstance(v, np.ndarray) else v) for k, v in p.items()}
    p["blocks"] = [random_block(rng, 8, dtype=dtype) for _ in range(2)]
    image, x = rng.normal(size=(8, 8, 3)).astype(dtype), rng.normal(size=(5, 8)).astype(dtype)
    K, g = p["W_e"].reshape(4, 4, 3, 8), np.ones(8, dtype)
    return {
        "patchify": patchify(image, 4),
        "linear_patch_embed": linear_patch_embed(image, p["W_e"], p["b_e"], 4),
        "conv_patch_embed": conv_patch_embed(image, K, p["b_e"], 4),
        "embed_image": embed_image(image, p), "softmax": softmax(x),
        "layer_norm": layer_norm(x, g, g), "gelu": gelu(x), "gelu_tanh": gelu_tanh(x),
        "erf": erf(x), "erfc": erfc(x), "self_attention": self_attention(x, p["blocks"][0], 2),
        "causal_self_attention": self_attention(x, p["blocks"][0], 2, causal=True),
        "encoder_block": encoder_block(x, p["blocks"][0], 2), "vit_forward": vit_forward(image, p),
    }


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_every_function_keeps_the_floating_dtype_of_its_inputs(rng, dtype):
    changed = {name: out.dtype for name, out in call_every_function(rng, dtype).items()
               if out.dtype != dtype}
    assert changed == {}
