"""Blind round 65 (b65_03, issue 38): softmax ported from Nico-Curti/NumPyNet
`NumPyNet/layers/softmax_layer.py` (Softmax_layer.forward, spatial=False: the groups softmax
"inspired from darknet"), a 1-D input taken as a batch of one.

Mistakes:
5. softmax (lines 135-147 of the file as delivered): darknet's groups softmax, the max and the
   sum over every value of each first-axis entry (`inp = flat_input[b * inputs: ...]`), `axis`
   ignored. Right for 1-D input and for 2-D input with axis=-1; wrong for 3-D and up (not a
   softmax along -1 either) and for axis != -1.

Grader: at blind time (d3fd340b) stable-softmax 2/7, the visible small examples told "In
`softmax`, `axis` is taken as its default, -1, whatever is given." (true of its 2-D case, false
in 3-D: a wrong detail); the property and hidden checks, whose 3-D cases show it, got checklist
hints. Now named on the hidden check, whose 3-D cases tell it: "One slip, made at 2 places: (1)
In `softmax`, the model solution's `np.max(x, axis=axis, keepdims=True)` runs over every value of
each first-axis entry, whatever `axis` is, a 1-D array as one entry (darknet's groups softmax
...". The visible small examples (1-D and 2-D only, which cannot tell the two apart; a visible
check's words never rest on hidden cases) still read as `axis` taken as its default.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:all_but_first:softmax:max.axis-each-entry'
                            '+op:all_but_first:softmax:sum.axis-each-entry'}


def softmax(x, axis=-1, groups=1, temperature=1.):
    """Softmax_layer.forward (spatial=False): max and sum over every value of one batch entry."""
    inpt = np.asarray(x, dtype=float)
    if inpt.ndim == 1:
        inpt = inpt[None]
        squeeze = True
    else:
        squeeze = False
    batch = inpt.shape[0]
    inputs = inpt[0].size
    group_offset = inputs // groups
    temperature = 1. / temperature

    output = np.empty(inpt.shape)
    flat_input = inpt.ravel()
    flat_outpt = output.ravel()
    for b in range(batch):
        for g in range(groups):
            idx = b * inputs + g * group_offset
            inp = flat_input[idx: idx + group_offset]
            out = flat_outpt[idx: idx + group_offset]
            out[:] = np.exp((inp - inp.max()) * temperature)
            out[:] *= 1. / out.sum()

    output = flat_outpt.reshape(inpt.shape)
    return output[0] if squeeze else output
