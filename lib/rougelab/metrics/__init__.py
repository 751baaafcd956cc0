"""Metrics behind one interface (``base.Metric``); the registry of built-in families is ``families``."""
