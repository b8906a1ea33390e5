"""Admiral on the server: lobby, deployment, dice rolled and logged by the server, every kind of decision,
the secret attack assignment (a seat's draft), the computer's explanations, refusals, the leak test over
whole games, and restarts.

The leak test records every message sent to each seat (and to a spectator) and checks it against the
ground truth rebuilt from the server's event log: a seat's view must be exactly its engine observation
(with its own draft played, if it has one), the move log and the explanations may show a committed
attack assignment only once both seats have committed, a deployment never, and a seat learns nothing
(not even a message) while the other seat drafts its secret orders. A delta is judged itself (`check_delta`:
no dice, no payload of any event) and as the state it makes of the one held (`judged`).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fogofwar.core.records import GameRecord
from fogofwar.core.web_adapter import Event
from fogofwar.frontends.server import create_app
from fogofwar.frontends.server.session import GameSession
from fogofwar.frontends.server.store import Store
from fogofwar.games.admiral.actions import COMMIT, PASS, decode
from fogofwar.games.admiral.rules import AdmiralState

from .server_helpers import (
    BOTH_DATABASES,
    Follower,
    Msg,
    act,
    auth,
    create,
    hotseat_room,
    judged,
    play_recorded_vs_agent,
    replay_log,
    seat_view,
    wait_until,
)


def create_admiral(client: TestClient, **body: Any) -> Msg:
    return create(client, game="admiral", **body)


def log_of(db_url: str, game_id: str) -> tuple[list[AdmiralState], list[Event]]:
    """The true state after each event (index = seq) and the events, from the server's own log."""
    states, events, _session = replay_log(db_url, game_id)
    return [s for s in states if isinstance(s, AdmiralState)], events


def secret_until(states: list[AdmiralState], events: list[Event], seq: int) -> tuple[str, int] | None:
    """What keeps event `seq` secret: ('deploy', 1) for a deployment, ('attack', turn) for an assignment."""
    before = states[seq - 1]
    ev = events[seq - 1]
    if ev.kind == "setup":
        return ("deploy", 1)
    if ev.kind == "action" and before.phase == "attack":
        return ("attack", before.turn)
    return None


def still_secret(now: AdmiralState, why: tuple[str, int] | None) -> bool:
    if why is None or now.is_terminal():
        return False
    phase, turn = why
    return now.phase == phase and now.turn == turn


def check(msg: Msg, seat: int | None, states: list[AdmiralState], events: list[Event], tokens: list[str]) -> int:
    """`msg`, sent to `seat` (None: a spectator), tells nothing that seat may not know; returns the checks made."""
    text = json.dumps(msg)
    for secret in tokens:
        assert secret not in text, f"another seat's token reached seat {seat}"
    if msg["type"] != "state":
        assert msg["type"] in ("ack", "error", "pong"), msg
        return 0
    seq = msg["game"]["seq"]
    truth = states[seq]
    checks = 0
    # The view: the seat's own observation, with its own draft; a spectator's: what both seats see.
    base = truth
    if "draft" in msg:
        assert seat is not None and truth.phase == "attack" and truth.current_player() == seat, "a draft elsewhere"
        base = truth.clone()
        for a in msg["draft"]:
            base.apply(a)
    if truth.is_terminal():
        assert "final" in msg
    else:
        assert "final" not in msg
        if seat is not None:
            assert msg["view"] == base.observation(seat).data, "a seat's view is its observation, nothing more"
        else:
            views = [truth.observation(0).data, truth.observation(1).data]
            for cell, a, b in zip(msg["view"]["board"], views[0]["board"], views[1]["board"], strict=True):
                assert all(u in a["units"] and u in b["units"] for u in cell["units"]), "a unit one seat cannot see"
            assert msg["view"]["fleets"] == [views[1]["fleets"][0], views[0]["fleets"][1]]
        checks += 1
    # The opponent's secret orders, in the owner's words, appear nowhere while they are secret.
    for owner in (0, 1):
        if owner == seat or truth.is_terminal():
            continue
        theirs = truth.observation(owner).data["fleets"][owner]["orders"] or []
        mine = truth.observation(1 - owner).data["fleets"][owner]["orders"]
        if mine is None:
            for order in theirs:
                assert order not in text, f"LEAK: seat {seat} reads the secret order {order!r}"
                checks += 1
    # The move log and the explanations: nothing of an event while it is secret.
    for entry in msg["moves"]:
        why = secret_until(states, events, entry["seq"])
        if why is not None and why[0] == "deploy":
            assert set(entry) <= {"seq", "turn", "phase", "player", "kind", "n"}, f"a deployment shown: {entry}"
        if why is not None and why[0] == "attack" and still_secret(truth, why):
            assert "texts" not in entry and entry.get("hidden"), f"LEAK: a secret assignment shown: {entry}"
        checks += 1
    for note in msg.get("explanations", []):
        assert not still_secret(truth, secret_until(states, events, note["seq"])), f"LEAK: {note}"
        checks += 1
    # Decisions: only the seat to move gets them, and they are the engine's.
    if msg["legal"]:
        assert seat == truth.current_player() and msg["legal"] == base.legal_actions()
        assert [a["id"] for a in msg["actions"]] == msg["legal"]
        assert all(a["text"] == base.action_to_string(a["id"]) for a in msg["actions"])
    else:
        assert "actions" not in msg
    if "setup" in msg:
        assert seat is not None and set(msg["setup"]["placement"]) <= {
            f"{'ABCDEFGH'[c]}{r + 1}" for r in ((0, 1) if seat == 0 else (6, 7)) for c in range(8)
        }
    return checks


