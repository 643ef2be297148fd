"""Blind round 8 (b8_05, issue 38): self_attention and encoder_block after karpathy's nanoGPT
(CausalSelfAttention's tril buffer, Block).

Mistakes:
1. self_attention: with causal=True the 0/1 tril buffer is added to the scores
   (`att = att + bias`, the additive attention-mask habit of huggingface/transformers#205, #542,
   #13555) instead of filling the hidden scores with -inf, so later tokens are not hidden. Shows
   only with causal=True.
2. encoder_block: nanoGPT's Block is copied with its attention: the block calls
   `self_attention(..., causal=True)`. Shows always (T > 1).

Grader: the added mask is named (op:mask_added: "the 0/1 mask is added to the scores, `scores +
mask`"). The causal block is named too (encoder_causal):
its call `self_attention(..., causal=True)` is answered by the grader's stand-in with the mask
it asks for (an API option passed on, computed by the reference), so the block is graded on its
own code. Before, the stand-in answered the default only and the block got "only in 1 of 5
rows".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:mask_added:self_attention/attention:mask-added',
          'encoder-block': 'encoder_causal'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6)."""
    T, C = x.shape
    if C % heads != 0:
        raise ValueError("n_embd must be divisible by n_head")
    hs = C // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, hs).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, hs).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, hs).transpose(1, 0, 2)
    att = (q @ k.transpose(0, 2, 1)) * (1.0 / math.sqrt(hs))
    if causal:
        bias = np.tril(np.ones((T, T)))   # the registered causal buffer
        att = att + bias
    att = softmax(att, axis=-1)
    y = att @ v
    y = y.transpose(1, 0, 2).reshape(T, C)
    return y @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    """Block: x = x + attn(ln_1(x)); x = x + mlp(ln_2(x))."""
    def _mlp(x, p):
        x = x @ p["W1"] + p["b1"]   # c_fc
        x = gelu(x)
        x = x @ p["W2"] + p["b2"]   # c_proj
        return x
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads, causal=True)
    x = x + _mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x
