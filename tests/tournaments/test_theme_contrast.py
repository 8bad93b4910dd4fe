"""Both themes keep text readable (issue 31): every pair of text colour and background the pages
use reaches WCAG AA (4.5:1 for body text), in the light palette (spinner.css's ``:root`` and
theme.css's) and in the dark one (theme.css's ``prefers-color-scheme: dark``). The colours are
read from the stylesheets themselves, so a change of palette is checked as it is written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "tournaments" / "static" / "spinner"
AA = 4.5
PROPERTY = re.compile(r"--([a-z-]+):\s*(#[0-9a-fA-F]{6})")

# (text, background): every text colour on the surfaces it is drawn on.
PAIRS = [
    *[(t, s) for t in ("fg", "muted", "accent", "ok", "bad", "warn") for s in ("bg", "card")],
    ("fg", "tint-info"),
    ("bad", "tint-bad"),
    ("warn", "tint-warn"),
    ("fg", "tint-gold"),
    ("accent", "tint-info"),
    ("ok", "tint-ok"),
    ("fg", "tint-ok"),
    ("on-accent", "accent"),
    ("on-accent", "bad"),
    ("header-fg", "header-bg"),
]


def luminance(colour: str) -> float:
    """WCAG 2's relative luminance of ``#rrggbb``."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def palettes() -> dict[str, dict[str, str]]:
    """The light and the dark palette, as the stylesheets define them."""
    base = (STATIC / "spinner.css").read_text()
    theme = (STATIC / "theme.css").read_text()
    root = base[base.index(":root") : base.index("}", base.index(":root"))]
    dark_at = theme.index("prefers-color-scheme: dark")
    light_theme = theme[:dark_at]
    dark_block = theme[dark_at : theme.index("}", dark_at)]
    light = dict(PROPERTY.findall(root)) | dict(PROPERTY.findall(light_theme))
    dark = light | dict(PROPERTY.findall(dark_block))
    return {"light": light, "dark": dark}


def test_the_contrast_formula_gives_wcag_figures() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_text_colour_reaches_aa_on_its_backgrounds(theme: str) -> None:
    palette = palettes()[theme]
    if theme == "dark":  # the dark theme sets every colour it uses, not only some
        dark_at = (STATIC / "theme.css").read_text().index("prefers-color-scheme: dark")
        block = (STATIC / "theme.css").read_text()[dark_at:]
        assert {name for name, _ in PROPERTY.findall(block)} >= {n for pair in PAIRS for n in pair}
    ratios = {(t, b): round(contrast(palette[t], palette[b]), 2) for t, b in PAIRS}
    low = {pair: ratio for pair, ratio in ratios.items() if ratio < AA}
    assert not low, (theme, low)
