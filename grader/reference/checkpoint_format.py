"""What the checkpoint layouts share: file names, CheckpointError, config.json look-ups, the
checkpoint's tensors (`Weights`), and torch's patch-embedding kernel in the course's order.
"""
import numpy as np

CONFIG_FILE = "config.json"
WEIGHTS_FILE = "model.safetensors"

# config.json's activation names -> ViTConfig.activation (Hugging Face ACT2FN and timm names)
ACTIVATION_NAMES = {"gelu": "gelu",  # exact, erf-based (torch.nn.GELU, HF "gelu")
                    "quick_gelu": "quick_gelu",  # x * sigmoid(1.702 x) (CLIP)
                    "gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh",  # HF's tanh approx.
                    "gelu_tanh": "gelu_tanh"}  # timm's name for it

# a block's torch modules -> the student API's (weight, bias) keys: Linear layers, then LayerNorms
BLOCK_PARTS = {"q": ("Wq", "bq"), "k": ("Wk", "bk"), "v": ("Wv", "bv"), "o": ("Wo", "bo"),
               "fc1": ("W1", "b1"), "fc2": ("W2", "b2"), "ln1": ("ln1_g", "ln1_b"),
               "ln2": ("ln2_g", "ln2_b")}


class CheckpointError(ValueError):
    """A checkpoint folder the reference cannot load: the message says which file and key."""


def require(config, key, where=CONFIG_FILE):  # -> config[key], or CheckpointError naming it
    if key not in config:
        raise CheckpointError(f"{where} has no {key!r}; the reference reads it rather than "
                              f"assuming a default")
    return config[key]


def square(size, name):  # int or [h, w] -> int
    if isinstance(size, (list, tuple)):
        if len(size) != 2 or size[0] != size[1]:
            raise CheckpointError(f"{name} {size} is not square; the reference takes square images")
        size = size[0]
    return int(size)


def activation_name(name, where):  # config's activation name -> ViTConfig.activation
    if name not in ACTIVATION_NAMES:
        raise CheckpointError(f"{where}: activation {name!r} is not supported "
                              f"(supported: {sorted(ACTIVATION_NAMES)})")
    return ACTIVATION_NAMES[name]


class Weights:
    """The checkpoint's tensors, looked up by name; `check_all_used` refuses any left untaken."""

    def __init__(self, tensors, dtype):
        self.tensors, self.dtype, self.taken = tensors, np.dtype(dtype), set()

    def __contains__(self, name):
        return name in self.tensors

    def get(self, *names):  # the first of `names` present, as self.dtype
        for name in names:
            if name in self.tensors:
                self.taken.add(name)
                return self.tensors[name].astype(self.dtype, copy=False)
        raise CheckpointError(f"{WEIGHTS_FILE} has no tensor {' or '.join(map(repr, names))}")

    def linear(self, name, bias=True):  # torch Linear (out, in) -> (W [in, out], b [out])
        W = np.ascontiguousarray(self.get(f"{name}.weight").T)  # row-major, as init_params's
        if not bias:
            return W, np.zeros(W.shape[1], self.dtype)
        return W, self.get_or_zeros(f"{name}.bias", W.shape[1])

    def get_or_zeros(self, name, size):  # the tensor `name`, or zeros [size] (saved without bias)
        return self.get(name) if name in self else np.zeros(size, self.dtype)

    def norm(self, name):  # torch LayerNorm -> (gamma, beta)
        return self.get(f"{name}.weight"), self.get(f"{name}.bias")

    def patch_embedding(self, name):  # torch conv weight (D, C, P, P) -> W_e [P*P*C, D]
        return patch_weight(self.get(name))

    def block(self, module):  # -> one block dict in the student API's layout
        """One encoder block, `module(part)` naming the torch module of each of BLOCK_PARTS."""
        block = {}
        for part, (W, b) in BLOCK_PARTS.items():
            read = self.norm if part.startswith("ln") else self.linear  # no bias saved: zeros
            block[W], block[b] = read(module(part))
        return block

    def check_all_used(self, where, ignore=()):
        """CheckpointError when a tensor would be silently dropped (a part of the model not mapped).

        Prefixes in `ignore` and position_ids (arange buffers older transformers saved) are left.
        """
        left = sorted(n for n in self.tensors if n not in self.taken
                      and not n.startswith(tuple(ignore)) and not n.endswith("position_ids"))
        if left:
            shown = ", ".join(left[:6]) + (f", ... ({len(left)} in all)" if len(left) > 6 else "")
            raise CheckpointError(f"{where}: tensors the reference does not map: {shown}")


def patch_weight(w):  # torch conv (D, C, P, P) -> W_e (P*P*C, D), flattened as (p1, p2, c)
    """W_e[(p1, p2, c), d] = w[d, c, p1, p2]: a permutation, then a reshape (a bare reshape of
    (D, C, P, P) would flatten patches as (c, p1, p2) and scramble every token)."""
    D, C, P, _ = w.shape
    return np.ascontiguousarray(w.transpose(2, 3, 1, 0)).reshape(P * P * C, D)
