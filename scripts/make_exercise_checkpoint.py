"""Make the checkpoint of exercises/vit-checkpoint.yaml (run once; the outputs are committed).

    pip install torch==2.13.0 transformers safetensors
    python scripts/make_exercise_checkpoint.py

A tiny Hugging Face ViTForImageClassification, every parameter overwritten with O(1) random
values, saved with save_pretrained (config.json + model.safetensors) into
exercises/checkpoints/tiny-vit/. Its LayerNorm eps is 1e-6 and its GELU the exact one, the
student API's semantics, so a correct `vit_forward` reproduces its logits exactly; Google's
checkpoints use eps 1e-12 instead. sample.npz holds one image (H, W, C) and the logits
transformers computes for it in float64.
"""
import json
import math
import sys
from pathlib import Path

import numpy as np
import torch
import transformers

OUT = Path(__file__).resolve().parents[1] / "exercises" / "checkpoints" / "tiny-vit"
CONFIG = dict(image_size=16, patch_size=4, num_channels=3, hidden_size=24, num_hidden_layers=2,
              num_attention_heads=3, intermediate_size=48, num_labels=5,
              layer_norm_eps=1e-6, hidden_act="gelu")
SEED = 2024


def randomize(model, generator):
    """Matrices N(0, 1/fan_in), LayerNorm weights 1 + N(0, 1/4), everything else N(0, 1)."""
    gains = {f"{n}.weight" for n, m in model.named_modules() if isinstance(m, torch.nn.LayerNorm)}
    with torch.no_grad():
        for name, p in model.named_parameters():
            noise = torch.randn(p.shape, generator=generator, dtype=torch.float64)
            if p.ndim >= 2 and "position_embeddings" not in name and "cls_token" not in name:
                noise /= math.sqrt(p[0].numel())
            elif name in gains:
                noise = 1.0 + 0.5 * noise
            p.copy_(noise.to(p.dtype))


def main():
    generator = torch.Generator().manual_seed(SEED)
    model = transformers.ViTForImageClassification(transformers.ViTConfig(**CONFIG)).eval()
    randomize(model, generator)
    OUT.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(OUT)
    # float32 values, exact in float64
    image = torch.randn(1, 3, 16, 16, generator=generator).double()
    with torch.no_grad():
        logits = model.double()(pixel_values=image).logits[0]
    np.savez(OUT / "sample.npz", image=image[0].permute(1, 2, 0).numpy(), logits=logits.numpy())
    versions = {"python": sys.version.split()[0], "torch": torch.__version__,
                "transformers": transformers.__version__}
    (OUT / "versions.json").write_text(json.dumps(versions, indent=2) + "\n")
    print(OUT, versions, logits.numpy())


if __name__ == "__main__":
    main()
