"""Seeded random Admiral games with the engine's invariants checked after every action.

    .venv/bin/python benchmarks/admiral_random_games.py                  # 1,000 games, 2 processes
    .venv/bin/python benchmarks/admiral_random_games.py --games 50 --jobs 1 --max-turns 20

Both seats pick uniformly among the legal actions; dice (chance nodes) are sampled from
`chance_outcomes()`. After every action:

* structure: every unit has 0 <= structure <= its card's maximum (and a unit on the board has some left);
* dice: each die is spent at most once (a spent die keeps its purpose for the rest of the turn and the
  pool only grows while it is rolled);
* ammunition: torpedoes, spare torpedoes and squadrons aboard are never negative (nor above the card's);
* the core protocol: `current_player()` is a seat, CHANCE or TERMINAL as `is_terminal()` says; the legal
  actions are sorted, distinct and not empty until the end; at a chance node they are the chance outcomes,
  whose probabilities sum to 1.

Now and then (seeded): the notation round-trip of the chosen action, an illegal action refused with the
state unchanged, and clone/apply/undo giving back the same position; at the end of a game the outcome and
returns, and every `--replay-every`th game rebuilt from `to_json()`. Prints one summary line; exits 1 on any
violation (the first few are listed).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass, field

from fogofwar.core.protocol import CHANCE, TERMINAL, IllegalActionError
from fogofwar.games.admiral import AdmiralGame, AdmiralState
from fogofwar.games.admiral.actions import NUM_ACTIONS

MAX_LISTED = 20


@dataclass
class Report:
    games: int = 0
    actions: int = 0
    chance: int = 0
    turns: int = 0
    checks: int = 0
    endings: dict[str, int] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def fail(self, seed: int, step: int, text: str) -> None:
        self.violations.append(f"game seed {seed}, action {step}: {text}")

    def merge(self, other: Report) -> None:
        self.games += other.games
        self.actions += other.actions
        self.chance += other.chance
        self.turns += other.turns
        self.checks += other.checks
        for k, v in other.endings.items():
            self.endings[k] = self.endings.get(k, 0) + v
        self.violations += other.violations
        self.seconds = max(self.seconds, other.seconds)


def check_units(state: AdmiralState, report: Report, seed: int, step: int) -> None:
    for p in (0, 1):
        for u in state.units(p):
            card = u.card
            if not 0 <= u.structure <= card.structure:
                report.fail(seed, step, f"{card.name}: structure {u.structure} outside 0..{card.structure}")
            if u.where == "board" and u.structure == 0:
                report.fail(seed, step, f"{card.name} is on the board with no structure left")
            if not 0 <= u.torpedoes <= card.torpedo_mounts:
                report.fail(seed, step, f"{card.name}: torpedoes {u.torpedoes} outside 0..{card.torpedo_mounts}")
            if not 0 <= u.reloads <= card.torpedo_reloads:
                report.fail(seed, step, f"{card.name}: spare torpedoes {u.reloads} outside 0..{card.torpedo_reloads}")
            if any(n < 0 for n in u.squadrons):
                report.fail(seed, step, f"{card.name}: negative squadrons {u.squadrons}")
            report.checks += 1


def check_dice(
    state: AdmiralState,
    before: list[list[tuple[str, str]]],
    turn_before: int,
    report: Report,
    seed: int,
    step: int,
) -> list[list[tuple[str, str]]]:
    """A die spent stays spent for the same purpose, and the pool only grows, until the turn ends."""
    now = [state.dice(p) for p in (0, 1)]
    if state.turn == turn_before and not state.is_terminal():
        for p in (0, 1):
            old, new = before[p], now[p]
            if len(new) < len(old):
                report.fail(seed, step, f"seat {p}'s dice pool shrank within a turn: {old} -> {new}")
                continue
            for i, (face, use) in enumerate(old):
                if new[i][0] != face:
                    report.fail(seed, step, f"seat {p}'s die {i} changed face {face} -> {new[i][0]}")
                if use and new[i][1] != use:
                    report.fail(seed, step, f"seat {p}'s die {i} spent twice: {use!r} then {new[i][1]!r}")
            report.checks += 1
    return now


def check_protocol(state: AdmiralState, report: Report, seed: int, step: int) -> list[int]:
    player = state.current_player()
    legal = state.legal_actions()
    if state.is_terminal():
        if player != TERMINAL or legal or state.outcome() is None:
            report.fail(seed, step, f"terminal state: player {player}, {len(legal)} legal, {state.outcome()}")
        returns = state.returns()
        if abs(sum(returns)) > 1e-9:
            report.fail(seed, step, f"returns {returns} do not sum to 0")
        return legal
    if player not in (0, 1, CHANCE):
        report.fail(seed, step, f"current_player() = {player}")
    if not legal or legal != sorted(set(legal)) or not all(0 <= a < NUM_ACTIONS for a in legal):
        report.fail(seed, step, "legal actions not sorted, distinct, non-empty ids")
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        if abs(sum(p for _, p in outcomes) - 1.0) > 1e-9 or sorted(a for a, _ in outcomes) != legal:
            report.fail(seed, step, f"chance outcomes {outcomes} do not match the legal actions {legal}")
    elif state.chance_outcomes():
        report.fail(seed, step, "chance outcomes at a decision node")
    report.checks += 1
    return legal


def occasional(state: AdmiralState, action: int, rng: random.Random, report: Report, seed: int, step: int) -> None:
    """Notation round-trip, an illegal action refused, clone/apply/undo: on about one action in 25."""
    if rng.random() >= 0.04:
        return
    text = state.action_to_string(action)
    if state.string_to_action(text) != action:
        report.fail(seed, step, f"notation {text!r} does not read back as {action}")
    legal = set(state.legal_actions())
    bad = next((a for a in (rng.randrange(NUM_ACTIONS) for _ in range(20)) if a not in legal), None)
    if bad is not None:
        before = (len(state.history), state.phase, state.current_player())
        try:
            state.apply(bad)
            report.fail(seed, step, f"illegal action {bad} was accepted")
        except IllegalActionError:
            if (len(state.history), state.phase, state.current_player()) != before:
                report.fail(seed, step, f"refused action {bad} changed the state")
    twin = state.clone()
    view = state.observation(0).data
    twin.apply(action)
    twin.undo()
    if twin.observation(0).data != view or list(twin.history) != list(state.history):
        report.fail(seed, step, "clone + apply + undo did not give back the same position")
    report.checks += 1


def play_games(args: tuple[list[int], int, int]) -> Report:
    seeds, max_turns, replay_every = args
    report = Report()
    game = AdmiralGame(max_turns=max_turns)
    start = time.perf_counter()
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        dice = [state.dice(p) for p in (0, 1)]
        step = 0
        while True:
            legal = check_protocol(state, report, seed, step)
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
                report.chance += 1
            else:
                action = rng.choice(legal)
                occasional(state, action, rng, report, seed, step)
            turn = state.turn
            state.apply(action)
            step += 1
            check_units(state, report, seed, step)
            dice = check_dice(state, dice, turn, report, seed, step)
            if len(report.violations) > MAX_LISTED:
                break
        report.games += 1
        report.actions += step
        report.turns += state.turn
        outcome = state.outcome()
        if outcome is not None:
            report.endings[outcome.termination.value] = report.endings.get(outcome.termination.value, 0) + 1
        if replay_every and seed % replay_every == 0:
            again = game.state_from_json(state.to_json())
            if again.outcome() != state.outcome() or list(again.history) != list(state.history):
                report.fail(seed, step, "the game does not replay from to_json()")
    report.seconds = time.perf_counter() - start
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1, help="first game seed (games use seed, seed+1, ...)")
    parser.add_argument("--max-turns", type=int, default=60, help="turn cap: a game reaching it is a draw")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--replay-every", type=int, default=10, help="rebuild every Nth game from to_json (0: never)")
    args = parser.parse_args(argv)
    seeds = list(range(args.seed, args.seed + args.games))
    jobs = max(1, min(args.jobs, len(seeds)))
    chunks = [(seeds[k::jobs], args.max_turns, args.replay_every) for k in range(jobs)]
    start = time.perf_counter()
    if jobs == 1:
        parts = [play_games(chunks[0])]
    else:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            parts = pool.map(play_games, chunks)
    total = Report()
    for part in parts:
        total.merge(part)
    wall = time.perf_counter() - start
    for v in total.violations[:MAX_LISTED]:
        print(v)
    ends = ", ".join(f"{k} {v}" for k, v in sorted(total.endings.items()))
    verdict = "OK" if not total.violations else f"{len(total.violations)} VIOLATIONS"
    print(
        f"admiral random games: {total.games} games (seeds {args.seed}..{args.seed + args.games - 1}, "
        f"cap {args.max_turns} turns), {total.turns} turns, {total.actions} actions ({total.chance} dice), "
        f"{total.checks} checks, {jobs} process{'es' if jobs > 1 else ''}, {wall:.0f}s; endings: {ends}; {verdict}"
    )
    return 1 if total.violations else 0


if __name__ == "__main__":
    sys.exit(main())
