"""Admiral the Board Game: a two-player naval battle on an 8x8 grid (rules: docs/rules/admiral.md).

Not registered in the core game registry yet: the engine (`fogofwar.admiral.rules`) covers the
setup and the initiative roll only, and says so when asked for anything later in the turn.
"""
