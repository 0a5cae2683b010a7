"""Command models, pure ``decide`` functions, the thin handler, the CLI."""