# --- the lobby ------------------------------------------------------------------------------------------


def test_meta_describes_layouts_cards_and_rules(client: TestClient) -> None:
    admiral = next(g for g in client.get("/api/meta").json()["games"] if g["name"] == "admiral")
    assert admiral["seats"] == ["south", "north"] and set(admiral["agents"]) == {"stratego", "random"}
    assert {v["name"] for v in admiral["variants"]} >= {"open_sea", "archipelago", "strait"}
    assert admiral["cards"]["Washington"]["batteries"][0]["range"] == 4
    assert admiral["cards"]["Wahoo"]["submerged"] is not None and admiral["cards"]["Enterprise"]["squadrons"]
    assert admiral["rules"]["superior_steel"]["id"] == "ADM-G01"
    assert set(admiral["default_fleets"]) == {"usn", "ijn"}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"variant": "bermuda"}, "unknown variant"),
        ({"options": {"max_turns": 0}}, "max_turns"),
        ({"options": {"factions": ["usn"]}}, "factions"),
        ({"options": {"fleets": [["Yamato"], ["Fletcher"]]}}, "belongs to ijn"),
        ({"options": {"budget": 10}}, "exceed the budget"),
        ({"options": {"budget": 20000}}, "budget may be at most 10000 on this server"),
        ({"options": {"max_turns": 500}}, "max_turns may be at most 200 on this server"),
        ({"options": {"fog": True}}, "unknown option"),
        ({"opponent": "heuristic"}, "opponent must be"),
        ({"color": "east"}, "color must be"),
    ],
)
def test_bad_admiral_games_are_refused(client: TestClient, body: dict[str, Any], words: str) -> None:
    r = client.post("/api/games", json={"game": "admiral", "opponent": "random", **body})
    assert r.status_code == 422, r.text
    assert words in r.json()["message"]


def test_create_a_game_with_chosen_fleets_and_open_its_page(client: TestClient) -> None:
    res = create_admiral(
        client,
        variant="open_sea",
        color="north",
        opponent="stratego",
        options={"factions": ["ijn", "usn"], "fleets": [["Kirishima", "Yukikaze"], ["Helena", "Fletcher"]]},
    )
    game = res["game"]
    assert list(res["seats"]) == ["1"] and game["agent"] == "stratego" and game["agent_seat"] == 0
    assert "admiral.js" in client.get(res["url"]).text
    view = wait_until(client, game["id"], res["seats"]["1"], lambda m: "setup" in m)
    assert view["setup"]["units"] == ["Helena", "Fletcher"] and view["setup"]["count"] == 2


# --- deployment, dice and decisions -----------------------------------------------------------------------


def _hotseat(client: TestClient, **options: Any) -> tuple[str, str, str]:
    res = create_admiral(client, opponent="hotseat", options={"max_turns": 4, **options})
    return res["game"]["id"], res["seats"]["0"], res["seats"]["1"]


