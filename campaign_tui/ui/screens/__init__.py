"""Screens of the interface."""
