"""Saving and loading campaigns: TOML files, atomic writes, locks, backups, migrations."""
