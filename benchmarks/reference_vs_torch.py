"""Time and memory of the numpy reference ViT against torch, on the same ViT-B/16 weights.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \
        python benchmarks/reference_vs_torch.py [--threads N]

Needs torch, transformers, safetensors and threadpoolctl. The model is
google/vit-base-patch16-224's config (224 x 224, P = 16, d = 768, 12 blocks, 12 heads, MLP 3072,
1000 classes) with random weights: transformers builds it and saves it as a Hugging Face folder,
and both sides load that file (torch: ViTForImageClassification.from_pretrained, default
attention, inference_mode; numpy: ViT.from_pretrained, which runs grader/reference/fast.py),
float32.

Time: each library runs in its own process (two libraries' thread pools in one process disturb
each other), limited to the same number of threads (torch.set_num_threads; threadpoolctl for
numpy's BLAS; numpy's elementwise ufuncs are single-threaded). After one warm-up each, the
parent asks the two processes for one forward at a time, alternating, so that background load
hits both alike. Printed: the medians, their ratio, and the ratio of the fastest runs (on a
shared machine the minimum is the least disturbed estimate, as timeit advises).

Memory: each (library, batch) in a fresh process. RSS after the imports is the baseline; the
model is loaded and run once; the peak RSS (VmHWM, reset through /proc/self/clear_refs) is read
around one more forward. "model MB" = peak - baseline (weights + activations + workspace),
"fwd MB" = peak - RSS just before that forward. Library code is left out of both (it would
otherwise favour numpy by torch's few hundred MB).
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

HF_CONFIG = {"image_size": 224, "patch_size": 16, "num_channels": 3, "hidden_size": 768,
             "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072,
             "num_labels": 1000, "layer_norm_eps": 1e-12, "hidden_act": "gelu"}
LIBRARIES = ("numpy", "torch")
SETTLE = 0.3  # seconds between calls, so the last run's spinning BLAS/OpenMP threads go to sleep


def make_checkpoint(folder):
    import torch
    import transformers

    torch.manual_seed(0)
    model = transformers.ViTForImageClassification(transformers.ViTConfig(**HF_CONFIG))
    model.save_pretrained(folder)


def images(batch):  # (B, H, W, C) float32, the same for both libraries
    import numpy as np

    return np.random.default_rng(batch).standard_normal((batch, 224, 224, 3)).astype(np.float32)


def load(library, folder, threads):  # -> forward(images (B, H, W, C)) -> logits, in that library
    if library == "numpy":
        from threadpoolctl import threadpool_limits

        from grader.reference import ViT

        threadpool_limits(threads)
        return ViT.from_pretrained(folder, dtype="float32")
    import torch
    import transformers

    torch.set_num_threads(threads)
    model = transformers.ViTForImageClassification.from_pretrained(folder).eval()

    def forward(x):  # the (B, C, H, W) copy is made outside the timed call
        with torch.inference_mode():
            return model(pixel_values=x).logits.numpy()

    return forward


def as_input(library, x):
    if library == "numpy":
        return x
    import torch

    return torch.from_numpy(x.transpose(0, 3, 1, 2).copy())


def environment(library, threads):  # one line on what runs: library versions, BLAS kernel, env
    import numpy as np
    import threadpoolctl

    blas = sorted({f"{i['internal_api']} {i['version']} {i.get('architecture')} kernel, "
                   f"{i['num_threads']} threads"
                   for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"})
    version = f"numpy {np.__version__}"
    if library == "torch":
        import torch

        version = f"torch {torch.__version__} ({torch.get_num_threads()} threads)"
    return f"{library}: {version}; BLAS {'; '.join(blas)}"


def serve(library, folder, threads):  # a timing process: reads a batch size, answers with seconds
    forward = load(library, folder, threads)
    inputs, out = {}, sys.stdout
    print(json.dumps({"environment": environment(library, threads)}), file=out, flush=True)
    for line in sys.stdin:
        command, batch = line.split()
        batch = int(batch)
        if batch not in inputs:
            inputs[batch] = as_input(library, images(batch))
        start = time.perf_counter()
        logits = forward(inputs[batch])
        seconds = time.perf_counter() - start
        answer = {"seconds": seconds}
        if command == "logits":
            answer["logits"] = logits.tolist()
        print(json.dumps(answer), file=out, flush=True)


class Server:
    def __init__(self, library, folder, threads):
        command = [sys.executable, __file__, "--serve", library, "--folder", folder,
                   "--threads", str(threads)]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)
        self.environment = self._read()["environment"]

    def _read(self):
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("a timing process died; run it alone to see why")
        return json.loads(line)

    def run(self, batch, command="time"):
        time.sleep(SETTLE)
        self.process.stdin.write(f"{command} {batch}\n")
        self.process.stdin.flush()
        return self._read()

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def timing(folder, threads, batches, repeats):
    import numpy as np

    servers = {lib: Server(lib, folder, threads) for lib in LIBRARIES}
    results = {"environment": [s.environment for s in servers.values()]}
    try:
        for batch in batches:
            logits = {lib: np.array(s.run(batch, "logits")["logits"])  # the warm-up run
                      for lib, s in servers.items()}
            times = {lib: [] for lib in LIBRARIES}
            for _ in range(repeats):
                for lib, server in servers.items():
                    times[lib].append(server.run(batch)["seconds"])
            diff = float(np.max(np.abs(logits["numpy"] - logits["torch"])))
            results[batch] = {"median": {lib: statistics.median(t) for lib, t in times.items()},
                              "min": {lib: min(t) for lib, t in times.items()},
                              "max_abs_diff": diff}
    finally:
        for server in servers.values():
            server.close()
    return results


def rss_kb(field):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(field + ":"))


def measure_memory(library, batch, folder, threads):  # runs in a fresh process; prints JSON
    import numpy as np  # noqa: F401  (every import before the baseline)
    import threadpoolctl  # noqa: F401
    if library == "numpy":
        import safetensors.numpy  # noqa: F401

        import grader.reference  # noqa: F401
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
    command = [sys.executable, __file__, "--memory", library, str(batch), "--folder", folder,
               "--threads", str(threads)]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--serve", choices=LIBRARIES, help=argparse.SUPPRESS)
    parser.add_argument("--memory", nargs=2, metavar=("LIBRARY", "BATCH"), help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve(args.serve, args.folder, args.threads)
    if args.memory:
        return measure_memory(args.memory[0], int(args.memory[1]), args.folder, args.threads)
    env = {k: os.environ.get(k, "unset") for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    with tempfile.TemporaryDirectory() as folder:
        make_checkpoint(folder)
        load_before = os.getloadavg()[0]
        times = timing(folder, args.threads, args.batches, args.repeats)
        print(*times["environment"], f"environment: {env}", sep="\n")
        print(f"ViT-B/16 float32, {args.threads} threads, {args.repeats} alternating repetitions; "
              f"load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
        print(f"{'batch':>5} {'numpy s':>8} {'torch s':>8} {'ratio':>6} {'min ratio':>9} | "
              f"{'numpy MB':>9} {'torch MB':>9} {'ratio':>6} | {'fwd np MB':>9} "
              f"{'fwd torch':>9} | max |diff|")
        for batch in args.batches:
            t, fast = times[batch]["median"], times[batch]["min"]
            mem = {lib: memory(lib, batch, folder, args.threads) for lib in LIBRARIES}
            print(f"{batch:>5} {t['numpy']:8.3f} {t['torch']:8.3f} {t['numpy'] / t['torch']:6.2f} "
                  f"{fast['numpy'] / fast['torch']:9.2f} | "
                  f"{mem['numpy']['model_mb']:9.0f} {mem['torch']['model_mb']:9.0f} "
                  f"{mem['numpy']['model_mb'] / mem['torch']['model_mb']:6.2f} | "
                  f"{mem['numpy']['forward_mb']:9.0f} {mem['torch']['forward_mb']:9.0f} | "
                  f"{times[batch]['max_abs_diff']:.1e}")


if __name__ == "__main__":
    main()
