"""pytest (--doctest-modules): leave out the adapters whose framework is not installed (the `research` extra)."""

import importlib.util

_NEEDS = {"gym_env.py": "gymnasium", "pettingzoo_env.py": "pettingzoo", "openspiel_game.py": "pyspiel"}
collect_ignore = [module for module, dep in _NEEDS.items() if importlib.util.find_spec(dep) is None]
