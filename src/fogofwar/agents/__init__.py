"""Computer players, registered by name in `fogofwar.core.agents` (random is built in)."""
