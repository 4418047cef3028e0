#!/usr/bin/python3
"""The browser build's font: DejaVu Sans cut to the glyphs the window loads (fontTools, Debian's python3-fonttools).

The window rasterises only ImGui's default ranges (U+0020-00FF: Basic Latin and Latin-1) and the extra symbols that
app/ui/theme.hpp declares (kFontExtraGlyphs), so the page ships those glyphs alone: 27 KB instead of 760 KB, 13 KB
gzip instead of 384. What ImGui reads is unchanged: each kept glyph's outline and advance width, and the font's
ascent, descent and line gap (hhea), so every glyph draws as it does from the full file on the desktop; the bounding
boxes (head, hhea's extents) are recomputed over the kept glyphs; hinting, which ImGui's rasteriser (stb_truetype)
ignores, and the layout tables, which ImGui does not read, are dropped. The output is written beside, then renamed over, so an
interrupted build never leaves a partial font.
  subset_font.py FULL_TTF THEME_HPP OUT_TTF
"""
import logging
import os
import re
import sys

try:
    from fontTools import subset
    from fontTools.ttLib import TTFont
except ImportError:
    sys.exit("subset_font.py: needs Debian's python3-fonttools (./setup.sh web installs it)")

IMGUI_DEFAULT_RANGE = range(0x20, 0x100)  # ImFontAtlas::GetGlyphRangesDefault in Dear ImGui 1.86


def extra_glyphs(theme_hpp):
    """The string literal of kFontExtraGlyphs in app/ui/theme.hpp, the one place the window's symbols are named."""
    text = open(theme_hpp, encoding="utf-8").read()
    match = re.search(r'kFontExtraGlyphs\s*=\s*"([^"]*)"', text)
    if not match:
        sys.exit(f"subset_font.py: no kFontExtraGlyphs = \"...\" in {theme_hpp}")
    return match.group(1)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    full, theme_hpp, out = sys.argv[1:]
    wanted = "".join(chr(c) for c in IMGUI_DEFAULT_RANGE) + extra_glyphs(theme_hpp)
    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)  # not its note on the FFTM table it drops
    options = subset.Options()
    options.hinting = False
    options.layout_features = []
    options.name_IDs = ["*"]  # the font's names and its licence notice stay
    options.notdef_outline = True
    font = TTFont(full, recalcTimestamp=False)  # the same bytes on every build
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=wanted)
    subsetter.subset(font)
    missing = sorted({ord(c) for c in wanted} - set(font.getBestCmap()) - set(range(0x7F, 0xA0)))
    if missing:
        sys.exit(f"subset_font.py: {full} has no glyph for " + ", ".join(f"U+{c:04X}" for c in missing))
    partial = out + ".partial"
    font.save(partial)
    os.replace(partial, out)


if __name__ == "__main__":
    main()
