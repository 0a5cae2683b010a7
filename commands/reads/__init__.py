"""The read side: typed read models of a tournament, computed from its fold and the
names kept beside the log, cached by seq (``cache.ReadSide``). Every face renders these
models and computes nothing of its own."""
