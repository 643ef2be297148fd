"""The class report's page: HTML frame, style, and the one inline script (sorting tables).

The page loads nothing from outside, and its Content Security Policy allows exactly this script,
by its sha256, and images from data: URLs: were an escape ever missed, injected markup would
still not run. A table with class "sortable" sorts by a clicked column (again: the other way),
by each cell's `data-value`, numeric where the header says `data-sort="num"`.
"""
from __future__ import annotations

import base64
import hashlib

SORT_SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("th").forEach(function (th, column) {
    th.tabIndex = 0;
    function sort() {
      var numeric = th.dataset.sort === "num";
      var up = th.getAttribute("aria-sort") !== "ascending";
      table.querySelectorAll("th").forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[column], y = b.cells[column];
        x = x.dataset.value !== undefined ? x.dataset.value : x.textContent;
        y = y.dataset.value !== undefined ? y.dataset.value : y.textContent;
        var order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
        return up ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    }
    th.addEventListener("click", sort);
    th.addEventListener("keydown", function (e) { if (e.key === "Enter") sort(); });
  });
});
"""

_SCRIPT_HASH = base64.b64encode(hashlib.sha256(SORT_SCRIPT.encode()).digest()).decode()
POLICY = (f"default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
          f"script-src 'sha256-{_SCRIPT_HASH}'")


def page(title: str, body: str) -> str:
    """`title` and `body` are HTML already escaped by the caller."""
    return PAGE.format(title=title, body=body, policy=POLICY, script=SORT_SCRIPT)


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; }}
table {{ border-collapse: collapse; margin: 0.5rem 0 1.5rem; }}
th, td {{ border: 1px solid #ccc; padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }}
th {{ background: #f2f2f2; }}
table.sortable th {{ cursor: pointer; user-select: none; }}
table.sortable th::after {{ content: " \\2195"; color: #999; }}
table.sortable th[aria-sort=ascending]::after {{ content: " \\2191"; color: #222; }}
table.sortable th[aria-sort=descending]::after {{ content: " \\2193"; color: #222; }}
img {{ display: block; max-width: 100%; margin: 0.5rem 0; }}
.note {{ background: #fff6d5; padding: 0.5rem; }}
</style>
</head>
<body>
{body}
<script>{script}</script>
</body>
</html>
"""
