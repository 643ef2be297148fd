"""Blind round 23 (b23_03, issue 38): layer_norm and embed_image ported from Google's
gemma_pytorch (gemma/model.py: RMSNorm's `output * (1 + self.weight)`, the embedder's
`hidden_states * normalizer` with normalizer = hidden_size ** 0.5).

Mistakes:
1. layer_norm keeps Gemma's gain convention: the normalised x is multiplied by (1 + gamma)
   instead of gamma.
2. embed_image keeps Gemma's embedding normaliser: the patch tokens are multiplied by sqrt(d)
   before [CLS] is prepended and the positions are added.

Grader: at blind time and now, both named: `gamma` used as an offset from one, `* (1 + gamma)`
"(as Gemma's norm stores its gain)", on layer-norm, and the output of `linear_patch_embed(...)`
multiplied by the square root of its width d on cls-and-positions; vit-checkpoint observes the
broken functions. The student's gelu is the tanh approximation (gemma's gelu(approximate='tanh')),
accepted: it is kept here (CORRECT) so that vit-checkpoint's logits are the whole file's. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:gain_from_one:layer_norm:1-plus-gamma',
          'cls-and-positions': 'op:scaled_by_width:embed_image:linear_patch_embed-times-sqrt-d'}
CORRECT = ('gelu',)  # the tanh approximation, accepted: keeps every point


def embed_image(image, params):
    hidden_states = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    normalizer = np.asarray(hidden_states.shape[-1] ** 0.5, dtype=hidden_states.dtype)
    hidden_states = hidden_states * normalizer
    hidden_states = np.concatenate([params["cls"][None], hidden_states], axis=0)
    return hidden_states + params["pos"]


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    mean = x.mean(-1, keepdims=True)
    output = (x - mean) / np.sqrt(((x - mean) ** 2).mean(-1, keepdims=True) + eps)
    return output * (1 + gamma) + beta


def gelu(x):
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
