"""Research interfaces: Gymnasium, PettingZoo and OpenSpiel environments for Stratego (classic, Barrage).

Each adapter needs the optional extra `research` (`pip install -e .[research]`, pinned in
requirements-research.txt) and is imported from its own module:

* `fogofwar.games.stratego.envs.gym_env.StrategoEnv`: one learner against a fogofwar agent (`make_agent` spec).
* `fogofwar.games.stratego.envs.pettingzoo_env.StrategoAECEnv`: both seats, AEC API.
* `fogofwar.games.stratego.envs.openspiel_game`: registers the OpenSpiel game `python_fogofwar_stratego`.

All share the action space and observation planes of `envs.common` and `sim.planes`
(documented plane by plane there and in docs/research.md).
"""
