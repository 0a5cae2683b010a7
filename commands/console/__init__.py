"""The organizer's console: ``/console`` in a browser, served by ``tledger
serve``, over the same command contract and token roles as the HTTP API.

It adds no rule of its own: every action is a command of the contract run through
``commands.api.writes.run`` (the role table and ``Principal.check`` decide who may
send it), and every page renders a read model of the one read layer
(``commands.reads.cache``). Pages are server-rendered Jinja2 (the printouts' environment,
templates under ``commands/console/templates/``) with small scripts of our own
(``static/console*.js``, and the pages' shared ``/static/countdown.js``), nothing
inline (the pages' one Content-Security-Policy, ``commands.pages.policy``) and
nothing from the internet.
"""
