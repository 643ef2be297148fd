"""Blind round 76 (b76_03, issue 38): a CORRECT port in an unusual style (must get full marks):
ported from JulianKnodt/neural_layers `src/vit.py`, lucidrains vit-pytorch style: `pair()`,
PreNorm wrappers, einops' Rearrange written as reshape/transpose, per-head attention through a
(heads, T, d_h) layout, and an extra optional `pool='cls'` argument of `vit_forward` whose
default takes the [CLS] row.

tests/test_catalogue.py requires full marks.

No mistakes (the key checked non-square images, gray/C=2/C=3, heads 1/2/3/4/8/16, causal,
batched softmax (axis=1) and layer_norm, every ValueError, the worked example and the conv/linear
equivalence at stride P on 32x48, 12x8 and 8x8).

Grader: at blind time (fe8b70f1) and now, 110/110.
"""
# Modified version of lucidrains' vit-pytorch (vit_pytorch/vit.py), in numpy,
# one image at a time (channels last) for the Lab 4 API.

import math

import numpy as np


def pair(v): return v if isinstance(v, tuple) else (v, v)


# --- counting -----------------------------------------------------------------

def num_patches(H, W, P):
  image_height, image_width = H, W
  patch_height, patch_width = pair(P)
  if P <= 0 or image_height % patch_height != 0 or image_width % patch_width != 0:
    raise ValueError('Image dimensions must be divisible by the patch size.')
  num_high = image_height // patch_height
  num_wide = image_width // patch_width
  return num_high * num_wide


def num_tokens(H, W, P, cls_token=True):
  return num_patches(H, W, P) + int(bool(cls_token))


def patch_dim(P, C=3):
  patch_height, patch_width = pair(P)
  return C * patch_height * patch_width


def attention_scores(num_tokens):
  return num_tokens * num_tokens


# --- patch embedding ------------------------------------------------------------

def to_patches(img, p1, p2):
  # numpy version of Rearrange('(h p1) (w p2) c -> (h w) (p1 p2 c)')
  h, w, c = img.shape
  x = img.reshape(h // p1, p1, w // p2, p2, c)
  x = x.transpose(0, 2, 1, 3, 4)
  return x.reshape((h // p1) * (w // p2), p1 * p2 * c)


def patchify(image, P):
  img = np.asarray(image, dtype=float)
  if img.ndim == 2:
    img = img[..., None]
  if img.ndim != 3:
    raise ValueError('image must be (H, W) or (H, W, C)')
  num_patches(img.shape[0], img.shape[1], P)
  patch_height, patch_width = pair(P)
  return to_patches(img, patch_height, patch_width)


def linear_patch_embed(image, W_e, b_e, P):
  # to_patch_embedding = Rearrange -> Linear(patch_dim, dim)
  return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
  img = np.asarray(image, dtype=float)
  if img.ndim == 2:
    img = img[..., None]
  H, W, C = img.shape
  k = K.shape[0]
  if k > H or k > W:
    raise ValueError('kernel is larger than the image')
  out_h = (H - k) // stride + 1
  out_w = (W - k) // stride + 1
  out = np.zeros((out_h, out_w, K.shape[-1]))
  for i in range(out_h):
    for j in range(out_w):
      patch = img[i * stride:i * stride + k, j * stride:j * stride + k]
      out[i, j] = np.einsum('hwc,hwcd->d', patch, K) + b
  return out


def conv_equivalent(P):
  return (P, P)


def embed_image(image, params):
  x = linear_patch_embed(image, params['W_e'], params['b_e'], params['P'])
  n, _ = x.shape
  cls_tokens = params['cls'][None, :]
  x = np.concatenate([cls_tokens, x], axis=0)
  x = x + params['pos'][:(n + 1)]
  return x


# --- transformer ------------------------------------------------------------------

def softmax(x, axis=-1):
  x = np.asarray(x, dtype=float)
  e = np.exp(x - x.max(axis=axis, keepdims=True))
  return e / e.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
  mu = x.mean(axis=-1, keepdims=True)
  var = x.var(axis=-1, keepdims=True)
  return (x - mu) / np.sqrt(var + eps) * gamma + beta


def gelu(x):
  # nn.GELU(): the exact erf form
  erf = np.vectorize(math.erf)
  return 0.5 * x * (1 + erf(x / math.sqrt(2)))


def self_attention(x, p, heads, causal=False):
  n, dim = x.shape
  if dim % heads != 0:
    raise ValueError('dim must be divisible by heads')
  dim_head = dim // heads
  scale = dim_head ** -0.5

  qkv = (x @ p['Wq'] + p['bq'], x @ p['Wk'] + p['bk'], x @ p['Wv'] + p['bv'])
  q, k, v = map(lambda t: t.reshape(n, heads, -1).transpose(1, 0, 2), qkv)

  dots = np.matmul(q, k.transpose(0, 2, 1)) * scale
  if causal:
    dots = np.where(np.triu(np.ones((n, n), dtype=bool), 1), -np.inf, dots)

  attn = softmax(dots, axis=-1)

  out = np.matmul(attn, v).transpose(1, 0, 2).reshape(n, dim)
  return out @ p['Wo'] + p['bo']


def feed_forward(x, p):
  return gelu(x @ p['W1'] + p['b1']) @ p['W2'] + p['b2']


def encoder_block(x, p, heads):
  # PreNorm(dim, Attention) and PreNorm(dim, FeedForward), each with a residual
  x = self_attention(layer_norm(x, p['ln1_g'], p['ln1_b']), p, heads) + x
  x = feed_forward(layer_norm(x, p['ln2_g'], p['ln2_b']), p) + x
  return x


def vit_forward(image, params, pool='cls'):
  x = embed_image(image, params)
  for blk in params['blocks']:
    x = encoder_block(x, blk, params['heads'])
  x = layer_norm(x, params['ln_g'], params['ln_b'])
  # sequence of outputs:
  x = x.mean(axis=0) if pool == 'mean' else x[0]
  return x @ params['W_head'] + params['b_head']


ANSWERS = {
  'positions': 'permutation',
  'medical': 'pretrained',
  'causal_mask': 'bidirectional',
}
