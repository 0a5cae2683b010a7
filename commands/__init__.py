"""The write side: what may be asked of a tournament and what it appends.

Command models (``models``, the public JSON Lines / HTTP contract) and their errors
(``errors``); ``decide`` dispatches each command to a pure decider by concern
(``corrections``, ``cut``, ``discipline``, ``limited``, ``lists``, ``teams``, ``undo``)
over the lookups of ``context``; the handler loads, folds, decides and appends
(``handler``, with client command ids in ``idempotency``, composed by ``bootstrap``);
who may send what (``roles``, ``actors``) and the API tokens over their life
(``tokens``); the slips' report codes (``slipcodes``) and the public page's switch
(``public_switch``).

The other rooms sit above it and import it, never the reverse: the read side in
``commands.reads``, text people type or paste in ``commands.text``, and the faces:
``commands.cli``, ``commands.api``, ``commands.console`` and ``commands.pages``,
composed into one web application by ``commands.web``.
"""
