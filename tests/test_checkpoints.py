"""Pretrained checkpoints: the reference ViT loads Hugging Face ViT, CLIP and timm folders and
computes what the libraries compute.

Live comparisons build tiny random models with transformers (skipped, with the reason, where
torch or transformers is missing; .ci/run installs both). timm cannot be installed beside that
torch, so its models were built once by scripts/make_timm_fixtures.py and their outputs are in
tests/fixtures/timm/. Every parameter is overwritten with O(1) random values first: the
libraries' own init leaves [CLS] and the biases near zero, which hides mapping mistakes.
Outputs and every hidden state must agree within 1e-5 in float32 and 1e-10 in float64
(a wrong LayerNorm eps only shows in float64).
"""
import dataclasses
import json
import math
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from grader.reference import ViT, conv_patch_embed, patchify
from grader.reference.checkpoints import CheckpointError, detect_layout, patch_weight

pytest.importorskip("safetensors", reason="checkpoints are read with the safetensors package")

FIXTURES = Path(__file__).parent / "fixtures"
TIMM = FIXTURES / "timm"
TOLERANCE = {"float32": 1e-5, "float64": 1e-10}
SIZES = dict(image_size=16, patch_size=4, num_channels=3, hidden_size=24, num_hidden_layers=2,
             num_attention_heads=3, intermediate_size=48)
BATCH = 2


def max_error(ours, theirs):
    return float(np.max(np.abs(np.asarray(ours, np.float64) - np.asarray(theirs, np.float64))))


def images_like(config, seed=1):  # (B, H, W, C) values exact in float32
    shape = (BATCH, config.image_size, config.image_size, config.channels)
    return np.random.default_rng(seed).normal(size=shape).astype(np.float32).astype(np.float64)


# --- the patch embedding's permutation (no torch needed) ------------------------------------------

def test_patch_weight_permutes_the_conv_kernel_into_the_p1_p2_c_flatten_order():
    rng = np.random.default_rng(0)
    D, C, P = 5, 3, 4
    w, image = rng.normal(size=(D, C, P, P)), rng.normal(size=(8, 12, C))
    # torch's conv is a cross-correlation: out[d, i, j] = sum_{c,a,b} w[d, c, a, b] x[c, iP+a, jP+b]
    conv = conv_patch_embed(image, w.transpose(2, 3, 1, 0), np.zeros(D), P).reshape(-1, D)
    np.testing.assert_allclose(patchify(image, P) @ patch_weight(w), conv, rtol=1e-12, atol=1e-12)


# --- timm, against the committed fixtures ---------------------------------------------------------

TIMM_CASES = ["token_pool", "avg_pool_fc_norm", "clip_quickgelu"]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", TIMM_CASES)
def test_timm_fixture_logits_and_every_hidden_state_match(name, dtype):
    expected = np.load(TIMM / name / "expected.npz")
    model = ViT.from_pretrained(TIMM / name, dtype=dtype)
    bits = dtype[-2:]
    logits, hidden = model(expected["images"], return_hidden=True)
    assert logits.dtype == dtype and {h.dtype for h in hidden} == {np.dtype(dtype)}
    errors = {"logits": max_error(logits, expected[f"logits{bits}"]),
              "embed": max_error(model.embed(expected["images"]), expected[f"embed{bits}"])}
    errors.update({f"block {i}": max_error(h, expected[f"hidden{bits}"][i])
                   for i, h in enumerate(hidden)})
    assert max(errors.values()) <= TOLERANCE[dtype], errors


@pytest.mark.parametrize("name, pool, norm_pooled, pre_norm, eps, activation", [
    ("token_pool", "cls", False, False, 1e-6, "gelu"),
    ("avg_pool_fc_norm", "mean", True, False, 1e-6, "gelu"),
    ("clip_quickgelu", "cls", False, True, 1e-5, "quick_gelu"),
])
def test_timm_semantics_come_from_the_architecture_and_model_args(name, pool, norm_pooled, pre_norm,
                                                                  eps, activation):
    c = ViT.from_pretrained(TIMM / name).config
    assert (c.pool, c.norm_pooled, c.pre_norm, c.eps, c.activation) == (pool, norm_pooled, pre_norm,
                                                                         eps, activation)


