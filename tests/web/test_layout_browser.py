"""The layout check itself (tests/web/layout.py): it finds what hidden overflow hides, and
leaves out what is meant to pass the edge."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.layout import PHONE, overflow, past_the_edge

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html><head><meta name="viewport" content="width=device-width">
<style>
  body {{ margin: 0; }}
  main {{ overflow: hidden; }}
  .sr-only {{ position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }}
  .skip {{ position: absolute; left: -999px; }}
  .scroller {{ overflow-x: auto; }}
</style></head><body>
<a class="skip" href="#main">Skip</a>
<span class="sr-only">for screen readers only, however long this text is</span>
<div class="scroller"><table><tr><td style="min-width: 900px">wide, scrolled inside</td></tr></table></div>
<main id="main">{extra}</main>
</body></html>"""


def test_a_box_cut_off_by_hidden_overflow_is_found_and_the_meant_ones_are_not(
    browser: Any,
) -> None:
    page = browser.new_page(**PHONE)
    page.set_content(PAGE.format(extra=""))
    assert past_the_edge(page) == []
    page.set_content(
        PAGE.format(extra='<fieldset id="seating"><input style="width: 480px"></fieldset>')
    )
    # The document does not get wider (main hides what passes), yet the box is found.
    assert overflow(page) <= 0
    found = past_the_edge(page)
    assert len(found) == 1 and "fieldset#seating" in found[0] and "of 390" in found[0]
