"""The HTML pages: the printouts, the public page and the slip report page, with their
templates in ``templates/``, and the one Jinja2 environment (:mod:`commands.pages.render`)
that the console also renders its own templates with. Each renders read models of the
typed read side; none computes a value of its own. Every page is self-contained: its
CSS (and any script) is inline, so it works on a venue's offline network and prints
from any browser. ``commands.api`` serves the public and slip pages, the console and
``tledger print`` the printouts; ``commands.web`` composes the application."""
