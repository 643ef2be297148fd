"""The heads merged in another axis order (blind round 69, b69_06): the error model's "merged by a
reshape without moving the head axis back first" of code whose `combine_heads` does transpose
before its reshape (the heads stacked with `np.stack(..., axis=1)`, already (T, h, d_h)) said a
move was missing that the code has. Where the code moves axes before it reshapes, the hint says
what the values show and quotes the student's move (report/merge_order.py)."""
from __future__ import annotations

from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.report.merge_order import MERGED_UNMOVED, UNMOVED_TAIL, merge_order
from grader.report.quotes import Source

HINT = f"In `self_attention`, {MERGED_UNMOVED}{UNMOVED_TAIL}"

STACKED_THEN_MOVED = '''
import numpy as np

def self_attention(x, p, heads):
    T, d = x.shape
    def combine_heads(y):
        y = y.transpose(1, 0, 2)
        return y.reshape(T, d)
    outs = [x[:, h::heads] for h in range(heads)]
    return combine_heads(np.stack(outs, axis=1))
'''

MOVED_INLINE = '''
import numpy as np

def self_attention(x, p, heads):
    outs = np.stack([x for _ in range(heads)], axis=1)
    return np.reshape(np.swapaxes(outs, 0, 1), (x.shape[0], -1))
'''

# the split transposes, the merge reshapes alone: the move is missing indeed
BARE_MERGE = '''
import numpy as np

def self_attention(x, p, heads):
    T, d = x.shape
    q = x.reshape(T, heads, d // heads).transpose(1, 0, 2)
    out = q.transpose(0, 2, 1)
    out = q @ out
    return out.reshape(T, -1)
'''


def test_the_error_model_says_the_sentence_this_pass_reads():
    _, edits = em.model(REFERENCE["self_attention"])
    assert any(MERGED_UNMOVED + UNMOVED_TAIL in e.sentence for e in edits)


def test_a_merge_that_moves_axes_is_told_from_the_values_with_the_students_move():
    told = merge_order(HINT, Source([STACKED_THEN_MOVED]))
    assert "without moving the head axis" not in told
    assert "reach the merge in another axis order" in told
    assert "(`y.transpose(1, 0, 2)` in `combine_heads`)" in told
    inline = merge_order("2 mistakes at once: (1) " + HINT + " (2) more.",
                         Source([MOVED_INLINE]))
    assert "(`np.swapaxes(outs, 0, 1)`)" in inline and inline.endswith(" (2) more.")


def test_a_merge_without_a_move_keeps_its_sentence():
    assert merge_order(HINT, Source([BARE_MERGE])) == HINT
    assert merge_order(HINT, None) == HINT
    assert merge_order(HINT, Source(["def self_attention(:"])) == HINT
