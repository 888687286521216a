"""campaign-tui: a terminal campaign manager for tabletop wargames."""

__version__ = "0.1.0"
