"""Render the app's icons (static/icons/*.png) from static/favicon.svg.

Run by ``make icons`` after the favicon changes; the PNGs are kept in git, so neither the
site nor its tests need the renderer. CairoSVG (the ``icons`` extra) draws them: a
well-kept SVG renderer on Cairo, which the browser's own packages already bring.

- ``icon-192.png``, ``icon-512.png``: the favicon as drawn (purpose "any").
- ``maskable-512.png``: full-bleed background, the card within the inner 80% circle that
  every platform's mask keeps (purpose "maskable", https://w3c.github.io/manifest/#icon-masks).
- ``apple-touch-icon.png`` (180 px): iOS draws home-screen icons square, without
  transparency, and rounds them itself: the maskable drawing fits it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import cairosvg

ROOT = Path(__file__).resolve().parents[1]
FAVICON = ROOT / "static" / "favicon.svg"
OUT = ROOT / "static" / "icons"
# The card and its joker, scaled about the centre so their corners stay well inside the
# safe circle (radius 40% of the side): 0.75 puts the farthest corner at 34% of the side.
MASKABLE_SCALE = 0.75


def _maskable(svg: str) -> str:
    """The favicon with its rounded background squared off and the drawing scaled in."""
    background = re.search(r'<rect width="64" height="64" rx="12" fill="(#[0-9a-f]+)"/>', svg)
    if background is None:
        raise SystemExit("static/favicon.svg: its 64x64 background rect was not found")
    inner = svg[background.end() : svg.rindex("</svg>")]
    offset = 32 * (1 - MASKABLE_SCALE)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
        f'<rect width="64" height="64" fill="{background.group(1)}"/>'
        f'<g transform="translate({offset:g} {offset:g}) scale({MASKABLE_SCALE:g})">{inner}</g>'
        "</svg>"
    )


def main() -> int:
    svg = FAVICON.read_text()
    OUT.mkdir(parents=True, exist_ok=True)
    maskable = _maskable(svg)
    for name, source, size in (
        ("icon-192.png", svg, 192),
        ("icon-512.png", svg, 512),
        ("maskable-512.png", maskable, 512),
        ("apple-touch-icon.png", maskable, 180),
    ):
        cairosvg.svg2png(
            bytestring=source.encode(),
            write_to=str(OUT / name),
            output_width=size,
            output_height=size,
        )
        print(f"static/icons/{name} ({size}x{size})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
