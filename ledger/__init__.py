"""The record: event models, the append-only store and its integrity chain.

Only this package imports ``eventsourcing``; everything above it sees the small
port in :mod:`ledger.store`.
"""
