"""vit_forward is left a stub, and layer_norm, before its own correct code, calls vit_forward on a
24-block ViT whose first LayerNorm gain has shape (1024, 1, 1): small arguments (about 200 KB)
that broadcast every block's activations 1024 times. Answered by running the reference in the
grading process, each such call took minutes. The grader never runs anything for a stand-in:
the call is not one the course solution makes, so it is unavailable at once."""
import numpy as np

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution
from correct_solution import layer_norm as _correct_layer_norm


def vit_forward(image, params):
    raise NotImplementedError()


def _long_call():
    rng = np.random.default_rng(0)
    d, hidden, P = 8, 32, 4

    def block():
        p = {f"W{n}": rng.standard_normal((d, d)) for n in "qkvo"}
        p.update({f"b{n}": np.zeros(d) for n in "qkvo"})
        p.update(ln1_g=np.ones((1024, 1, 1)), ln1_b=np.zeros(d), ln2_g=np.ones(d),
                 ln2_b=np.zeros(d), W1=rng.standard_normal((d, hidden)), b1=np.zeros(hidden),
                 W2=rng.standard_normal((hidden, d)), b2=np.zeros(d))
        return p

    params = {"P": P, "W_e": rng.standard_normal((P * P * 3, d)), "b_e": np.zeros(d),
              "cls": np.zeros(d), "pos": np.zeros((65, d)), "heads": 2,
              "blocks": [block() for _ in range(24)], "ln_g": np.ones(d), "ln_b": np.zeros(d),
              "W_head": rng.standard_normal((d, 10)), "b_head": np.zeros(10)}
    return vit_forward(rng.standard_normal((32, 32, 3)), params)


def layer_norm(x, gamma, beta, eps=1e-6):
    _long_call()
    return _correct_layer_norm(x, gamma, beta, eps)
