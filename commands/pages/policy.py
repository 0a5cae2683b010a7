"""The one Content-Security-Policy of every HTML page tledger serves: the public page
and its projector clock, the slip report page, the printouts the console serves, and
the console itself.

Nothing from elsewhere and nothing inline: scripts and stylesheets are this server's
own files (``commands.pages.assets``), so a name that holds markup stays text even if
it escaped a template, and no page fetches a resource from the internet (a venue's
network may have none). ``connect-src 'self'``: the public page's live stream and
fetches, and the countdown's time check; ``img-src 'self' data:``: the pages' empty
``data:`` icon (the slips' QR codes are inline SVG elements, no image).
"""

from __future__ import annotations

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
    "connect-src 'self'", "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'",
))  # fmt: skip

#: what every HTML answer carries, whichever face sends it; each face adds its own
#: caching and referrer policy
PAGE_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
}
