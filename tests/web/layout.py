"""Layout checks for the browser tests: nothing past the window's edges, nothing
overlapping, and the parts that must stay in view are in the window.

"Past the edge" is measured element by element, not by the document's scroll width: a box
with ``overflow: hidden`` (or ``clip``) hides what passes the screen without widening the
document, so a cut-off form field or a half-shown table would pass a scroll-width check.
Two kinds of element are left out, since they are meant to be there:

- the content of an element that scrolls sideways on its own (``overflow-x: auto`` or
  ``scroll``, a wide table in its scroller): the element itself is measured, its content is
  reached by scrolling it;
- visually-hidden elements kept for screen readers (a 1 px clipped box such as
  ``.sr-only``), and skip links parked off-screen until they get focus.
"""

from __future__ import annotations

from typing import Any

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}

# Pairs of boxes that touch (overlap by more than a pixel) between seat plates and cards.
_OVERLAPS = """() => {
  const box = el => el.getBoundingClientRect();
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const seats = [...document.querySelectorAll('.felt .seat')];
  const cards = [...document.querySelectorAll('.felt .trick .played')];
  const out = [];
  for (const s of seats) for (const c of cards) if (hit(box(s), box(c))) out.push(s.dataset.place + '/' + c.className);
  return out;
}"""

# Every rendered element whose box ends past the window's right edge (or starts before its
# left edge), reported where the overflow starts: an element that passes the edge while
# its parent does not (its overflowing descendants are the same finding).
_PAST_THE_EDGE = """() => {
  const width = document.documentElement.clientWidth;  // the window without its scroll bar
  const slack = 0.5;  // sub-pixel rounding
  const scrollsSideways = s => s.overflowX === 'auto' || s.overflowX === 'scroll';
  const visuallyHidden = (el, s, r) => {
    if (r.width <= 1 && r.height <= 1) return true;  // the .sr-only pattern
    if (s.clip === 'rect(0px, 0px, 0px, 0px)' || s.clipPath === 'inset(50%)') return true;
    // A skip link (or any focusable helper) parked wholly off-screen until it is focused.
    const parked = (s.position === 'absolute' || s.position === 'fixed') && (r.right <= 0 || r.bottom <= 0);
    return parked && el.matches('a[href], button, [tabindex]');
  };
  const name = el => {
    let text = el.tagName.toLowerCase();
    if (el.id) text += '#' + el.id;
    else if (el.classList.length) text += '.' + [...el.classList].join('.');
    return text;
  };
  const path = el => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement) parts.unshift(name(e));
    return parts.join(' > ');
  };
  const found = [];
  const walk = (parent, parentPast) => {
    for (const el of parent.children) {
      const s = getComputedStyle(el);
      if (s.display === 'none') continue;
      const r = el.getBoundingClientRect();
      if (visuallyHidden(el, s, r)) continue;
      const shown = s.visibility !== 'hidden' && r.width > 0 && r.height > 0;
      const past = shown && (r.right > width + slack || r.left < -slack);
      if (past && !parentPast) {
        found.push(`${path(el)} spans ${Math.round(r.left)}..${Math.round(r.right)} px of ${width}`);
      }
      if (!scrollsSideways(s)) walk(el, past || parentPast);
    }
  };
  walk(document.body, false);
  return found;
}"""


def overflow(page: Any) -> int:
    """How many pixels the document is wider than the window (0 when it fits).

    Measured against the layout width (``clientWidth``), not ``innerWidth``: on a phone the
    browser zooms out to show a too-wide page whole, and ``innerWidth`` grows with it."""
    return int(
        page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    )


def past_the_edge(page: Any) -> list[str]:
    """The elements shown past the window's left or right edge (see the module's doc)."""
    return list(page.evaluate(_PAST_THE_EDGE))


def check_layout(page: Any, label: str) -> None:
    assert overflow(page) <= 0, f"{label}: the page is {overflow(page)} px wider than the window"
    past = past_the_edge(page)
    assert not past, f"{label}: elements pass the window's edge: {past[:10]}"
    overlaps = page.evaluate(_OVERLAPS)
    assert not overlaps, f"{label}: seat plates overlap cards on the felt: {overlaps}"


def in_viewport(page: Any, selector: str) -> bool:
    """The element is wholly inside the window (as it is shown, without scrolling)."""
    return bool(
        page.evaluate(
            """sel => { const el = document.querySelector(sel); if (!el) return false;
              const r = el.getBoundingClientRect();
              return r.height > 0 && r.top >= 0 && r.left >= 0
                && r.bottom <= window.innerHeight && r.right <= window.innerWidth; }""",
            selector,
        )
    )


def phone_context(browser: Any, signed_in: Any, base: str) -> Any:
    """A phone-sized context with the same session as ``signed_in``."""
    ctx = browser.new_context(**PHONE)
    ctx.add_cookies(
        [c for c in signed_in.cookies() if base.split("//")[1].split(":")[0] in c["domain"]]
    )
    ctx.set_default_timeout(30_000)
    return ctx
