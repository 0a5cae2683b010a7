"""Read-only audit: fold a prefix, diff two points, explain a value, verify the log.

Everything here reads events and reuses the projections' folds; nothing appends.
"""
