"""The HTML faces: printouts, the public page, the slip report page (and the console's
templates above them). Each renders read models of the typed read side with the one
Jinja2 environment of :mod:`commands.pages.render`; none computes a value of its own.
No page carries an inline script or style: its CSS and scripts are this server's own
files (:mod:`commands.pages.assets`), under one Content-Security-Policy
(:mod:`commands.pages.policy`), so every page works on a venue's offline network; a
printout written to a file has its CSS put inline and prints from any browser."""
