"""The console: ``/console`` in a browser, served by ``tledger serve``, where organizers
run an event (create it, register, pair, enter results, correct, cut, finish), judges
settle results and issue penalties, and auditors look back through the log. It speaks
the same command contract and token roles as the HTTP API; ``commands.web`` mounts it
beside the API and the public pages.

It adds no rule of its own: every action is a command of the contract run through
``commands.api.writes.run`` (``commands.roles`` and ``Principal.check`` decide who may
send it), and every page renders a read model of the one read layer
(``commands.reads.cache``). Pages are server-rendered Jinja2 in the pages' environment
(``commands.pages.render``), from the console's own templates in ``templates/``, with
small scripts and a stylesheet of our own in ``static/`` (and the pages' shared
``/static/countdown.js``), nothing inline (the pages' one Content-Security-Policy,
``commands.pages.policy``) and nothing from the internet.
"""
