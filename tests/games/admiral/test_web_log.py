"""The web adapter's log of an Admiral game says what each event did (the readability issue: "the log lists
orders and dice but not what they did; a bomber attacks Chokai, the log says 'South rolls (air combat): M
M+DC...' and the bomber vanishes"): the lines each event adds to the public report (hits, damage, sinkings,
squadrons shot down), where each moving unit came from, the unit a solo roll was for and the table row it gave
(SOLO-DICE-2), the unit a critical marker goes on; and nothing of a secret assignment while it is secret
(ADM-ATK-1)."""

from __future__ import annotations

import random
from typing import Any

from fogofwar.core.protocol import CHANCE
from fogofwar.core.web_adapter import Event
from fogofwar.games.admiral.actions import decode
from fogofwar.games.admiral.rules import AdmiralState
from fogofwar.games.admiral.solo import StrategoAgent
from fogofwar.games.admiral.ui.web import AdmiralAdapter

ADAPTER = AdmiralAdapter()


def report(state: AdmiralState) -> list[str]:
    return list(state.view(0)["report"])


def play(
    seed: int, turns: int = 3
) -> tuple[AdmiralState, list[dict[str, Any]], list[tuple[AdmiralState, AdmiralState]]]:
    """A solo game (South at random, attacks first; North the `stratego` agent) logged as the server logs it:
    each event's entry made from the state before it (GameSession._log). Returns the final state, the log and,
    for each entry, the states before and after its event."""
    game = ADAPTER.make_game({"variant": "archipelago", "solo_seat": 1, "max_turns": turns})
    state = game.new_initial_state()
    assert isinstance(state, AdmiralState)
    rng = random.Random(seed)
    agent = StrategoAgent()
    agent.start(game, 1, random.Random(seed))
    log: list[dict[str, Any]] = []
    around: list[tuple[AdmiralState, AdmiralState]] = []
    seq = 0
    while not state.is_terminal():
        player, legal = state.current_player(), state.legal_actions()
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
            kind, seat = "chance", None
        elif player == 1:
            action, kind, seat = agent.act(state.observation(1), legal), "action", 1
        else:
            eager = [a for a in legal if decode(a).kind in ("fire", "torpedo", "strike", "squadron")]
            action, kind, seat = rng.choice(eager if eager and rng.random() < 0.8 else legal), "action", 0
        seq += 1
        before = state.clone()
        texts = [state.action_to_string(action)]
        state.apply(action)
        entry = ADAPTER.log_entry(before, Event(seq, kind, seat, {"action": action}), texts)
        assert entry is not None
        log.append(entry)
        around.append((before, state.clone()))
    return state, log, around


def test_each_entry_carries_what_its_event_did() -> None:
    _, log, around = play(5)
    effects = 0
    for entry, (before, after) in zip(log, around, strict=True):
        was, now = report(before), report(after)
        new = now[len(was) :] if now[: len(was)] == was else now
        assert entry.get("effects", []) == new, entry
        effects += bool(new)
    assert effects > 5
    lines = [line for e in log for line in e.get("effects", [])]
    assert any(line.startswith("anti-aircraft fire") for line in lines)  # the air combat's roll: what it shot down
    assert any(" hits " in line for line in lines)  # the resolution: what each order did
    rolls = [e for e in log if e["kind"] == "roll" and e["phase"] == "air_roll"]
    assert any(e.get("effects") for e in rolls), rolls


def test_moves_say_where_from_solo_rolls_for_which_unit_criticals_on_which() -> None:
    _, log, around = play(5)
    for entry, (before, _after) in zip(log, around, strict=True):
        if entry["kind"] == "action" and entry["texts"][0].startswith("move:"):
            name = entry["texts"][0].removeprefix("move:").split(">")[0].split(":")[0]
            mover = before.unit(before.current_player(), name)
            assert entry["from"] == ["ABCDEFGH"[mover.square % 8] + str(mover.square // 8 + 1)]
        if entry["kind"] == "roll" and entry["phase"] == "solo_roll":  # SOLO-DICE-2: a unit's die and its row
            solo = before.view(0)["solo"]
            assert solo is not None and entry["unit"] == solo["acting"]
            assert set(entry["row"]) == {"in_range", "hold", "admiral"}
        if entry["phase"] == "criticals":
            pending = before.view(0)["pending_critical"]
            assert pending is not None and entry["unit"] == pending["unit"]
    assert any(e["phase"] == "solo_roll" for e in log) and any(e.get("from") for e in log)


def test_a_secret_assignment_shows_nothing_until_both_have_committed() -> None:  # ADM-ATK-1
    state, log, around = play(5)
    for i, (entry, (_before, after)) in enumerate(zip(log, around, strict=True)):
        if entry["phase"] != "attack" or entry["player"] != 0:
            continue
        shown = ADAPTER.public_moves(after, log[: i + 1])[-1]  # South committed, North has not
        assert shown["hidden"] and set(shown) == {"seq", "turn", "phase", "player", "kind", "secret", "hidden", "n"}
    assert all("hidden" not in m for m in ADAPTER.public_moves(state, log))  # once over, everything shows


def test_the_dice_of_one_roll_are_one_entry_with_all_it_did() -> None:
    state, log, _ = play(5)
    moves = ADAPTER.public_moves(state, log)
    air = [m for m in moves if m["kind"] == "roll" and m["phase"] == "air_roll"]
    raw = [e for e in log if e["kind"] == "roll" and e["phase"] == "air_roll"]
    assert len(air) < len(raw)
    assert sum(len(m.get("effects", [])) for m in air) == sum(len(e.get("effects", [])) for e in raw)


def test_a_decision_names_the_square_its_unit_moves_from() -> None:
    state, _, around = play(5, turns=1)
    for before, _ in around:
        if before.phase.value == "movement" and before.current_player() == 0:
            described = ADAPTER.describe_actions(before, before.legal_actions())
            moves = [a for a in described if a["kind"] == "move"]
            assert moves and all(a["from"] == a["squares"][0] for a in moves)
            assert all(a["from"] is None for a in described if a["kind"] == "pass")
            return
    raise AssertionError(f"no movement decision for South in {state}")
