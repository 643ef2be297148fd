"""Blind round 65 (b65_08, issue 38): embed_image, self_attention, gelu and vit_forward ported from
thealper2/deep-ml-solutions `0000-0099/0088-GPT-2-Text-Generation.py` (gpt2(), mha with np.split
heads, attention): gelu is the tanh approximation, accepted (CORRECT). The student's top-level
`attention` is nested in self_attention here: the builder replaces only the solution's own
definitions.

Mistakes:
11. self_attention (line 148 of the file as delivered): GPT-2's `(1 - np.tri(T)) * -1e10` mask
    always built and added, `causal` ignored. Wrong with the default causal=False (T > 1).
12. embed_image (line 111): GPT's `wte[inputs] + wpe[range(len(inputs))]`: positions 0..N-1
    added to the patch tokens before [CLS] is prepended. Wrong on any input.
13. vit_forward (line 174): GPT's `logits[-1]`, the last token, not the [CLS] row 0. Wrong on any
    input.

Grader: at blind time (0cd43d22) and now, 79/110, all three named. Mistake 11 on no-causal-mask's
mask check and multi-head-attention's three ("You applied GPT's causal mask although causal is
False ..."); why-positions' and no-causal-mask's default-call properties give their checklists
(true of the code). Mistake 12 on cls-and-positions' three checks ("In `embed_image`, the model
solution's `x + params['pos']` is added before the model solution's `np.vstack([params['cls'],
x])` ..."). Mistake 13 on vit-forward's two ("The head reads the last token; [CLS] is row 0." and,
hidden, "In `vit_forward`, the model solution's `x[0]` reads index -1 instead of 0: `x[-1]`.");
vit-checkpoint observes the three functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_causal',
          'no-causal-mask': 'attention_causal',
          'why-positions': 'attention_not_equivariant',
          'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack",
          'vit-forward': 'vit_last_row'}
ALIASES = ('gpt_causal_mask',)  # no-causal-mask's default check: the property's checklist
CORRECT = ('gelu',)  # the tanh approximation, accepted: keeps every point


def embed_image(image, params):
    """gpt2(): x = wte[inputs] + wpe[range(len(inputs))], with the patch tokens as wte[inputs]."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = x + params["pos"][range(len(x))]
    return np.concatenate([params["cls"][None, :], x], axis=0)


def self_attention(x, p, heads, causal=False):
    """mha(x, c_attn, c_proj, n_head) with separate q/k/v weights instead of one c_attn."""
    def attention(q, k, v, mask):
        return softmax(q @ k.T / np.sqrt(q.shape[-1]) + mask) @ v

    n_head = heads
    if x.shape[1] % n_head:
        raise ValueError("width must be divisible by the number of heads")
    qkv = [x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]]
    qkv_heads = list(map(lambda t: np.split(t, n_head, axis=-1), qkv))
    causal_mask = (1 - np.tri(x.shape[0], dtype=x.dtype)) * -1e10
    out_heads = [attention(q, k, v, causal_mask) for q, k, v in zip(*qkv_heads)]
    return np.hstack(out_heads) @ p["Wo"] + p["bo"]


def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))


def vit_forward(image, params):
    """gpt2(): blocks, then layer_norm(x, **ln_f); the logits are read from the last position."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    logits = layer_norm(x, params["ln_g"], params["ln_b"]) @ params["W_head"] + params["b_head"]
    return logits[-1]
