"""The batched reference ViT: config, deterministic parameters, and the fast model (fast.py) it
runs agreeing with the plain student-API functions."""
import dataclasses

import numpy as np
import pytest

from grader.reference import (
    ACTIVATIONS,
    ViT,
    ViTConfig,
    embed_image,
    encoder_block,
    fast,
    init_params,
    layer_norm,
    linear,
    vit_forward,
)

SMALL = ViTConfig(image_size=16, patch_size=4, channels=3, dim=16, depth=2, heads=4, mlp_dim=32,
                  num_classes=5, dtype="float64")


def images(config, batch=3, seed=1):
    shape = (batch, config.image_size, config.image_size, config.channels)
    return np.random.default_rng(seed).normal(size=shape).astype(config.dtype)


def model(config=SMALL, seed=0):
    return ViT(config, init_params(config, seed))


# --- agreement with the student-API forward ------------------------------------------------------

@pytest.mark.parametrize("config", [SMALL, ViTConfig(dtype="float64")], ids=["small", "default"])
def test_batched_forward_equals_vit_forward_per_image_in_float64(config):
    params, batch = init_params(config, 0), images(config)
    logits = ViT(config, params)(batch)
    assert logits.shape == (len(batch), config.num_classes)
    np.testing.assert_allclose(logits, [vit_forward(image, params) for image in batch],
                               rtol=1e-12, atol=1e-12)


def test_float32_model_returns_float32_close_to_float64():
    config32 = dataclasses.replace(SMALL, dtype="float32")
    batch = images(SMALL)
    logits32 = model(config32)(batch.astype(np.float32))
    assert logits32.dtype == np.float32
    np.testing.assert_allclose(logits32, model(SMALL)(batch), rtol=1e-4, atol=1e-5)


def test_float32_params_give_float32_from_vit_forward_too():
    config32 = dataclasses.replace(SMALL, dtype="float32")
    params = init_params(config32, 0)
    assert vit_forward(images(config32)[0], params).dtype == np.float32


def random_config(seed):  # a random small float64 config: patch, grid, channels, heads, depth
    rng = np.random.default_rng(seed)
    P, heads = int(rng.choice([1, 2, 4])), int(rng.choice([1, 2, 3]))
    return ViTConfig(image_size=P * int(rng.integers(1, 4)), patch_size=P,
                     channels=int(rng.choice([1, 3])), dim=heads * int(rng.integers(2, 5)),
                     depth=int(rng.integers(1, 4)), heads=heads, mlp_dim=int(rng.integers(1, 20)),
                     num_classes=int(rng.integers(1, 6)), dtype="float64")


