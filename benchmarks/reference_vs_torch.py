"""Time and memory of the numpy reference ViT against torch, on the same ViT-B/16 weights.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/reference_vs_torch.py [--threads N]

Needs torch, transformers and safetensors. The model is google/vit-base-patch16-224's config
(224 x 224, P = 16, d = 768, 12 blocks, 12 heads, MLP 3072, 1000 classes) with random weights:
transformers builds it, saves it as a Hugging Face folder, and both sides load that folder
(torch: ViTForImageClassification.from_pretrained, default attention; numpy:
ViT.from_pretrained), float32.

Time: one process, both libraries limited to the same number of threads (torch.set_num_threads,
threadpoolctl for numpy's BLAS; numpy's elementwise ufuncs are single-threaded), one warm-up
each, then numpy and torch calls alternate so that any background load hits both alike; the
medians and their ratio are printed, and the ratio of the fastest runs (on a shared machine the
minimum is the least disturbed estimate; timeit's advice). torch runs under inference_mode.

Memory: each (library, batch) in a fresh subprocess. RSS after the imports is the baseline; the
model is loaded and run once; the peak RSS (VmHWM, reset through /proc/self/clear_refs) is then
read around one more forward. "model" = peak - baseline (weights + activations + workspace),
"forward" = peak - RSS just before that forward (activations and workspace only). Library
code is left out of both, which would otherwise favour numpy by torch's few hundred MB.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

HF_CONFIG = dict(image_size=224, patch_size=16, num_channels=3, hidden_size=768, num_hidden_layers=12,
                 num_attention_heads=12, intermediate_size=3072, num_labels=1000,
                 layer_norm_eps=1e-12, hidden_act="gelu")


def make_checkpoint(folder):
    import torch
    import transformers

    torch.manual_seed(0)
    model = transformers.ViTForImageClassification(transformers.ViTConfig(**HF_CONFIG))
    model.save_pretrained(folder)


def images(batch):  # (B, H, W, C) float32
    import numpy as np

    return np.random.default_rng(batch).standard_normal((batch, 224, 224, 3)).astype(np.float32)


def load(library, folder, threads):  # -> forward(images) for that library
    if library == "numpy":
        from threadpoolctl import threadpool_limits

        from grader.reference import ViT

        threadpool_limits(threads)
        model = ViT.from_pretrained(folder, dtype="float32")
        return model
    import torch
    import transformers

    torch.set_num_threads(threads)
    model = transformers.ViTForImageClassification.from_pretrained(folder).eval()

    def forward(x):
        with torch.inference_mode():
            return model(pixel_values=torch.from_numpy(x)).logits.numpy()

    return forward


def as_input(library, x):  # torch takes (B, C, H, W)
    return x if library == "numpy" else x.transpose(0, 3, 1, 2).copy()


def rss_kb(field):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(field + ":"))


def measure_memory(library, batch, folder, threads):  # runs in a subprocess; prints JSON
    import numpy as np  # noqa: F401  (imports before the baseline)
    if library == "numpy":
        import grader.reference  # noqa: F401
        import threadpoolctl  # noqa: F401
        import safetensors.numpy  # noqa: F401
    else:
        import torch  # noqa: F401
        import transformers  # noqa: F401
    baseline = rss_kb("VmRSS")
    forward = load(library, folder, threads)
    x = as_input(library, images(batch))
    forward(x)  # warm-up: allocator caches and BLAS buffers count as what the model needs
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # resets VmHWM to the current RSS
    before = rss_kb("VmRSS")
    forward(x)
    peak = rss_kb("VmHWM")
    print(json.dumps({"model_mb": (peak - baseline) / 1024, "forward_mb": (peak - before) / 1024}))


def memory(library, batch, folder, threads):
    out = subprocess.run([sys.executable, __file__, "--memory", library, str(batch), "--folder", str(folder),
                          "--threads", str(threads)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def timing(folder, threads, batches, repeats):
    import numpy as np

    forwards = {lib: load(lib, folder, threads) for lib in ("numpy", "torch")}
    results = {}
    for batch in batches:
        x = images(batch)
        inputs = {lib: as_input(lib, x) for lib in forwards}
        outs = {lib: forwards[lib](inputs[lib]) for lib in forwards}  # warm-up
        times = {lib: [] for lib in forwards}
        for _ in range(repeats):
            for lib in forwards:
                start = time.perf_counter()
                forwards[lib](inputs[lib])
                times[lib].append(time.perf_counter() - start)
        results[batch] = {lib: statistics.median(t) for lib, t in times.items()}
        results[batch]["max_abs_diff"] = float(np.max(np.abs(outs["numpy"] - outs["torch"])))
        results[batch]["spread"] = {lib: (min(t), max(t)) for lib, t in times.items()}
    return results


def environment(threads):
    import numpy as np
    import threadpoolctl
    import torch

    blas = [f"{i['internal_api']} {i['version']} ({i.get('architecture')}, {i['num_threads']} threads)"
            for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
    env = {k: os.environ.get(k, "unset") for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    return (f"threads: {threads} (torch.get_num_threads() = {torch.get_num_threads()}); numpy {np.__version__}, "
            f"BLAS {', '.join(blas)}; torch {torch.__version__}; {env}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--memory", nargs=2, metavar=("LIBRARY", "BATCH"), help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory:
        return measure_memory(args.memory[0], int(args.memory[1]), args.folder, args.threads)
    with tempfile.TemporaryDirectory() as folder:
        make_checkpoint(folder)
        times = timing(folder, args.threads, args.batches, args.repeats)
        print(environment(args.threads))
        print(f"ViT-B/16 float32, {args.repeats} alternating repetitions, medians; load average "
              f"{os.getloadavg()[0]:.2f}")
        print(f"{'batch':>5} {'numpy s':>8} {'torch s':>8} {'ratio':>6} {'min ratio':>9} | {'numpy MB':>9} "
              f"{'torch MB':>9} {'ratio':>6} | {'fwd np MB':>9} {'fwd torch':>9} | max |diff|")
        for batch in args.batches:
            t = times[batch]
            mem = {lib: memory(lib, batch, folder, args.threads) for lib in ("numpy", "torch")}
            fastest = t["spread"]["numpy"][0] / t["spread"]["torch"][0]
            print(f"{batch:>5} {t['numpy']:8.3f} {t['torch']:8.3f} {t['numpy'] / t['torch']:6.2f} {fastest:9.2f} | "
                  f"{mem['numpy']['model_mb']:9.0f} {mem['torch']['model_mb']:9.0f} "
                  f"{mem['numpy']['model_mb'] / mem['torch']['model_mb']:6.2f} | "
                  f"{mem['numpy']['forward_mb']:9.0f} {mem['torch']['forward_mb']:9.0f} | "
                  f"{t['max_abs_diff']:.1e}")


if __name__ == "__main__":
    main()
