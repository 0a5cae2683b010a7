"""The HTTP API: one router per resource (commands, tournament reads, the event stream,
the public page and the slip page), and what every route shares: the caller's token,
the read side, limits and error answers. ``commands.web`` composes them."""
