"""Blind round 30 (b30_07, issue 38): ported from pytorch/examples word_language_model/model.py
(TransformerModel.forward: input_emb(src) * math.sqrt(ninp), then PositionalEncoding; has_mask
=True with _generate_square_subsequent_mask). The student's helper
`_generate_square_subsequent_mask` is nested in self_attention already.

Mistakes:
1. embed_image: the patch tokens are multiplied by sqrt(d) before [CLS] and the positions.
2. self_attention: `causal=True` in the signature (the model's has_mask=True), so every caller
   using the default gets a causal mask. A call naming causal is right.

Grader: at blind time, named: the embeddings "multiplied by the square root of its width d" on
cls-and-positions; "`causal` defaults to True (`causal=True` in the signature)" on
multi-head-attention; why-positions and no-causal-mask lost points with true checklists. Now
those two name it as well: the property's cause, checked on every call (causal_default_true:
"masks the later tokens when `causal` is left out"); vit-checkpoint observes the broken
functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:scaled_by_width:embed_image:linear_patch_embed-times-sqrt-d',
          'why-positions': 'causal_default_true',
          'no-causal-mask': 'causal_default_true',
          'multi-head-attention': 'op:default_flipped:self_attention:causal-defaults-True'}


def embed_image(image, params):
    """TransformerModel.forward: src = self.input_emb(src) * math.sqrt(self.ninp); src = self.pos_encoder(src)."""
    ninp = params["W_e"].shape[1]
    src = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"]) * math.sqrt(ninp)
    src = np.concatenate([params["cls"][None, :], src], axis=0)
    # PositionalEncoding.forward: x = x + self.pe[:x.size(0), :]
    return src + params["pos"][:src.shape[0], :]


def self_attention(x, p, heads, causal=True):
    """Multi-head attention with the word_language_model's square subsequent mask (has_mask=True)."""
    def _generate_square_subsequent_mask(sz):
        with np.errstate(divide="ignore"):
            return np.log(np.tril(np.ones((sz, sz))))

    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    head_dim = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, head_dim).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, head_dim).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, head_dim).transpose(1, 0, 2)
    attn = q @ k.transpose(0, 2, 1) / math.sqrt(head_dim)
    if causal:
        attn = attn + _generate_square_subsequent_mask(T)
    out = softmax(attn, axis=-1) @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
