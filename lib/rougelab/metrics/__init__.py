"""Metrics behind one interface (``base.Metric``); which name is which metric: ``registry``."""
