"""The rules-neutral engine: state, grid, dice, events, errors, commands and the apply loop."""
