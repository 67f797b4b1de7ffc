"""`python -m scatter_explorer`: the same as the `scatter-explorer` command."""

from scatter_explorer.cli import main

main()
