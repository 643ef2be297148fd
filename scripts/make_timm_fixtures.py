"""Make the timm fixtures of tests/test_checkpoints.py (run once; the outputs are committed).

timm needs torchvision, which does not import beside the torch the CI installs, so the CI
cannot build timm models itself. This script does, in a throwaway virtual environment:

    python3 -m venv /tmp/timmvenv
    /tmp/timmvenv/bin/pip install torch==2.14.1 torchvision==0.29.1 timm safetensors
    /tmp/timmvenv/bin/python scripts/make_timm_fixtures.py

For each fixture it creates a tiny timm VisionTransformer, overwrites every parameter with O(1)
random values (timm's own init leaves [CLS] and the biases near zero, which hides mapping bugs),
saves it with timm.models.save_for_hf (config.json + model.safetensors, as on the Hugging Face
Hub), and runs it on two images in float32 and, after model.double(), in float64. Into
expected.npz go the images (B, H, W, C), the logits, the tokens entering the first block and
the output of every block. tests/fixtures/timm/versions.json records the versions used.
"""
import json
import math
import sys
from pathlib import Path

import numpy as np
import timm
import torch
from timm.models import save_for_hf

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "timm"
SMALL = dict(img_size=16, patch_size=4, embed_dim=24, depth=2, num_heads=3, mlp_ratio=2.0,
             num_classes=5)
FIXTURES = {  # folder -> (architecture, create_model arguments)
    "token_pool": ("vit_tiny_patch16_224", dict(SMALL, global_pool="token")),
    "avg_pool_fc_norm": ("vit_tiny_patch16_224", dict(SMALL, global_pool="avg")),
    "clip_quickgelu": ("vit_base_patch16_clip_quickgelu_224", dict(SMALL, global_pool="token")),
}
BATCH = 2


def randomize(model, generator):
    """Every parameter O(1): matrices N(0, 1/fan_in) so activations stay O(1), the rest N(0, 1)
    (LayerNorm weights around 1)."""
    gains = {f"{name}.weight" for name, m in model.named_modules()
             if isinstance(m, torch.nn.LayerNorm)}
    with torch.no_grad():
        for name, p in model.named_parameters():
            noise = torch.randn(p.shape, generator=generator, dtype=torch.float64)
            if p.ndim >= 2 and name not in ("cls_token", "pos_embed"):
                value = noise / math.sqrt(p[0].numel())  # fan_in of a Linear / conv weight
            elif name in gains:
                value = 1.0 + 0.5 * noise
            else:
                value = noise
            p.copy_(value.to(p.dtype))


def run(model, images):  # -> logits, tokens entering block 0, every block's output
    states, inputs = [], []
    hooks = [model.blocks[0].register_forward_pre_hook(
        lambda m, a: inputs.append(a[0].detach().clone()))]
    hooks += [b.register_forward_hook(lambda m, a, out: states.append(out.detach().clone()))
              for b in model.blocks]
    with torch.no_grad():
        logits = model(images)
    for hook in hooks:
        hook.remove()
    return logits.numpy(), inputs[0].numpy(), np.stack([s.numpy() for s in states])


def make(folder, arch, kwargs, seed):
    generator = torch.Generator().manual_seed(seed)
    model = timm.create_model(arch, pretrained=False, **kwargs).eval()
    randomize(model, generator)
    save_for_hf(model, OUT / folder, safe_serialization=True)
    (OUT / folder / "pytorch_model.bin").unlink(missing_ok=True)
    size = kwargs["img_size"]
    # float32 values, exact in float64
    images = torch.randn(BATCH, 3, size, size, generator=generator)
    logits32, embed32, hidden32 = run(model, images)
    logits64, embed64, hidden64 = run(model.double(), images.double())
    np.savez_compressed(OUT / folder / "expected.npz",
                        images=images.permute(0, 2, 3, 1).double().numpy(),
                        logits32=logits32, embed32=embed32, hidden32=hidden32,
                        logits64=logits64, embed64=embed64, hidden64=hidden64)
    print(folder, arch, "fc_norm:", type(model.fc_norm).__name__,
          "norm:", type(model.norm).__name__,
          "norm_pre:", type(model.norm_pre).__name__, "eps:", model.blocks[0].norm1.eps,
          "act:", type(model.blocks[0].mlp.act).__name__)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for seed, (folder, (arch, kwargs)) in enumerate(FIXTURES.items()):
        make(folder, arch, kwargs, seed)
    versions = {"python": sys.version.split()[0], "torch": torch.__version__,
                "timm": timm.__version__,
                "numpy": np.__version__}
    (OUT / "versions.json").write_text(json.dumps(versions, indent=2) + "\n")
    print(versions)


if __name__ == "__main__":
    main()
