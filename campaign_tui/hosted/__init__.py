"""The hosted table: one server process owns the campaign; seats join over SSH or a browser."""
