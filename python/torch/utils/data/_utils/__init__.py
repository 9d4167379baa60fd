"""Helpers of the DataLoader (collation, worker info)."""

from . import collate  # noqa: F401
