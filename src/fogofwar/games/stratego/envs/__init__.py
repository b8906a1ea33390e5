"""Research interfaces: Gymnasium, PettingZoo and OpenSpiel environments for Stratego (classic, Barrage).

Each adapter needs the optional extra `research` (`pip install -e .[research]`, pinned in
requirements-research.txt) and is imported from its own module.

Over the fused compiled kernel (`fogofwar.games.stratego.sim.vector.VectorStratego`), the first choice for
learning at speed:

* `fogofwar.games.stratego.envs.vector_env.StrategoVectorEnv`: a Gymnasium `VectorEnv`, N learners each against
  the kernel's random opponent, autoreset, one compiled call per step, on one or more cores.
* `fogofwar.games.stratego.envs.compiled_gym.CompiledStrategoEnv`: the same with one game, a Gymnasium `Env`.
* `fogofwar.games.stratego.envs.compiled_pettingzoo`: `CompiledStrategoAECEnv` (AEC) and `StrategoParallelEnv`
  (parallel; the agent not to act sends a no-op), both seats played from outside.

Their observations are compact (`compiled_common`: uint8 planes, count vectors, int8 masks) and they offer a
chosen-setup phase (a menu of armies, or piece by piece).

Over the reference rules engine (slower, but any fogofwar agent can be the opponent, and OpenSpiel's algorithms
get chance nodes, cloning and information-state strings):

* `fogofwar.games.stratego.envs.gym_env.StrategoEnv`: one learner against a fogofwar agent (`make_agent` spec).
* `fogofwar.games.stratego.envs.pettingzoo_env.StrategoAECEnv`: both seats, AEC API.
* `fogofwar.games.stratego.envs.openspiel_game`: registers the OpenSpiel game `python_fogofwar_stratego`.

These share the action space and the 45 float32 observation planes of `envs.common` and `sim.planes`
(documented plane by plane there and in docs/research.md).
"""