def test_deployments_early_by_hand_and_refused(client: TestClient, db_url: str) -> None:
    gid, south, north = _hotseat(client)
    bad: list[tuple[Any, str]] = [
        ({"A1": "Washington"}, "deploy 5 units"),
        ({"A8": "Washington"}, "not in South's deployment zone"),
        ({"A1": "Yamato"}, "no unit named"),
        ({"Z9": "Washington"}, "not a square"),
        ({"A1": "Wahoo", "B1": "Washington"}, "Wahoo"),  # submarines are placed later (ADM-SETUP-6)
        ("sample", "'random' or {square: unit name}"),
    ]
    for setup, words in bad:
        r = client.post(f"/api/games/{gid}/act", headers=auth(south), json={"type": "setup", "setup": setup})
        assert r.status_code == 422, setup
        assert words in r.json()["message"], (setup, r.json())
    r = client.post(f"/api/games/{gid}/act", headers=auth(south), json={"type": "action", "action": 1})
    assert r.status_code == 409 and "whole army" in r.json()["message"]
    # North deploys first, by hand: checked now, played once South has deployed.
    north_fleet = {"A8": "Kirishima", "B8": "Shokaku", "C8": "Chokai", "D8": "Yukikaze", "E8": "Shigure"}
    ack = act(client, gid, north, type="setup", setup=north_fleet)
    assert ack["state"]["setup"]["done"] and ack["state"]["setup"]["placement"] == north_fleet
    south_view = seat_view(client, gid, south)
    assert not any(u["owner"] == 1 for c in south_view["view"]["board"] for u in c["units"])
    act(client, gid, south, type="setup", setup="random")
    view = seat_view(client, gid, south)
    # Both fleets are revealed, the server has rolled the initiative, a seat decides again.
    assert view["game"]["status"] == "play" and view["game"]["to_move"] in (0, 1)
    assert sum(1 for c in view["view"]["board"] for u in c["units"] if u["owner"] == 1) == 5
    states, events = log_of(db_url, gid)
    rolls = [e for e in events if e.kind == "chance"]
    assert rolls and all(e.seat is None for e in rolls)
    assert any(m["kind"] == "roll" and m["phase"] == "initiative" for m in view["moves"])
    assert states[-1].current_player() in (0, 1)


def _play_until(client: TestClient, gid: str, tokens: dict[int, str], phase: str, rng: random.Random) -> Msg:
    """Random decisions (never a pass while something else is legal) until a seat must decide in `phase`."""
    for _ in range(2000):
        info = client.get(f"/api/games/{gid}").json()
        seat = info["game"]["to_move"]
        assert info["game"]["status"] != "over", "the game ended first"
        view = seat_view(client, gid, tokens[seat])
        if view["view"]["phase"] == phase and view["legal"]:
            return view
        legal = [a for a in view["legal"] if a != PASS] or view["legal"]
        act(client, gid, tokens[seat], type="action", action=rng.choice(legal))
    raise AssertionError(f"never reached {phase}")


def test_the_secret_assignment_is_a_draft_shown_to_its_seat_alone(client: TestClient) -> None:
    rng = random.Random(2)
    orders: list[dict[str, Any]] = []
    for _game in range(10):  # the server seeds each game's dice itself: try games until one gives orders
        gid, south, north = _hotseat(client, max_turns=6)
        tokens = {0: south, 1: north}
        act(client, gid, south, type="setup", setup="random")
        act(client, gid, north, type="setup", setup="random")
        view = _play_until(client, gid, tokens, "attack", rng)
        for _ in range(4):  # find a turn where the first seat to assign has an order to give
            orders = [a for a in view["actions"] if a["kind"] != "commit"]
            if orders:
                break
            act(client, gid, tokens[view["seat"]], type="action", action=COMMIT)
            try:
                view = _play_until(client, gid, tokens, "attack", rng)
            except AssertionError:  # the game ended first
                break
        if orders:
            break
    assert orders, "no game of ten gave the first seat to assign an order to give"
    me, other = view["seat"], 1 - view["seat"]
    seq = view["game"]["seq"]
    other_before = seat_view(client, gid, tokens[other])
    with client.websocket_connect(f"/ws/games/{gid}") as w1, client.websocket_connect(f"/ws/games/{gid}") as w2:
        ws, spy = Follower(w1), Follower(w2)
        ws.hello(tokens[me])
        spy.hello(tokens[other])
        order = orders[0]
        w1.send_json({"type": "action", "action": order["id"], "id": "o1"})
        ack = ws.receive()
        assert ack == {"type": "ack", "id": "o1", "seq": seq, "draft": 1}  # nothing stored: no new event
        delta = ws.receive()
        assert delta["type"] == "delta" and "events" not in delta  # no event: the draft, shown to this seat
        mine = ws.held
        assert mine["draft"] == [order["id"]] and mine["game"]["seq"] == seq
        assert mine["view"]["fleets"][me]["orders"]  # the seat sees its own order
        w1.send_json({"type": "undo", "id": "u1"})
        assert ws.receive() == {"type": "ack", "id": "u1", "seq": seq, "draft": 0}
        ws.receive()
        assert ws.held["draft"] == []
        w1.send_json({"type": "action", "action": order["id"]})
        assert ws.receive()["type"] == "ack"
        ws.receive()
        assert "draft" in ws.held
        w2.send_json({"type": "ping", "id": "p"})
        assert spy.receive() == {"type": "pong", "id": "p"}  # the other seat was sent nothing meanwhile
        assert seat_view(client, gid, tokens[other]) == other_before
        w1.send_json({"type": "action", "action": COMMIT, "id": "c"})
        ack = ws.receive()
        # One event is the whole assignment; dice the server rolls at once after it (a new turn's
        # rolls) are stored in the same transaction, so the ack may count them too.
        assert ack["type"] == "ack" and ack["id"] == "c" and ack["seq"] >= seq + 1
        delta = spy.receive()
        assert [e["seq"] for e in delta["events"]] == list(range(seq + 1, ack["seq"] + 1))
        assert delta["events"][0] == {"seq": seq + 1, "kind": "action", "seat": me}
        theirs = spy.held
        assert theirs["game"]["seq"] == ack["seq"]
        assert theirs["view"]["fleets"][me]["orders"] is None or theirs["view"]["phase"] != "attack"
        committed = next(m for m in theirs["moves"] if m["seq"] == seq + 1)
        assert committed.get("hidden") or theirs["view"]["phase"] != "attack"
        assert all(m["kind"] == "roll" for m in theirs["moves"] if m["seq"] > seq + 1)
    r = client.post(f"/api/games/{gid}/act", headers=auth(tokens[me]), json={"type": "undo"})
    assert r.status_code == 409 and "take back" in r.json()["message"]