@pytest.mark.parametrize("seed", range(8))
def test_fast_model_equals_the_plain_functions_block_by_block_on_random_configs(seed):
    config = random_config(seed)
    params, batch = init_params(config, seed), images(config, seed=seed)
    logits, hidden = ViT(config, params)(batch, return_hidden=True)
    for b, image in enumerate(batch):
        x = embed_image(image, params)  # [T, d]
        for i, block in enumerate(params["blocks"]):
            x = encoder_block(x, block, config.heads)
            np.testing.assert_allclose(hidden[i][b], x, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(logits[b], vit_forward(image, params), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("activation", sorted(ACTIVATIONS))
def test_fast_encoder_block_equals_the_plain_one_for_each_activation_and_eps(activation):
    vit = model(dataclasses.replace(SMALL, activation=activation))
    x = np.random.default_rng(2).normal(size=(3, SMALL.num_tokens, SMALL.dim))  # [B, T, d]
    block = vit.params["blocks"][0]
    fast_out = fast.encoder_block(x, block, SMALL.heads, 1e-5, fast.ACTIVATIONS[activation])
    plain = encoder_block(x, block, SMALL.heads, eps=1e-5, activation=ACTIVATIONS[activation])
    np.testing.assert_allclose(fast_out, plain, rtol=1e-12, atol=1e-12)


def test_a_single_image_batch_equals_the_same_image_in_a_larger_batch():
    batch = images(SMALL, batch=4)
    np.testing.assert_allclose(model()(batch[2:3])[0], model()(batch)[2], rtol=1e-12, atol=1e-12)


# --- parameters -----------------------------------------------------------------------------------

def flat(params):
    out = {k: v for k, v in params.items() if k != "blocks"}
    out.update({f"blocks.{i}.{k}": v for i, b in enumerate(params["blocks"]) for k, v in b.items()})
    return out


def test_init_params_is_deterministic_per_seed():
    a, b = flat(init_params(SMALL, 7)), flat(init_params(SMALL, 7))
    assert a.keys() == b.keys()
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_init_params_differs_across_seeds():
    a, b = flat(init_params(SMALL, 0)), flat(init_params(SMALL, 1))
    same = [k for k, v in a.items() if isinstance(v, np.ndarray) and np.array_equal(v, b[k])]
    assert same == []


def test_init_params_uses_the_student_api_layout():
    params = init_params(SMALL, 0)
    d, T = SMALL.dim, SMALL.num_tokens
    assert params.keys() == {"P", "heads", "W_e", "b_e", "cls", "pos", "blocks", "ln_g", "ln_b",
                             "W_head", "b_head"}
    assert (params["P"], params["heads"], len(params["blocks"])) == (4, 4, 2)
    assert params["W_e"].shape == (4 * 4 * 3, d) and params["pos"].shape == (T, d)
    assert params["blocks"][0].keys() == {"Wq", "bq", "Wk", "bk", "Wv", "bv", "Wo", "bo", "ln1_g",
                                          "ln1_b", "ln2_g", "ln2_b", "W1", "b1", "W2", "b2"}
    assert params["blocks"][0]["W1"].shape == (d, SMALL.mlp_dim)


def test_init_params_makes_biases_and_layer_norm_parameters_non_trivial():
    params = flat(init_params(SMALL, 0))
    gains = [k for k in params if k.endswith("_g")]
    offsets = [k for k in params if k.split(".")[-1].startswith("b") or k.endswith("_b")]
    assert all(np.all(params[k] != 0) for k in offsets + ["cls", "pos"])
    assert all(not np.allclose(params[k], 1.0) for k in gains)


def test_init_params_casts_to_the_config_dtype():
    params = flat(init_params(dataclasses.replace(SMALL, dtype="float32"), 0))
    assert {v.dtype for v in params.values() if isinstance(v, np.ndarray)} == {np.dtype(np.float32)}


# --- pooling and hidden states --------------------------------------------------------------------

def test_mean_pooling_averages_the_normalised_patch_tokens_without_cls():
    vit = model(dataclasses.replace(SMALL, pool="mean"))
    logits, hidden = vit(images(SMALL), return_hidden=True)
    p = vit.params
    normed = layer_norm(hidden[-1], p["ln_g"], p["ln_b"], SMALL.eps)  # [B, T, d]
    np.testing.assert_allclose(logits, linear(normed[:, 1:].mean(axis=1), p["W_head"], p["b_head"]),
                               rtol=1e-12, atol=1e-12)


def test_return_hidden_gives_one_state_per_block():
    logits, hidden = model()(images(SMALL, batch=2), return_hidden=True)
    assert [h.shape for h in hidden] == [(2, SMALL.num_tokens, SMALL.dim)] * SMALL.depth
    np.testing.assert_array_equal(logits, model()(images(SMALL, batch=2)))


def test_tanh_activation_changes_logits_only_slightly():
    tanh_logits = model(dataclasses.replace(SMALL, activation="gelu_tanh"))(images(SMALL))
    exact_logits = model()(images(SMALL))
    assert not np.array_equal(tanh_logits, exact_logits)
    np.testing.assert_allclose(tanh_logits, exact_logits, atol=1e-2)


# --- errors ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("changes, message", [
    ({"patch_size": 5}, "patch size 5 does not tile a 16x16 image: 16 % 5 = 1"),
    ({"heads": 3}, "dim 16 does not split into 3 heads"),
    ({"pool": "max"}, "pool must be one of"),
    ({"dtype": "float16"}, "dtype must be one of"),
    ({"activation": "relu"}, "activation must be one of"),
    ({"depth": 0}, "depth must be positive"),
])
def test_config_rejects_inconsistent_sizes_and_unknown_choices(changes, message):
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(SMALL, **changes)


@pytest.mark.parametrize("shape", [(16, 16, 3), (2, 16, 16, 1), (2, 12, 16, 3)])
def test_model_rejects_images_of_the_wrong_shape(shape):
    with pytest.raises(ValueError, match=r"images must be \(B, 16, 16, 3\)"):
        model()(np.zeros(shape))


def test_model_rejects_params_of_the_wrong_shape_naming_the_key():
    params = init_params(SMALL, 0)
    params["blocks"][1]["Wq"] = params["blocks"][1]["Wq"][:, :8]
    with pytest.raises(ValueError, match=r"params\['blocks'\]\[1\]\['Wq'\] has shape \(16, 8\)"):
        ViT(SMALL, params)


def test_model_rejects_params_made_for_another_depth():
    params = init_params(dataclasses.replace(SMALL, depth=3), 0)
    with pytest.raises(ValueError, match="params has 3 blocks, the config says 2"):
        ViT(SMALL, params)
