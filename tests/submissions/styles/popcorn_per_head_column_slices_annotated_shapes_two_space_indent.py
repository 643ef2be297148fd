"""Blind round 79 (b79_05, issue 38): a CORRECT port in an unusual style (must get full marks):
ported from ratcht/popcorn `pytorch/attention.py` (SelfAttentionHead, one head at a time) and
`torch_op/layernorm.py`, kept as delivered: two-space indentation, `typing.Annotated` shape
strings on patchify and conv_patch_embed, attention as a loop over heads, each a column slice of
Wq/Wk/Wv given to a helper with its own tril mask (only when causal=True), the heads'
outputs concatenated; a patchify by explicit loops over the patch grid; scipy's erf GELU; and
the delivered file's `if __name__ == "__main__":` self-test.

tests/test_catalogue.py requires full marks.

No mistakes (the key checked square and non-square images, a gray image, C=2, conv with k=P/s=P,
k=3/s=2 on 9x7 and 8x7 and k=2/s=1, softmax on 2-D/3-D and near 1000, layer_norm on batched
input and eps=0.5, heads 1/2/4 with and without causal, every ValueError and ANSWERS).

Grader: at blind time (50c6c808) and now, 110/110.
"""
from typing import Annotated

import numpy as np
from scipy.special import erf


# ---- counting ---------------------------------------------------------------

def num_patches(H, W, P):
  if H % P != 0 or W % P != 0:
    raise ValueError(f"patch size {P} does not divide image {H}x{W}")
  return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
  n = num_patches(H, W, P)
  if cls_token:
    n += 1
  return n


def patch_dim(P, C=3):
  return P * P * C


def attention_scores(num_tokens):
  return num_tokens ** 2


# ---- patches ----------------------------------------------------------------

def _hwc(image):
  image = np.asarray(image, dtype=float)
  if image.ndim == 2:
    image = image[..., None]
  if image.ndim != 3:
    raise ValueError(f"image must be (H, W) or (H, W, C), got {image.shape}")
  return image


def patchify(
    image: Annotated[np.ndarray, "H W C"],
    P: int,
  ) -> Annotated[np.ndarray, "N P*P*C"]:
  image = _hwc(image)
  H, W, C = image.shape
  num_patches(H, W, P)
  rows = []
  for i in range(H // P):          # top to bottom
    for j in range(W // P):        # left to right
      patch = image[i * P:(i + 1) * P, j * P:(j + 1) * P, :]   # P P C
      rows.append(patch.reshape(-1))
  return np.stack(rows)


def linear_patch_embed(image, W_e, b_e, P):
  return patchify(image, P) @ W_e + b_e   # (N PPC) @ (PPC d) -> N d


def conv_patch_embed(
    image: Annotated[np.ndarray, "H W C"],
    K: Annotated[np.ndarray, "k k C d"],
    b: Annotated[np.ndarray, "d"],
    stride: int,
  ) -> Annotated[np.ndarray, "H_out W_out d"]:
  image = _hwc(image)
  H, W, C = image.shape
  k = K.shape[0]
  if k > H or k > W:
    raise ValueError(f"kernel {k} does not fit in {H}x{W}")
  H_out = (H - k) // stride + 1
  W_out = (W - k) // stride + 1
  out = np.empty((H_out, W_out, K.shape[-1]))
  for i in range(H_out):
    for j in range(W_out):
      window = image[i * stride:i * stride + k, j * stride:j * stride + k, :]  # k k C
      out[i, j] = np.tensordot(window, K, axes=3) + b
  return out


def conv_equivalent(P):
  return (P, P)


def embed_image(image, params):
  tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])   # N d
  tokens = np.concatenate([params["cls"][None, :], tokens], axis=0)               # N+1 d
  return tokens + params["pos"]


# ---- attention ----------------------------------------------------------------

def softmax(x, axis=-1):
  x = np.asarray(x, dtype=float)
  x_max = np.max(x, axis=axis, keepdims=True)
  e = np.exp(x - x_max)
  return e / e.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
  x_mean = x.mean(axis=-1, keepdims=True)
  x_var = x.var(axis=-1, keepdims=True, ddof=0)
  return ((x - x_mean) / np.sqrt(x_var + eps)) * gamma + beta


def _attention_head(x, W_Q, b_Q, W_K, b_K, W_V, b_V, causal):
  seq_len = x.shape[0]
  head_size = W_Q.shape[1]

  Q = x @ W_Q + b_Q   # seq_len head_size
  K = x @ W_K + b_K
  V = x @ W_V + b_V

  att = Q @ K.T       # (S H) @ (H S) -> S S
  att = att / (head_size ** 0.5)

  if causal:
    mask = np.tril(np.ones((seq_len, seq_len)))
    att = np.where(mask == 0, -np.inf, att)

  att = softmax(att, axis=-1)
  return att @ V      # (S S) @ (S H) -> S H


def self_attention(x, p, heads, causal=False):
  seq_len, embed_dim = x.shape
  if embed_dim % heads != 0:
    raise ValueError(f"embed_dim {embed_dim} not divisible by {heads} heads")
  head_size = embed_dim // heads

  outs = []
  for h in range(heads):
    cols = slice(h * head_size, (h + 1) * head_size)
    outs.append(_attention_head(
      x,
      p["Wq"][:, cols], p["bq"][cols],
      p["Wk"][:, cols], p["bk"][cols],
      p["Wv"][:, cols], p["bv"][cols],
      causal,
    ))
  out = np.concatenate(outs, axis=-1)   # seq_len embed_dim
  assert out.shape == (seq_len, embed_dim)
  return out @ p["Wo"] + p["bo"]


def gelu(x):
  return 0.5 * x * (1 + erf(x / np.sqrt(2)))


def encoder_block(x, p, heads):
  x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
  h = layer_norm(x, p["ln2_g"], p["ln2_b"])
  x = x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
  return x


def vit_forward(image, params):
  x = embed_image(image, params)
  for block in params["blocks"]:
    x = encoder_block(x, block, params["heads"])
  x = layer_norm(x, params["ln_g"], params["ln_b"])
  cls = x[0]
  return cls @ params["W_head"] + params["b_head"]


ANSWERS = {
  "positions": "permutation",
  "medical": "pretrained",
  "causal_mask": "bidirectional",
}


if __name__ == "__main__":
  rng = np.random.default_rng(0)
  x = rng.normal(size=(4, 8))
  print("max diff:", np.abs(layer_norm(x, np.ones(8), np.zeros(8)) - (x - x.mean(-1, keepdims=True)) / x.std(-1, keepdims=True)).max())
