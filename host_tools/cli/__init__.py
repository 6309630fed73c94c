"""The `chromawheel` command line: one module per group of commands."""
