"""pytest (--doctest-modules): leave out the adapters whose framework is not installed (the `research` extra)."""

import importlib.util

_NEEDS = {
    "gym_env.py": "gymnasium",
    "pettingzoo_env.py": "pettingzoo",
    "openspiel_game.py": "pyspiel",
    "compiled_common.py": "gymnasium",
    "compiled_gym.py": "gymnasium",
    "vector_env.py": "gymnasium",
    "compiled_pettingzoo.py": "pettingzoo",
}
collect_ignore = [module for module, dep in _NEEDS.items() if importlib.util.find_spec(dep) is None]