def test_every_kind_of_decision_over_http_and_the_refusals(client: TestClient) -> None:
    gid, south, north = _hotseat(client, max_turns=5)
    tokens = {0: south, 1: north}
    act(client, gid, south, type="setup", setup="random")
    act(client, gid, north, type="setup", setup="random")
    rng = random.Random(11)
    kinds: set[str] = set()
    for _ in range(3000):
        info = client.get(f"/api/games/{gid}").json()
        if info["game"]["status"] == "over":
            break
        seat = info["game"]["to_move"]
        view = seat_view(client, gid, tokens[seat])
        other = client.post(
            f"/api/games/{gid}/act", headers=auth(tokens[1 - seat]), json={"type": "action", "action": view["legal"][0]}
        )
        assert other.status_code in (409, 200)
        if other.status_code == 409:
            assert other.json()["error"] == "not_your_turn"
        else:  # the other seat was drafting: its draft move was legal for it too (never happens: one mover)
            raise AssertionError(other.json())
        unseen = [a for a in view["actions"] if a["kind"] not in kinds and a["kind"] != "pass"]
        choice = rng.choice(unseen or [a for a in view["actions"] if a["kind"] != "pass"] or view["actions"])
        kinds.add(choice["kind"])
        if rng.random() < 0.3:  # the engine's notation is accepted too
            act(client, gid, tokens[seat], type="action", move=choice["text"])
        else:
            act(client, gid, tokens[seat], type="action", action=choice["id"])
    assert {"choose_first", "submarine", "move", "commit"} <= kinds, kinds
    assert len(kinds) >= 8, kinds
    seat = client.get(f"/api/games/{gid}").json()["game"]["to_move"]
    if seat is not None:
        for bad, code in (({"action": -1}, 422), ({"action": 10**7}, 422), ({"move": "fire:Yamato>Nobody"}, 422)):
            r = client.post(f"/api/games/{gid}/act", headers=auth(tokens[seat]), json={"type": "action", **bad})
            assert r.status_code == code and r.json()["error"] == "illegal", (bad, r.json())


# --- whole games: the leak test -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("color", "agent", "turns"), [("south", "stratego", 5), ("north", "stratego", 4), ("south", "random", 4)]
)
def test_no_message_of_a_whole_game_tells_a_seat_what_it_may_not_know(
    client: TestClient, db_url: str, color: str, agent: str, turns: int
) -> None:
    res = create_admiral(client, color=color, opponent=agent, options={"max_turns": turns})
    gid = res["game"]["id"]
    seat = int(next(iter(res["seats"])))
    token = res["seats"][str(seat)]
    log, public, last = play_recorded_vs_agent(client, gid, seat, token, public_every=10)
    assert last["game"]["status"] == "over"
    states, events = log_of(db_url, gid)
    assert any(m["type"] == "delta" for m in log)
    checks = sum(check(m, seat, states, events, []) for m in judged(log, []))
    checks += sum(check(m, None, states, events, [token]) for m in public)
    assert checks > 200
    if agent == "stratego":  # the computer explains itself, once its decisions are public
        assert last["explanations"] and all(e["rule"] and e["text"] for e in last["explanations"])
        assert all(e["seat"] == 1 - seat for e in last["explanations"])
    record = GameRecord.from_json(client.get(f"/api/games/{gid}/record").json())
    assert record.replay(check=True).outcome() == states[-1].outcome()


