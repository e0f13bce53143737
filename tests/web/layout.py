"""Layout checks for the browser tests: nothing wider than the window, nothing overlapping,
and the parts that must stay in view are in the window."""

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


def overflow(page: Any) -> int:
    """How many pixels the document is wider than the window (0 when it fits)."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def check_layout(page: Any, label: str) -> None:
    assert overflow(page) <= 0, f"{label}: the page is {overflow(page)} px wider than the window"
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
