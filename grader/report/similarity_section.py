"""The class report's "Similar code" section: pairs from grader.similarity.pairs, escaped.

Advice for a person to read both files, never a grade: the section says so, and how a pair
was found (which files were ignored as the course's own code, what counted as common).
"""
from __future__ import annotations

from .escape import html_text as _e

# A shard's report: what is rare ("found in at most k of the N") is a property of the class
AT_MERGE = ("compared over the whole class when the shards are merged (vitgrade merge), never "
            "within one shard")


def similarity_section(similarity) -> str:
    """`similarity`: a grader.similarity.pairs.Similarity, or AT_MERGE (a shard's report)."""
    if similarity == AT_MERGE:
        return (f"<h2>Similar code</h2><p>Similar code is {_e(AT_MERGE)}: whether a fragment is "
                "rare, found in at most a few of the submissions, depends on the whole "
                "class.</p>")
    s = similarity
    intro = (f"<p>Pairs of submissions whose code is unusually similar, function by function: "
             f"they share fragments of code (variable names, comments and layout aside) found in "
             f"at most {s.rare_limit} of the {s.compared} submissions compared and not in the "
             f"course's own code"
             f"{' (' + _e(', '.join(s.ignored)) + ')' if s.ignored else ''}. "
             "This is advice for a person, not evidence and never a grade: read both files "
             "before drawing any conclusion.</p>")
    notes = []
    if s.without_code:
        notes.append(f"Not compared (not graded, or no code could be read from the file: "
                     f"not a .py or .ipynb, over 1 MB, or unreadable): "
                     f"{_e(', '.join(s.without_code))}.")
    if s.more:
        notes.append(f"{s.more} more pairs are not listed.")
    notes_html = "".join(f'<p class="note">{n}</p>' for n in notes)
    if not s.pairs:
        return (f"<h2>Similar code</h2>{intro}<p>No pair of submissions is unusually similar."
                f"</p>{notes_html}")
    rows = []
    for pair in s.pairs:
        functions = ", ".join(f"{m.function} ({100 * m.similarity:.0f}%)" for m in pair.matches)
        rows.append(f"<tr><td>{_e(pair.a)}</td><td>{_e(pair.b)}</td><td>{_e(functions)}</td></tr>")
    table = ("<table><thead><tr><th>student</th><th>student</th>"
             "<th>similar functions (share of the smaller version in common)</th></tr></thead>"
             f"<tbody>{''.join(rows)}</tbody></table>")
    return f"<h2>Similar code</h2>{intro}{table}{notes_html}"
