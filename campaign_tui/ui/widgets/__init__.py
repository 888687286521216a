"""Widgets of the interface."""
