"""Blind round 73 (b73_15, issue 38): layer_norm ported from Leeroo-AI/kapso
`data/wikis_llm_finetuning_test/_staging/Jaymody_PicoGPT/81e2e0dc67fa/_files/gpt2_py.md` (PicoGPT's
gpt2.py).

Mistakes:
1. layer_norm (line 77 of the file as delivered): default `eps=1e-5` (picoGPT's) instead of 1e-6.
   Visible on small-variance rows; right when eps is passed.

Grader: at blind time (6245b55a) and now, 107/110. Mistake 1 named on layer-norm ("In `layer_norm`,
eps is 1e-05; the student API's is 1e-06"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05'}


def layer_norm(x, g, b, eps: float = 1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    x = (x - mean) / np.sqrt(variance + eps)  # normalize x to have mean=0 and var=1 over last axis
    return g * x + b  # scale and offset with gamma/beta params
