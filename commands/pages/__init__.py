"""The HTML pages: the printouts, the public page and the slip report page, with their
templates in ``templates/``, and the one Jinja2 environment (:mod:`commands.pages.render`)
that the console also renders its own templates with. Each renders read models of the
typed read side; none computes a value of its own. No page carries an inline script or
style: its CSS and scripts are this server's own files (:mod:`commands.pages.assets`),
under one Content-Security-Policy (:mod:`commands.pages.policy`), so every page works on
a venue's offline network; a printout written to a file has its CSS put inline and
prints from any browser. ``commands.api`` serves the public and slip pages, the console
and ``tledger print`` the printouts; ``commands.web`` composes the application."""
