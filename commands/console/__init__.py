"""The organizer's console (issue 17): ``/console`` in a browser, served by ``tledger
serve``, over the same command contract and token roles as the HTTP API.

It adds no rule of its own: every action is a command of the contract run through
``commands.api.writes.run`` (the role table and ``Principal.check`` decide who may
send it), and every page renders a read model of the one read layer
(``commands.reads.cache``). Pages are server-rendered Jinja2 (the printouts' environment,
templates under ``commands/pages/templates/console/``) with one small script of our
own (``static/console.js``) and nothing from the internet.
"""
