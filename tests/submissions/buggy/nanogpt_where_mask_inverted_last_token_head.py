"""Blind round 9 (b9_02, issue 38): a submission ported from karpathy/nanoGPT (model.py) into numpy.

Mistakes:
1. self_attention: nanoGPT's `att.masked_fill(self.bias[:,:,:T,:T] == 0, float('-inf'))`
   ported as `np.where(bias == 0, att, -inf)`. masked_fill writes the value WHERE the
   condition holds; np.where keeps its second argument where it holds, so the mask is
   inverted: each token sees only later tokens and the last row is all -inf (NaN).
   Shows only with causal=True.
   Sources: karpathy/nanoGPT model.py CausalSelfAttention; the np.ma / boolean-index
   "mask means select or hide" confusion (https://coderapp.vercel.app/answer/62073661,
   https://devpeace.com/python/16724669/numpy-inverse-mask); pbloem/former issue #10
   (an all -inf row gives NaN after softmax).
2. vit_forward: the classifier reads the LAST token, as nanoGPT does for next-token logits
   (`logits = self.lm_head(x[:, [-1], :])`), instead of the [CLS] row 0.
   Shows on every input.
   Sources: karpathy/nanoGPT model.py GPT.forward / generate (`logits[:, -1, :]`);
   JamesMcGuigan/udacity-generative-ai README explaining `logits[:, -1, :]`.

Grader: both named: op:mask_inverted ("`np.where(mask, scores, -np.inf)` is written with its
condition inverted"; the blind run only observed NaN) and vit_last_row ("The head reads the last
token"; the random check names it as op:index x[-1]).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:mask_inverted:self_attention/attention:mask-inverted',
          'vit-forward': 'vit_last_row'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d), after nanoGPT's CausalSelfAttention."""
    T, C = x.shape
    if C % heads != 0:
        raise ValueError(f"n_embd {C} is not divisible by n_head {heads}")
    hs = C // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, hs).transpose(1, 0, 2)   # (nh, T, hs)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, hs).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, hs).transpose(1, 0, 2)
    att = (q @ k.transpose(0, 2, 1)) * (1.0 / math.sqrt(hs))
    if causal:
        bias = np.tril(np.ones((T, T)))
        # torch: att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float('-inf'))
        att = np.where(bias == 0, att, float("-inf"))
    att = softmax(att, axis=-1)
    y = att @ v                                            # (nh, T, hs)
    y = y.transpose(1, 0, 2).reshape(T, C)                 # re-assemble all head outputs side by side
    return y @ p["Wo"] + p["bo"]                           # c_proj


def vit_forward(image, params):
    """Logits (num_classes,) of one image, after nanoGPT's GPT.forward."""
    x = embed_image(image, params)                         # wte + wpe
    for block in params["blocks"]:                         # self.transformer.h
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])      # ln_f
    logits = x[-1, :] @ params["W_head"] + params["b_head"]  # lm_head on the last position
    return logits
