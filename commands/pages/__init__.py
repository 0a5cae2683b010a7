"""The HTML faces: printouts, the public page, the slip report page (and later the
console). Each renders read models of the typed read side with the one Jinja2
environment of :mod:`commands.pages.render`; none computes a value of its own.
Every page is self-contained: its CSS (and any script) is inline, so it works on a
venue's offline network and prints from any browser."""