def test_hotseat_players_and_a_spectator(client: TestClient, db_url: str) -> None:
    gid, south, north = _hotseat(client, max_turns=4)
    tokens = {0: south, 1: north}
    rng = random.Random(3)
    with hotseat_room(client, gid, tokens) as room:
        room.step(1, {"type": "setup", "setup": "random"})
        room.step(0, {"type": "setup", "setup": "random"})
        while room.state(None)["game"]["status"] != "over":
            seat = room.state(None)["game"]["to_move"]
            mine = room.state(seat)
            legal = [a for a in mine["legal"] if a != PASS] or mine["legal"]
            room.step(seat, {"type": "action", "action": rng.choice(legal)})
        for ws in room.conns.values():  # and nothing more was sent to anybody
            ws.send_json({"type": "ping", "id": "end"})
            assert ws.receive_json()["type"] == "pong"
    logs = room.logs
    states, events = log_of(db_url, gid)
    checks = 0
    for key, log in logs.items():
        others = [tokens[s] for s in (0, 1) if s != key]
        checks += sum(check(m, key, states, events, others) for m in judged(log, others))
    assert checks > 1000
    final = room.state(None)["final"]
    assert {u["owner"] for c in final["board"] for u in c["units"]} <= {0, 1}


# --- persistence -----------------------------------------------------------------------------------------


@BOTH_DATABASES
def test_an_admiral_game_survives_a_restart_and_a_draft_does_not(db_url: str) -> None:
    rng = random.Random(8)
    with TestClient(create_app(db_url, fsync=False, seed=8)) as client:  # seeded: the same dice each run
        vs = create_admiral(client, opponent="stratego", options={"max_turns": 6})
        gid, token = vs["game"]["id"], vs["seats"]["0"]
        act(client, gid, token, type="setup", setup="random")
        for _ in range(12):
            view = wait_until(client, gid, token, lambda m: m["game"]["to_move"] == 0 and bool(m["legal"]))
            legal = [a for a in view["legal"] if a != PASS] or view["legal"]
            act(client, gid, token, type="action", action=rng.choice(legal))
        for _ in range(5):  # what survives a restart is what was stored: orders not yet committed are not (below)
            before = wait_until(client, gid, token, lambda m: m["game"]["to_move"] == 0 and bool(m["legal"]))
            if "draft" not in before:
                break
            act(client, gid, token, type="action", action=COMMIT)
        assert "draft" not in before
        hid, south, north = _hotseat(client)
        tokens = {0: south, 1: north}
        act(client, hid, south, type="setup", setup="random")
        act(client, hid, north, type="setup", setup="random")
        drafting = _play_until(client, hid, tokens, "attack", rng)
        me = drafting["seat"]
        orders = [a for a in drafting["actions"] if a["kind"] != "commit"]
        if orders:
            assert act(client, hid, tokens[me], type="action", action=orders[0]["id"])["state"]["draft"]
    with TestClient(create_app(db_url, fsync=False, seed=8)) as client:
        assert seat_view(client, gid, token) == before
        ack = act(client, gid, token, type="action", action=before["legal"][0])
        assert ack["seq"] == before["game"]["seq"] + 1 or ack["state"].get("draft")  # play goes on
        again = seat_view(client, hid, tokens[me])
        assert "draft" not in again and again["legal"] == drafting["legal"]  # the seat gives its orders again
        ev = act(client, hid, tokens[me], type="action", action=COMMIT)
        assert ev["seq"] == drafting["game"]["seq"] + 1


@BOTH_DATABASES
def test_dice_are_the_servers_and_replay_the_same(client: TestClient, db_url: str) -> None:
    gid, south, north = _hotseat(client, max_turns=2)
    act(client, gid, south, type="setup", setup="random")
    act(client, gid, north, type="setup", setup="random")
    states, events = log_of(db_url, gid)
    rolls = [e for e in events if e.kind == "chance"]
    assert rolls and [decode(e.payload["action"]).kind for e in rolls] == ["roll"] * len(rolls)
    r = client.post(
        f"/api/games/{gid}/act", headers=auth(south), json={"type": "action", "action": rolls[0].payload["action"]}
    )
    assert r.status_code in (409, 422)  # nobody rolls the server's dice
    # A session rebuilt from the log lands on the same state, dice included.
    store = Store(db_url)
    try:
        meta = store.game(gid)
    finally:
        store.close()
    assert meta is not None
    assert states[-1].to_json() == GameSession.replay(meta, events).state.to_json()
