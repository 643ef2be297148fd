"""The generated part of docs/student-api.md: the course's own functions, as the specs'
`function:` declare them (grader/checks/course.py). `vitgrade render` keeps it up to date in the
project, `vitgrade dist` writes it into the student bundle's copy."""
from __future__ import annotations

from grader.checks.course import declarations

BEGIN = "<!-- the course's own functions: `vitgrade render` writes this part from the specs -->"
END = "<!-- end of the course's own functions -->"


def course_functions_part(folder) -> str:
    """The part, between its markers: a row per declared function, in the specs' order."""
    rows = [f"| `{d.name}({', '.join(d.params)})` | {d.description.replace('|', '/')} |"
            for d in declarations(folder).values()]
    body = ["| call | returns |", "|---|---|", *rows] if rows else [
        "None yet: every function above ships with the grader."]
    return "\n".join([BEGIN, "### The course's own functions", "", *body, END])


def with_course_functions(text: str, folder) -> str:
    """`text` (docs/student-api.md) with the part for the exercises folder `folder`: in place of
    the one it has, else at its end."""
    start, end = text.find(BEGIN), text.find(END)
    if 0 <= start < end:
        return text[:start] + course_functions_part(folder) + text[end + len(END):]
    return text.rstrip("\n") + "\n\n" + course_functions_part(folder) + "\n"
