"""Blind round 63 (b63_04, issue 38): self_attention ported from openai/improved-diffusion
`improved_diffusion/unet.py` (AttentionBlock, QKVAttention: channels-first (3C, T) qkv). The
student's top-level `qkv_attention` is nested in self_attention here: the builder replaces only
the solution's own definitions.

Mistakes:
7. self_attention via qkv_attention (lines 94-96 of the file as delivered, and the merge reshape
   at its end): heads split with `reshape(ch, n_heads, length)`, so head h takes every
   n_heads-th channel instead of the contiguous columns h*d_h:(h+1)*d_h; the merge interleaves
   back the same way. Wrong only with heads > 1.

Grader: at blind time (edc81c9a) and now, 96/110, named. Mistake 7 on multi-head-attention's
head-count and random checks and no-causal-mask's two ("In `self_attention`, your heads take
interleaved columns ... reshape(T, heads, d_h), not reshape(T, d_h, heads)"; one no-causal-mask
check says it in the words of the reference's code, split and merge both interleaved);
vit-checkpoint observes self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_heads_interleaved',
          'no-causal-mask': 'attention_heads_interleaved'}


def self_attention(x, p, heads, causal=False):
    def qkv_attention(qkv, n_heads, causal=False):
        """
        Apply QKV attention.

        :param qkv: an [(3 * C) x T] array of Qs, Ks, and Vs.
        :return: an [C x T] array after attention.
        """
        width, length = qkv.shape
        ch = width // (3 * n_heads)
        q, k, v = np.split(qkv, 3, axis=0)
        q = q.reshape(ch, n_heads, length).transpose(1, 0, 2)
        k = k.reshape(ch, n_heads, length).transpose(1, 0, 2)
        v = v.reshape(ch, n_heads, length).transpose(1, 0, 2)
        scale = 1 / math.sqrt(math.sqrt(ch))
        weight = np.einsum("bct,bcs->bts", q * scale, k * scale)  # More stable with f16 than dividing afterwards
        if causal:
            weight = np.where(np.tril(np.ones((length, length), dtype=bool)), weight, -np.inf)
        weight = softmax(weight, axis=-1)
        a = np.einsum("bts,bcs->bct", weight, v)
        return a.transpose(1, 0, 2).reshape(n_heads * ch, length)

    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide the width")
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    qkv = np.concatenate([q, k, v], axis=1).T          # (3d, T), channels first like the UNet
    h = qkv_attention(qkv, heads, causal=causal)       # (d, T)
    return h.T @ p["Wo"] + p["bo"]

