"""The hosted table: one server process owns the campaign's engine; each seat's TUI is a
child process that talks to it over a private local socket (see docs/HOSTED.md).

The server pieces (identity, protocol, wire, feed, seals, table_server) import no Textual.
"""