def test_timm_average_pooling_normalises_the_mean_not_the_tokens():
    expected = np.load(TIMM / "avg_pool_fc_norm" / "expected.npz")
    model = ViT.from_pretrained(TIMM / "avg_pool_fc_norm", dtype="float64")
    wrong = dataclasses.replace(model.config, norm_pooled=False)
    assert max_error(ViT(wrong, model.params)(expected["images"]), expected["logits64"]) > 1e-3


def copy_fixture(tmp_path, name):
    folder = tmp_path / name
    shutil.copytree(TIMM / name, folder)
    return folder


def edit_config(folder, change):
    config = json.loads((folder / "config.json").read_text())
    change(config)
    (folder / "config.json").write_text(json.dumps(config))


def test_an_unknown_timm_architecture_is_refused_by_name(tmp_path):
    folder = copy_fixture(tmp_path, "token_pool")
    edit_config(folder, lambda c: c.update(architecture="vit_so400m_patch14_siglip_224"))
    with pytest.raises(CheckpointError, match="'vit_so400m_patch14_siglip_224' is not one the"):
        ViT.from_pretrained(folder)


def test_a_timm_argument_the_reference_does_not_implement_is_refused(tmp_path):
    folder = copy_fixture(tmp_path, "token_pool")
    edit_config(folder, lambda c: c["model_args"].update(init_values=1e-5))
    with pytest.raises(CheckpointError, match="init_values=1e-05 is not implemented"):
        ViT.from_pretrained(folder)


# --- errors and detection (no torch needed) -------------------------------------------------------

def test_a_tensor_no_mapping_takes_is_an_error_not_silently_dropped(tmp_path):
    from safetensors.numpy import load_file, save_file

    folder = copy_fixture(tmp_path, "token_pool")
    tensors = load_file(str(folder / "model.safetensors"))
    tensors["blocks.0.ls1.gamma"] = np.ones(24, np.float32)
    save_file(tensors, str(folder / "model.safetensors"))
    with pytest.raises(CheckpointError, match="the reference does not map: blocks.0.ls1.gamma"):
        ViT.from_pretrained(folder)


def test_detect_layout_tells_the_three_libraries_apart():
    assert detect_layout({"model_type": "vit"}).NAME == "hf_vit"
    assert detect_layout({"model_type": "clip_vision_model"}).NAME == "clip_vision"
    assert detect_layout({"model_type": "clip"}).NAME == "clip_vision"
    timm_config = {"architecture": "vit_base_patch16_224", "pretrained_cfg": {}}
    assert detect_layout(timm_config).NAME == "timm_vit"
    with pytest.raises(CheckpointError, match="model_type is 'swin'"):
        detect_layout({"model_type": "swin"})


def test_a_config_key_that_is_missing_is_named_not_assumed(tmp_path):
    folder = copy_fixture(tmp_path, "token_pool")
    edit_config(folder, lambda c: c.clear() or c.update(model_type="vit", image_size=16,
                                                        patch_size=4))
    with pytest.raises(CheckpointError, match="config.json has no 'num_channels'"):
        ViT.from_pretrained(folder)


def test_a_folder_without_config_json_is_refused(tmp_path):
    with pytest.raises(CheckpointError, match="no config.json"):
        ViT.from_pretrained(tmp_path)


def test_missing_safetensors_names_the_extra_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "safetensors.numpy", None)  # import fails as if not installed
    with pytest.raises(ImportError, match=r'pip install "vit-grader\[checkpoints\]"'):
        ViT.from_pretrained(copy_fixture(tmp_path, "token_pool"))


# --- live: Hugging Face transformers --------------------------------------------------------------

@pytest.fixture(scope="module")
def transformers():
    pytest.importorskip("torch", reason="live comparisons need torch (.ci/run installs it)")
    return pytest.importorskip("transformers",
                               reason="live comparisons need transformers (.ci/run installs it)")


