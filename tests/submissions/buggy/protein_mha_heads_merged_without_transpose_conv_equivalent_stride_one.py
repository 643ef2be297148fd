"""Blind round 76 (b76_09, issue 38): self_attention and conv_equivalent ported from
Peter-obi/protein-structure-prediction-from-scratch `Part-1-Pytorch-Fundamentals/MHA.py`.

Mistakes:
1. self_attention (line 108 of the file as delivered): `attn_3.reshape(seq_length, embed_dim)`
   merges the heads from the (heads, T, d_h) layout without transposing back to (T, heads, d_h).
   Right with one head, wrong with several.
2. conv_equivalent (line 64): `(P, 1)`, stride 1, the overlapping-windows misconception. Wrong
   on every call.

Grader: at blind time (fe8b70f1) and now, 93/110. Mistake 1 named on multi-head-attention and
no-causal-mask ("the heads' outputs are merged by a reshape without moving the head axis back
first ..."), why-positions told by its property ("Your self_attention depends on the order of its
rows"), true, from mistake 1; mistake 2 on kernel-stride ("Stride 1 slides the kernel one pixel
at a time ... stride P"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_equivalent_stride_one',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'why-positions': 'attention_not_equivariant'}


def conv_equivalent(P):
  # kernel covers one patch; the kernel slides over the image
  return (P, 1)


def self_attention(x, p, heads, causal=False):
  seq_length, embed_dim = x.shape
  if embed_dim % heads != 0:
    raise ValueError("EMBED_DIM must be divisible by HEADS")
  head_dim = embed_dim // heads
  q = x @ p["Wq"] + p["bq"]
  q_split = q.reshape(seq_length, heads, head_dim)
  q = q_split.transpose(1, 0, 2)
  k = x @ p["Wk"] + p["bk"]
  k_split = k.reshape(seq_length, heads, head_dim)
  k = k_split.transpose(1, 0, 2)
  v = x @ p["Wv"] + p["bv"]
  v_split = v.reshape(seq_length, heads, head_dim)
  v = v_split.transpose(1, 0, 2)
  attn_1 = np.einsum('hid,hjd->hij', q, k) / math.sqrt(head_dim)
  if causal:
    attn_1 = np.where(np.tril(np.ones((seq_length, seq_length))) == 1, attn_1, -np.inf)
  attn_2 = softmax(attn_1, axis=-1)
  attn_3 = np.einsum('hij,hjd->hid', attn_2, v)
  out = attn_3.reshape(seq_length, embed_dim)
  return out @ p["Wo"] + p["bo"]
