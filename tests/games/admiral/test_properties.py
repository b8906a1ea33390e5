"""Property test: seeded random games of Admiral never crash, keep the state's invariants, and never show a
player what the rules hide (face-down cards, the opponent's secret assignment); submerged submarines are
public (ADM-SUB-9)."""

from __future__ import annotations

import random

from fogofwar.core import CHANCE
from fogofwar.games.admiral.actions import COMMIT
from fogofwar.games.admiral.data_model import default_ruleset
from fogofwar.games.admiral.rules import AdmiralGame, AdmiralState

GAMES = 200
MAX_TURNS = 4
LAYOUTS = ("open_sea", "archipelago", "strait")


def random_fleet(rng: random.Random, faction: str, budget: int) -> list[str]:
    cards = list(default_ruleset().units_of(faction))
    rng.shuffle(cards)
    fleet: list[str] = []
    spent = 0
    for card in cards:
        if spent + card.tactical_points <= budget and rng.random() < 0.8:
            fleet.append(card.name)
            spent += card.tactical_points
    return fleet or [min(cards, key=lambda c: c.tactical_points).name]


def check_invariants(state: AdmiralState) -> None:
    fleets = (state.units(0), state.units(1))
    for p in (0, 1):
        for u in fleets[p]:
            assert 0 <= u.structure <= u.card.structure, f"{u.card.name}: structure {u.structure}"
            assert (u.structure == 0) == (u.where == "sunk"), f"{u.card.name}: {u.where} with {u.structure}"
            assert 0 <= u.torpedoes <= u.card.torpedo_mounts, f"{u.card.name}: torpedoes {u.torpedoes}"
            assert 0 <= u.reloads <= u.card.torpedo_reloads, f"{u.card.name}: reloads {u.reloads}"
            if u.where == "board":
                assert not (u.submerged and not u.card.is_submarine)
        dice = state.dice(p)
        if state.phase in ("movement", "reaction", "launch"):  # (aircraft may sink units later in the turn)
            assert len(dice) == 2 * sum(1 for u in fleets[p] if u.where == "board")
        spent_by_orders = [i for o in state.orders(p) for i in o.dice]
        assert len(spent_by_orders) == len(set(spent_by_orders)), "a die is spent twice"
        assert all(dice[i][1].startswith("attack:") for i in spent_by_orders)
        assert sum(1 for _, use in dice if use.startswith("attack:")) == len(spent_by_orders)
    squares: dict[tuple[int, bool], str] = {}
    for p in (0, 1):
        for u in fleets[p]:
            if u.where == "board":
                key = (u.square, u.submerged)
                assert key not in squares, f"{u.card.name} and {squares[key]} share a square at one depth"
                squares[key] = u.card.name


def check_observations(state: AdmiralState) -> None:
    for viewer in (0, 1):
        data = state.observation(viewer).data
        other = 1 - viewer
        shown = {(u["owner"], u["name"], u["submerged"]) for cell in data["board"] for u in cell["units"]}
        on_board = {(u.owner, u.card.name, u.submerged) for p in (0, 1) for u in state.units(p) if u.where == "board"}
        if state.phase == "deploy":  # face-down cards (ADM-SETUP-3)
            assert shown == {x for x in on_board if x[0] == viewer}
            assert data["fleets"][other]["to_place"] is None and data["fleets"][other]["reserve"] is None
        else:  # everything on the board, submerged boats included (ADM-SUB-9)
            assert shown == on_board
        fleet = data["fleets"][other]
        if state.phase == "attack":  # the opponent's assignment stays secret (ADM-ATK-1)
            assert fleet["orders"] is None
            assert not any(d["used"] and d["used"].startswith("attack:") for d in fleet["dice"])
            secret = [f for f in state.features() if f.secret and f.by == other]
            public = [f for f in state.features() if not (f.secret and f.by == other)]
            assert len(data["features"]) == len(public)
            assert not secret or all(
                (x["unit"], x["feature"], x["by"]) != (state.units(f.owner)[f.slot].card.name, f.key, f.by)
                for f in secret
                for x in data["features"]
            )
        else:
            assert fleet["orders"] is not None


def play(seed: int) -> AdmiralState:
    rng = random.Random(seed)
    budget = rng.choice([150, 250, 350])
    game = AdmiralGame(
        fleets=[random_fleet(rng, "usn", budget), random_fleet(rng, "ijn", budget)],
        budget=budget,
        layout=rng.choice(LAYOUTS),
        max_turns=MAX_TURNS,
    )
    state = game.new_initial_state()
    step = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            action = rng.choice([a for a, _ in state.chance_outcomes()])
        else:
            legal = state.legal_actions()
            assert legal, f"no legal action in phase {state.phase}"
            action = rng.choice(legal)
        state.apply(action)
        step += 1
        check_invariants(state)
        secret_pending = state.phase == "attack" and state.current_player() == 1 and state.orders(0)
        if step % 17 == 0 or (secret_pending and state.history[-1] == COMMIT):
            check_observations(state)
    return state


def test_random_games_never_crash_and_keep_the_invariants() -> None:
    endings: dict[str, int] = {}
    for seed in range(GAMES):
        state = play(seed)
        outcome = state.outcome()
        assert outcome is not None
        endings[outcome.termination.value] = endings.get(outcome.termination.value, 0) + 1
        if seed % 40 == 0:
            rebuilt = AdmiralState.from_json(state.to_json())
            assert rebuilt.observation(0).data == state.observation(0).data
    assert sum(endings.values()) == GAMES


def test_undo_goes_back_any_number_of_actions_across_its_checkpoints() -> None:
    """`undo` restores the last checkpoint (a copy of the core every UNDO_EVERY actions) and plays the rest
    again: taking back every action, one at a time, passes through every state the game went through."""
    import random

    from fogofwar.core.protocol import CHANCE
    from fogofwar.games.admiral.actions import decode
    from fogofwar.games.admiral.rules import _HANDLERS, UNDO_EVERY, AdmiralGame, AdmiralState

    def snapshot(s: AdmiralState) -> object:
        views = [s.observation(p).data for p in (0, 1)]
        return s.to_json(), s.legal_actions(), s.current_player(), s.outcome(), views

    rng = random.Random(12)
    state = AdmiralGame(layout="strait", max_turns=3, solo_seat=1).new_initial_state()
    seen = [snapshot(state)]
    kinds = set()
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        kinds.add(decode(action).kind)
        state.apply(action)
        seen.append(snapshot(state))
    assert len(seen) > 3 * UNDO_EVERY
    other = state.clone()
    for expected in reversed(seen[:-1]):
        state.undo()
        assert snapshot(state) == expected
    assert snapshot(other) == seen[-1]  # a clone shares no checkpoint state
    assert kinds <= set(_HANDLERS) and all(callable(getattr(AdmiralState, m)) for m in _HANDLERS.values())
