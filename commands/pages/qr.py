"""QR codes as inline SVG for the match slips (slips that report themselves): a player
scans the slip with a phone and lands on the report page.

Inline SVG, not an image file or a generator on the internet: the slip is one
self-contained HTML file that prints from any browser on a venue's offline
network, and SVG stays sharp at any printer's resolution. Made with ``segno``.
"""

from __future__ import annotations

import segno

#: Modules of quiet zone around the code: the standard asks for 4; the slip's white
#: margin adds to it, and a smaller border keeps the code large in its box.
BORDER = 2


def qr_svg(text: str) -> str:
    """An SVG element (no XML declaration, no fixed size: it scales to its box via
    ``viewBox``) of a QR code holding ``text``. Always a full QR code, never a Micro QR
    (``segno.make`` picks Micro QR for short input, which phone cameras do not read);
    error correction level M survives a crease or a coffee ring."""
    code = segno.make_qr(text, error="m")
    return code.svg_inline(border=BORDER, omitsize=True, svgclass="qr", lineclass="qr-line")
