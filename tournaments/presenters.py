"""Standings as HTML table rows, built in Python: a 1,000-line table through the template
engine costs over 100 ms of node rendering; one escaped format string per line costs a
few milliseconds."""

from __future__ import annotations

from django.utils.formats import get_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from tournaments.models import EntrantStatus
from tournaments.selectors import Standings


def _point() -> str:
    """The active language's decimal mark (per table, not per cell)."""
    return str(get_format("DECIMAL_SEPARATOR"))


def halves(value: int, point: str = ".") -> str:
    """Half points as text: ``3`` -> ``1.5``, ``4`` -> ``2`` (``point``: the decimal mark)."""
    return f"{value // 2}{point}5" if value % 2 else str(value // 2)


def quarters(value: int, point: str = ".") -> str:
    """Quarter points as text: ``5`` -> ``1.25``."""
    return f"{value / 4:g}".replace(".", point)


def standings_rows(table: Standings) -> SafeString:
    duplicate = table.tournament.is_duplicate
    point = _point()
    out = []
    for line in table.lines:
        withdrawn = table.statuses[line.entrant_id] == EntrantStatus.WITHDRAWN
        cls = ' class="withdrawn"' if withdrawn else ""
        name = escape(table.names[line.entrant_id])
        if duplicate:
            cells = f'<td class="num">{line.percent}%</td><td class="num">{line.total}</td>'
        else:
            cells = (
                f'<td class="num">{halves(line.half_points, point)}</td>'
                f'<td class="num">{halves(line.buchholz, point)}</td>'
                f'<td class="num">{quarters(line.sonneborn_berger, point)}</td>'
                f'<td class="num">{line.total}</td>'
            )
        out.append(f'<tr{cls}><td class="num">{line.rank}</td><td>{name}</td>{cells}</tr>')
    return mark_safe("\n".join(out))  # every value is an int or escaped above