def randomize(model, seed):
    """Every parameter O(1): matrices N(0, 1/fan_in), LayerNorm weights 1 + N(0, 1/4), the rest
    N(0, 1)."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    gains = {f"{n}.weight" for n, m in model.named_modules() if isinstance(m, torch.nn.LayerNorm)}
    with torch.no_grad():
        for name, p in model.named_parameters():
            noise = torch.randn(p.shape, generator=generator, dtype=torch.float64)
            if p.ndim >= 2 and "position_embedding" not in name and "cls_token" not in name:
                noise /= math.sqrt(p[0].numel())
            elif name in gains:
                noise = 1.0 + 0.5 * noise
            p.copy_(noise.to(p.dtype))
    return model.eval()


HF_MODELS = {  # name -> (transformers class, config class, extra config, output attribute)
    "vit_classifier": ("ViTForImageClassification", "ViTConfig", {"num_labels": 5}, "logits"),
    "vit_model_pooler": ("ViTModel", "ViTConfig", {}, "pooler_output"),
    "clip_with_projection": ("CLIPVisionModelWithProjection", "CLIPVisionConfig",
                             {"projection_dim": 7}, "image_embeds"),
    "clip_vision": ("CLIPVisionModel", "CLIPVisionConfig", {}, "pooler_output"),
}


@pytest.fixture(scope="module")
def hf_checkpoints(transformers, tmp_path_factory):  # name -> (folder, torch model)
    out = {}
    for seed, (name, (cls, config_cls, extra, _)) in enumerate(HF_MODELS.items()):
        config = getattr(transformers, config_cls)(**SIZES, **extra)
        model = randomize(getattr(transformers, cls)(config), seed)
        folder = tmp_path_factory.mktemp(name)
        model.save_pretrained(folder)
        out[name] = folder, model
    return out


def hf_run(model, images, dtype):  # -> (output, hidden states) of the transformers model
    import torch

    torch_dtype = {"float32": torch.float32, "float64": torch.float64}[dtype]
    model = model.to(torch_dtype)
    pixels = torch.from_numpy(images.transpose(0, 3, 1, 2).copy()).to(torch_dtype)  # (B, C, H, W)
    with torch.no_grad():
        return model(pixel_values=pixels, output_hidden_states=True)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(HF_MODELS))
def test_transformers_outputs_and_every_hidden_state_match(hf_checkpoints, name, dtype):
    folder, torch_model = hf_checkpoints[name]
    model = ViT.from_pretrained(folder, dtype=dtype)
    images = images_like(model.config)
    theirs = hf_run(torch_model, images, dtype)
    ours, hidden = model(images, return_hidden=True)
    assert ours.dtype == dtype
    assert len(theirs.hidden_states) == len(hidden) + 1  # theirs start with the block-0 input
    errors = {"output": max_error(ours, getattr(theirs, HF_MODELS[name][3]).numpy()),
              "embed": max_error(model.embed(images), theirs.hidden_states[0].numpy())}
    errors.update({f"block {i}": max_error(h, theirs.hidden_states[i + 1].numpy())
                   for i, h in enumerate(hidden)})
    assert max(errors.values()) <= TOLERANCE[dtype], errors


def test_hf_vit_reads_layer_norm_eps_1e_12_and_float64_would_catch_1e_6(hf_checkpoints):
    folder, torch_model = hf_checkpoints["vit_classifier"]
    model = ViT.from_pretrained(folder, dtype="float64")
    assert model.config.eps == 1e-12
    images = images_like(model.config)
    logits = hf_run(torch_model, images, "float64").logits.numpy()
    wrong_eps = ViT(dataclasses.replace(model.config, eps=1e-6), model.params)(images)
    assert max_error(wrong_eps, logits) > TOLERANCE["float64"]
    assert max_error(model(images), logits) <= TOLERANCE["float64"]


def test_clip_reads_quick_gelu_and_exact_gelu_would_not_match(hf_checkpoints):
    folder, torch_model = hf_checkpoints["clip_with_projection"]
    model = ViT.from_pretrained(folder, dtype="float64")
    c = model.config
    assert (c.activation, c.eps, c.pre_norm) == ("quick_gelu", 1e-5, True)
    images = images_like(model.config)
    embeds = hf_run(torch_model, images, "float64").image_embeds.numpy()
    exact = ViT(dataclasses.replace(model.config, activation="gelu"), model.params)(images)
    assert max_error(exact, embeds) > 1e-3


def test_clip_last_hidden_state_is_not_normalised(hf_checkpoints):
    folder, torch_model = hf_checkpoints["clip_vision"]
    model = ViT.from_pretrained(folder, dtype="float64")
    images = images_like(model.config)
    theirs = hf_run(torch_model, images, "float64")
    _, hidden = model(images, return_hidden=True)
    assert max_error(hidden[-1], theirs.last_hidden_state.numpy()) <= TOLERANCE["float64"]


def test_a_full_clip_model_file_gives_its_image_features(transformers, tmp_path):
    import torch

    config = transformers.CLIPConfig(vision_config=SIZES, projection_dim=6,
                                     text_config=dict(hidden_size=16, num_hidden_layers=1,
                                                      num_attention_heads=2, intermediate_size=32))
    clip = randomize(transformers.CLIPModel(config), 9).double()
    clip.save_pretrained(tmp_path)
    model = ViT.from_pretrained(tmp_path, dtype="float64")
    images = images_like(model.config)
    with torch.no_grad():
        pixels = torch.from_numpy(images.transpose(0, 3, 1, 2).copy())
        features = clip.get_image_features(pixel_values=pixels)
    features = getattr(features, "pooler_output", features)  # transformers 5: an output object
    assert max_error(model(images), features.numpy()) <= TOLERANCE["float64"]


# --- the exercise checkpoint ----------------------------------------------------------------------

EXERCISE_CHECKPOINT = Path(__file__).parents[1] / "exercises" / "checkpoints" / "tiny-vit"


def exercise_inputs():
    from grader.checks import inputs

    name = str(EXERCISE_CHECKPOINT)
    return (inputs.evaluate({"checkpoint_sample": name, "part": "image"}),
            inputs.evaluate({"checkpoint_params": name}),
            inputs.evaluate({"checkpoint_sample": name, "part": "logits"}))


def test_vit_forward_on_the_mapped_params_reproduces_the_exercise_checkpoints_logits():
    from grader.reference import vit_forward

    image, params, logits = exercise_inputs()
    assert params["W_e"].dtype == np.float64 and "Wqkv" not in params["blocks"][0]
    assert max_error(vit_forward(image, params), logits) <= TOLERANCE["float64"]


def test_the_exercise_tolerance_accepts_tanh_gelu_and_rejects_mean_pooling():
    image, _, logits = exercise_inputs()
    model = ViT.from_pretrained(EXERCISE_CHECKPOINT, dtype="float64")

    def error(**change):
        changed = ViT(dataclasses.replace(model.config, **change), model.params)
        return max_error(changed(image[None])[0], logits)

    assert error(activation="gelu_tanh") < 1e-3 < error(pool="mean")


def test_checkpoint_params_refuse_a_model_vit_forward_cannot_compute():
    from grader.checks import inputs

    with pytest.raises(inputs.InputError, match="not what vit_forward computes: .*'pool': 'mean'"):
        inputs.evaluate({"checkpoint_params": str(TIMM / "avg_pool_fc_norm")})


def test_the_exercise_sample_logits_are_what_transformers_computes(transformers):
    import torch

    image, _, logits = exercise_inputs()
    model = transformers.ViTForImageClassification.from_pretrained(EXERCISE_CHECKPOINT)
    model = model.double().eval()
    pixels = torch.from_numpy(image.transpose(2, 0, 1)[None].copy())
    with torch.no_grad():
        theirs = model(pixel_values=pixels).logits[0]
    assert max_error(theirs.numpy(), logits) <= TOLERANCE["float64"]


# --- the fast float32 forward the checkpoints run on ----------------------------------------------

def exact_gelu(x):
    return np.array([0.5 * t * math.erfc(-t / math.sqrt(2.0)) for t in np.asarray(x, np.float64)])


def test_float32_gelu_is_within_a_few_ulp_of_the_exact_gelu_and_stays_float32():
    from grader.reference.fast import gelu

    x = np.linspace(-14, 14, 70_001, dtype=np.float32)
    out = gelu(x)
    assert out.dtype == np.float32
    exact = exact_gelu(x)
    assert max_error(out, exact) <= 3e-7  # half an ulp of 14 is 4.8e-7
    right = x > -5  # the left tail is relatively accurate too (torch's 1 + erf is not)
    relative = np.abs(out[right] - exact[right]) / np.maximum(np.abs(exact[right]), 1e-30)
    assert np.max(relative) < 3e-6


def test_a_float32_forward_never_promotes_to_float64(monkeypatch):
    from grader.reference import layers

    def refuse(x):
        raise AssertionError(f"float64 erfc called on {np.asarray(x).dtype}")

    monkeypatch.setattr(layers, "erfc", refuse)  # the float64 GELU path
    model = ViT.from_pretrained(TIMM / "clip_quickgelu", dtype="float32")
    images = np.load(TIMM / "clip_quickgelu" / "expected.npz")["images"]
    logits, hidden = model(images, return_hidden=True)
    assert {logits.dtype, *(h.dtype for h in hidden)} == {np.dtype(np.float32)}
    model = ViT.from_pretrained(TIMM / "token_pool", dtype="float32")
    assert model(np.zeros((1, 16, 16, 3), np.float32)).dtype == np.float32
