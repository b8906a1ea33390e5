"""fogofwar: hidden-information battle games on a grid (Stratego, Stratego LOTR, Admiral)."""

__version__ = "0.1.0"
