"""Blind round 10 (b10_08, issue 38): einsum attention (as in aladdinpersson/Machine-Learning-Collection,
whose issue #165 is a mismatched einsum letter) and GPT-2's tanh GELU ("gelu_new",
openai/gpt-2 src/model.py; tinygrad PR #5048 moved a bracket in it).

Mistakes:
1. self_attention: 'hqk,vhd->qhd' (a new letter for the value tokens): the weights are summed
   away and every token gets the sum of its head's values. Right only with T = 1.
2. encoder_block: tanh(sqrt(2/pi) * x + 0.044715 * x**3), the cubic term outside the factor.
   Visible for larger |x|.

Grader: no hint on any failed self_attention check; why-positions observes that embed_image
tells the moved tiles apart and self_attention loses it (positions_lost_in_attention; before, the
spec's "bag of tiles" checklist blamed embed_image, whose positions are right); the GELU slip is
observed as some rows wrong (some_rows_wrong). Nothing named.
Since session 16 the einsum letter is named (op:letters_mismatched: each side summed over its
own axis); the GELU bracket is still only observed, so in unnamed/.
Since session 17 the GELU bracket is named too (alternatives.py's slip: GELU's tanh
approximation with its brackets dropped, offered since APART is 5e-3): every mistake named, so
in buggy/; vit-checkpoint observes the broken functions (not in EXPECT).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:letters_mismatched:self_attention/attention:v-sums-multiplied',
          'no-causal-mask': 'op:letters_mismatched:self_attention/attention:v-sums-multiplied',
          'encoder-block': ('op:activation_slip:encoder_block/mlp:'
                            'act=gelu_tanh.math.sqrt(2.0math.pi)-brackets-dropped')}
ALIASES = ('positions_lost_in_attention',)  # why-positions' verdict on the einsum: where the
# tiles' order is lost (its observation, true of self_attention)


def self_attention(x, p, heads, causal=False):
    """Multi-head attention written with einsum (no explicit transposes)."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"dim {d} must be divisible by heads {heads}")
    dh = d // heads
    q = np.einsum('td,de->te', x, p["Wq"]) + p["bq"]
    k = np.einsum('td,de->te', x, p["Wk"]) + p["bk"]
    v = np.einsum('td,de->te', x, p["Wv"]) + p["bv"]
    q, k, v = (t.reshape(T, heads, dh) for t in (q, k, v))
    logits = np.einsum('qhd,khd->hqk', q, k) / np.sqrt(dh)
    if causal:
        logits = np.where(np.tril(np.ones((T, T), dtype=bool)), logits, -np.inf)
    weights = softmax(logits, axis=-1)
    out = np.einsum('hqk,vhd->qhd', weights, v)
    return out.reshape(T, d) @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    """Pre-LN block with GPT-2's tanh GELU ("gelu_new")."""
    def gelu_new(h):
        return 0.5 * h * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * h + 0.044715 * np.power(h, 3.0)))

    h = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    m = layer_norm(h, p["ln2_g"], p["ln2_b"])
    return h + gelu_new(m @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
