"""The engine: campaign model, phase machine runtime, dice, tables, action log.

Nothing in this package imports Textual or any other user-interface code.
"""
