"""The ``tledger`` command line (``main.app``): one Typer app per group of commands,
Rich grids for people and the contract's JSON for machines."""
