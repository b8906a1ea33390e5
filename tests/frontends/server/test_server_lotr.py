"""Stratego LOTR on the server: lobby, setups, every action path (moves, attacks, powers, Repeat Attack),
refusals, the leak test over whole games of all three games, and a restart.

The leak test records every message sent to each seat (and to a spectator) and checks it against the
ground truth rebuilt from the server's own event log: a seat's view must be exactly its engine
observation, a spectator's must show only revealed characters and the captured pieces both seats may
see, the move list must be the engine's public history, and nothing may carry a placement id (it names
a character) or the other army's setup string before the game is over. A delta is judged itself
(`check_delta`) and as the state it makes of the one held (`judged`).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fogofwar.core.protocol import InvalidSetupError
from fogofwar.core.records import GameRecord
from fogofwar.frontends.server import create_app
from fogofwar.frontends.server.records_io import build_replay
from fogofwar.frontends.server.session import Command, GameSession
from fogofwar.frontends.server.store import GameMeta
from fogofwar.games.lotr.powers import POWER_BASE, decode
from fogofwar.games.lotr.rules import PLACE_BASE, LotrGame, LotrState, captured_visible
from fogofwar.games.lotr.setup import SAMPLES
from fogofwar.games.lotr.ui.web import LotrAdapter
from fogofwar.grid.board import square_name

from .server_helpers import (
    BOTH_DATABASES,
    Msg,
    act,
    auth,
    create,
    hotseat_room,
    ints,
    judged,
    my_turn,
    play_recorded_vs_agent,
    replay_log,
    seat_view,
    wait_until,
)


def create_lotr(client: TestClient, **body: Any) -> Msg:
    return create(client, game="lotr", **body)


def truth_by_seq(db_url: str, game_id: str) -> tuple[list[LotrState], dict[int, str]]:
    """The true state after each event (index = seq), and each seat's setup string, from the log."""
    states, _events, session = replay_log(db_url, game_id)
    return [s for s in states if isinstance(s, LotrState)], dict(session.setup_strings)


def check(msg: Msg, seat: int | None, truths: list[LotrState], tokens: list[str], setups: list[str]) -> int:
    """`msg`, sent to `seat` (None: a spectator), tells nothing that seat may not know; returns cells checked.

    `tokens` must never reach this seat; `setups` (the other armies' setup strings) not before the end."""
    text = json.dumps(msg)
    for secret in tokens:
        assert secret not in text, f"another seat's token reached seat {seat}"
    if msg["type"] != "state":
        assert msg["type"] in ("ack", "error", "pong"), msg
        return 0
    truth = truths[msg["game"]["seq"]]
    if not truth.is_terminal():
        for secret in setups:
            assert secret not in text, f"LEAK: the other army's setup string reached seat {seat}"
    if truth.is_terminal():
        for sq, cell in enumerate(msg["final"]["board"]):
            piece = truth.piece_at(sq)
            if isinstance(cell, dict):
                assert piece is not None and cell["kind"] == piece[1]
        return 0
    assert "final" not in msg and "setups" not in msg
    assert not [i for i in ints(msg) if PLACE_BASE <= i < POWER_BASE], "a placement id (it names a character)"
    view = msg["view"]
    if seat is not None:
        assert view == truth.observation(seat).data, "a seat's view is its engine observation, nothing more"
    mode = truth.game.captured_mode
    checked = 0
    for sq, cell in enumerate(view["board"]):
        if not isinstance(cell, dict):
            continue
        piece = truth.piece_at(sq)
        assert piece is not None, f"a piece shown on an empty square {square_name(sq)}"
        owner, key, _rank, moved, revealed = piece
        assert (cell["owner"], cell["moved"], cell["revealed"]) == (owner, moved, revealed)
        if cell["kind"] is not None:
            if owner != seat:
                assert revealed, f"LEAK: seat {seat} sees the unrevealed {key} of seat {owner} on {square_name(sq)}"
            assert cell["kind"] == key
        else:
            assert owner != seat and cell["rank"] is None and cell["name"] is None
        checked += 1
    for owner in (0, 1):
        shown = view["captured"][owner]
        viewers = [seat] if seat is not None else [0, 1]
        if shown is not None:
            assert all(captured_visible(mode, v, owner) for v in viewers), f"LEAK: captured pieces in mode {mode}"
            assert shown == truth.captured(owner)
    public = [ev.to_json() for ev in truth.public_history()]
    assert [{k: v for k, v in m.items() if k not in ("n", "notation")} for m in msg["moves"]] == public
    if msg["legal"]:
        assert seat == truth.current_player() and msg["legal"] == truth.legal_actions()
        assert [a["id"] for a in msg["actions"]] == msg["legal"]
    else:
        assert "actions" not in msg
    if "setup" in msg:
        assert seat is not None
        own = {square_name(sq) for sq in truth.game.board.setup_squares(seat)}
        assert set(msg["setup"]["placement"]) <= own
    return checked


# --- the lobby ----------------------------------------------------------------------------------------------


def test_meta_describes_the_three_games_the_armies_and_the_powers(client: TestClient) -> None:
    lotr = next(g for g in client.get("/api/meta").json()["games"] if g["name"] == "lotr")
    assert [v["name"] for v in lotr["variants"]] == ["classic", "powers", "ring"]
    assert lotr["seats"] == ["evil", "good"] and set(lotr["agents"]) == {"expert", "search", "heuristic", "random"}
    assert lotr["captured_modes"] == ["free", "prisoner", "secret", "hidden"]
    good = lotr["armies"][1]["kinds"]
    gandalf = next(k for k in good if k["key"] == "gandalf")
    assert gandalf["rank"] == "10" and gandalf["powers"] == ["fly"]
    assert sum(k["count"] for k in good) == 40
    assert lotr["powers"]["long_bow"] == "Longbow" and lotr["mount_doom"] == "H5" and len(lotr["zones"]) == 8


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"variant": "hobbit"}, "Stratego LOTR option variant must be 'classic', 'powers' or 'ring', not 'hobbit'"),
        ({"options": {"captured_mode": "eaten"}}, "captured_mode"),
        ({"options": {"back_and_forth": 1}}, "back_and_forth"),
        ({"options": {"max_moves": -3}}, "max_moves"),
        ({"options": {"detect_flag": "immune"}}, "detect_flag must be 'captured' or 'shown', not 'immune'"),
        ({"options": {"two_squares": 5}}, "Stratego LOTR has no option 'two_squares'"),
        ({"options": {"back_and_forth": 30}}, "back_and_forth may be at most 20 on this server"),
        ({"opponent": "stratego"}, "opponent must be"),
        ({"color": "grey"}, "color must be"),
    ],
)
def test_bad_lotr_games_are_refused(client: TestClient, body: dict[str, Any], words: str) -> None:
    r = client.post("/api/games", json={"game": "lotr", "variant": "classic", "opponent": "random", **body})
    assert r.status_code == 422, r.text
    assert words in r.json()["message"]


def test_seats_are_evil_and_good_and_the_page_is_the_lotr_client(client: TestClient) -> None:
    res = create_lotr(client, color="good", opponent="heuristic", name="Frodo")
    game = res["game"]
    assert list(res["seats"]) == ["1"] and game["agent_seat"] == 0 and game["variant"] == "classic"
    assert game["players"] == ["Club (computer)", "Frodo"]  # the computer by the name people know it
    page = client.get(res["url"])
    assert page.status_code == 200 and "lotr.js" in page.text
    hot = create_lotr(client, opponent="hotseat", color="random")
    assert sorted(hot["seats"]) == ["0", "1"]


# --- setups and actions -------------------------------------------------------------------------------


def test_setups_early_random_by_hand_and_refused(client: TestClient) -> None:
    res = create_lotr(client, opponent="hotseat", variant="powers")
    gid, evil, good = res["game"]["id"], res["seats"]["0"], res["seats"]["1"]
    info = seat_view(client, gid, good)["setup"]
    assert info["random"] and info["roster"]["knight"] == 8 and len(info["area"]) == 40
    bad: list[tuple[Any, str]] = [
        ({"A1": "gandalf"}, "not in good's four home rows"),
        ({"A7": "sauron"}, "not a good piece"),
        ({"A7": "gandalf"}, "0 x Aragorn; the army has 1"),  # a single piece: the army is incomplete
        ("sample:nowhere", "no sample setup 'nowhere' for good; known: fortress corner, open flank"),
        ("GAL/ADF", "a setup string has 4 rows separated by '/', this one has 2"),
        ({"A7": 3}, "character key"),
    ]
    for setup, words in bad:
        r = client.post(f"/api/games/{gid}/act", headers=auth(good), json={"type": "setup", "setup": setup})
        assert r.status_code == 422, setup
        assert words in r.json()["message"], (setup, r.json())
    # Good sets up first, by hand: a mirror of a random army, checked now and applied after Evil's.
    preview = client.post(
        "/api/setup-preview", json={"game": "lotr", "variant": "powers", "seat": 1, "setup": "random"}
    ).json()
    assert len(preview["placement"]) == 40 and len(preview["string"]) == 43
    again = client.post(
        "/api/setup-preview", json={"game": "lotr", "variant": "powers", "seat": 1, "setup": preview["string"]}
    ).json()
    assert again == preview  # the string reads back as the same army
    ack = act(client, gid, good, type="setup", setup=preview["placement"])
    assert ack["state"]["setup"]["done"] and ack["state"]["setup"]["placement"] == preview["placement"]
    assert seat_view(client, gid, evil)["view"]["board"].count(None) == 100 - 8 - 0  # nothing of Good shows
    act(client, gid, evil, type="setup", setup="random")
    view = seat_view(client, gid, evil)
    assert view["game"]["status"] == "play" and view["game"]["to_move"] == 0 and view["legal"]
    r = client.post(f"/api/games/{gid}/act", headers=auth(evil), json={"type": "setup", "setup": "random"})
    assert r.status_code == 409


def test_setups_from_samples_and_strings_and_the_string_each_seat_sees(client: TestClient) -> None:
    res = create_lotr(client, opponent="hotseat", variant="ring")
    gid, evil, good = res["game"]["id"], res["seats"]["0"], res["seats"]["1"]
    info = seat_view(client, gid, evil)["setup"]
    assert info["samples"] == list(SAMPLES["evil"]) and info["string"] == ""
    meta = next(g for g in client.get("/api/meta").json()["games"] if g["name"] == "lotr")
    assert [a["samples"] for a in meta["armies"]] == [list(SAMPLES["evil"]), list(SAMPLES["good"])]
    assert {k["key"]: k["letter"] for k in meta["armies"][1]["kinds"]}["gimli"] == "I"
    ack = act(client, gid, good, type="setup", setup="sample:open flank")
    assert ack["state"]["setup"]["string"] == SAMPLES["good"]["open flank"]
    assert ack["state"]["setup"]["placement"]["H10"] == "flag"
    assert seat_view(client, gid, evil)["setup"]["string"] == ""  # Good's string is Good's only
    typed = SAMPLES["evil"]["fortress corner"].lower()
    act(client, gid, evil, type="setup", setup=typed)
    assert seat_view(client, gid, evil)["view"]["board"][0]["kind"] == "flag"  # A1, as the string says
    assert "setups" not in seat_view(client, gid, evil) and "setups" not in client.get(f"/api/games/{gid}").json()
    done = client.post(f"/api/games/{gid}/resign", headers=auth(good)).json()["state"]
    assert done["setups"] == {"0": SAMPLES["evil"]["fortress corner"], "1": SAMPLES["good"]["open flank"]}
    replay = client.get(f"/api/games/{gid}/replay").json()
    assert replay["setups"] == done["setups"]
    adapter = LotrAdapter()  # what no HTTP body can carry still gets a reason
    state = adapter.make_game({"variant": "ring"}).new_initial_state()
    with pytest.raises(InvalidSetupError, match="'random', 'sample', 'sample:NAME', a setup string or"):
        adapter.parse_setup(state, 0, ["random"], random.Random(1))


def _hotseat_in_play(client: TestClient, variant: str) -> tuple[str, str, str]:
    res = create_lotr(client, opponent="hotseat", variant=variant)
    gid, evil, good = res["game"]["id"], res["seats"]["0"], res["seats"]["1"]
    act(client, gid, evil, type="setup", setup="random")
    act(client, gid, good, type="setup", setup="random")
    return gid, evil, good


def test_moves_powers_and_refusals_in_game_2(client: TestClient) -> None:
    gid, evil, good = _hotseat_in_play(client, "powers")
    view = seat_view(client, gid, evil)
    kinds = {a["kind"] for a in view["actions"]}
    assert "move" in kinds and kinds <= {"move", "attack", "fly"}
    r = client.post(f"/api/games/{gid}/act", headers=auth(good), json={"type": "action", "action": view["legal"][0]})
    assert r.status_code == 409 and r.json()["error"] == "not_your_turn"
    for bad in (
        {"type": "action", "move": "fly A1-A9"},
        {"type": "action", "move": "C5-C6"},
        {"type": "action", "action": 58400},
    ):
        r = client.post(f"/api/games/{gid}/act", headers=auth(evil), json=bad)
        assert r.status_code == 422 and r.json()["error"] == "illegal", (bad, r.json())
    rng = random.Random(4)
    powers_used = 0
    for _ in range(400):  # play on, preferring powers, until a few have been used
        token = evil if view["game"]["to_move"] == 0 else good
        view = seat_view(client, gid, token)
        if view["game"]["status"] == "over":
            break
        powered = [a for a in view["actions"] if a["kind"] not in ("move", "attack", "stop")]
        choice = rng.choice(powered or view["actions"])
        if powered:
            powers_used += 1
            assert choice["id"] >= POWER_BASE and decode(choice["id"]) is not None and choice["power"]
            if choice["kind"] == "fly":  # a power given in notation reads the same
                assert act(client, gid, token, type="action", move=choice["text"])["seq"] > 0
                view = seat_view(client, gid, token)
                continue
        act(client, gid, token, type="action", action=choice["id"])
        view = seat_view(client, gid, token)
        if powers_used >= 4:
            break
    assert powers_used >= 4
    moves = seat_view(client, gid, evil)["moves"]
    assert any(
        "power" in m and m["notation"].split()[0] in ("fly", "detect", "bow", "steed", "rage", "axe") for m in moves
    )
    done = client.post(f"/api/games/{gid}/resign", headers=auth(good)).json()["state"]
    assert done["game"]["outcome"]["winner"] == 0 and "final" in done
    record = GameRecord.from_json(client.get(f"/api/games/{gid}/record").json())
    assert record.game == "lotr" and record.replay(check=True).is_terminal()


# --- whole games: the leak test ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "mode", "color", "agent"),
    [
        ("classic", "free", "evil", "random"),
        ("powers", "prisoner", "good", "heuristic"),
        ("ring", "secret", "evil", "heuristic"),
        ("ring", "hidden", "good", "random"),
        ("classic", "hidden", "good", "search"),  # Game 1: the search looks ahead over guesses
    ],
)
def test_no_message_of_a_whole_game_tells_a_seat_what_it_may_not_know(
    client: TestClient, db_url: str, variant: str, mode: str, color: str, agent: str
) -> None:
    res = create_lotr(
        client, variant=variant, color=color, opponent=agent, options={"captured_mode": mode, "max_moves": 120}
    )
    gid = res["game"]["id"]
    seat = int(next(iter(res["seats"])))
    token = res["seats"][str(seat)]
    log, public, last = play_recorded_vs_agent(client, gid, seat, token, public_every=20)
    assert last["game"]["status"] == "over"
    truths, setups = truth_by_seq(db_url, gid)
    assert all(len(setups[s]) == 43 for s in (0, 1)), setups
    assert any(m["type"] == "delta" for m in log)
    checked = sum(check(m, seat, truths, [], [setups[1 - seat]]) for m in judged(log, [], [setups[1 - seat]]))
    checked += sum(check(m, None, truths, [token], [setups[0], setups[1]]) for m in public)
    assert checked > 40  # even the shortest game shows the own army in setup and in play (the cells are checked)
    assert last["setups"] == {str(s): setups[s] for s in (0, 1)}  # once it is over, both setups are shown
    final = last["final"]
    assert all(c["kind"] for c in final["board"] if isinstance(c, dict))
    assert final["captured"] == [truths[-1].captured(0), truths[-1].captured(1)]


def test_hotseat_players_and_a_spectator_of_game_3(client: TestClient, db_url: str) -> None:
    res = create_lotr(
        client, opponent="hotseat", variant="ring", options={"captured_mode": "prisoner", "max_moves": 80}
    )
    gid, tokens = res["game"]["id"], res["seats"]
    rng = random.Random(9)
    with hotseat_room(client, gid, {s: tokens[str(s)] for s in (0, 1)}) as room:
        room.step(1, {"type": "setup", "setup": "random"})
        room.step(0, {"type": "setup", "setup": "random"})
        while room.state(0)["game"]["status"] != "over":
            seat = room.state(0)["game"]["to_move"]
            room.step(seat, {"type": "action", "action": rng.choice(room.state(seat)["legal"])})
    logs = room.logs
    truths, setups = truth_by_seq(db_url, gid)
    checked = 0
    for key, log in logs.items():
        others = [s for s in (0, 1) if s != key]
        secrets = [tokens[str(s)] for s in others]
        hidden = [setups[s] for s in others]
        checked += sum(check(m, key, truths, secrets, hidden) for m in judged(log, secrets, hidden))
    assert checked > 300
    assert room.state(None)["view"]["captured"] == [None, None]  # prisoners are nobody else's business


# --- persistence -------------------------------------------------------------------------------------------


@BOTH_DATABASES
def test_a_lotr_game_survives_a_restart(db_url: str) -> None:
    rng = random.Random(5)
    with TestClient(create_app(db_url, fsync=False, seed=5)) as client:
        for _attempt in range(5):  # a random game may end at once (a flag left in the front row): play another
            res = create_lotr(client, variant="powers", opponent="heuristic", color="good")
            gid, token = res["game"]["id"], res["seats"]["1"]
            act(client, gid, token, type="setup", setup="random")
            for _ in range(5):
                view = wait_until(client, gid, token, my_turn(1))
                if not view["legal"]:
                    break
                moves = [a["id"] for a in view["actions"] if a["kind"] == "move"] or view["legal"]
                act(client, gid, token, type="action", action=rng.choice(moves))
            before = wait_until(client, gid, token, my_turn(1))
            if before["legal"]:
                break
        public_before = client.get(f"/api/games/{gid}").json()
    with TestClient(create_app(db_url, fsync=False, seed=5)) as client:
        assert seat_view(client, gid, token) == before
        assert client.get(f"/api/games/{gid}").json() == public_before
        act(client, gid, token, type="action", action=before["legal"][0])
        after = wait_until(client, gid, token, lambda m: m["game"]["move_count"] == before["game"]["move_count"] + 2)
        assert after["moves"][: len(before["moves"])] == before["moves"]


def _crafted_session() -> GameSession:
    """A Game 2 session from a crafted position (a server game always starts from the setup): Evil's
    Uruk-Hai on E4 faces Good's Knight on E5, with a Soldier behind it on E6."""
    meta = GameMeta(
        id="craft",
        game="lotr",
        options={"variant": "powers"},
        mode="hotseat",
        agent=None,
        agent_seat=None,
        secret=bytes(32),
        players=["a", "b"],
        token_hashes=[None, None],
        invite_hash=None,
        created_at=0.0,
        updated_at=0.0,
    )
    session = GameSession(meta)
    game = session.game
    assert isinstance(game, LotrGame)
    session.state = game.state_from_position(
        [
            ("E4", 0, "uruk_hai"),
            ("A1", 0, "flag"),
            ("B1", 0, "orc"),
            ("E5", 1, "knight"),
            ("E6", 1, "soldier"),
            ("K10", 1, "flag"),
            ("A10", 1, "elf"),
        ],
        to_move=0,
    )
    return session


def test_a_repeat_attack_is_offered_and_stopped_through_the_session() -> None:
    """An Uruk-Hai wins an attack next to another enemy, may attack again (LOTR-REPEAT-1), and its
    player stops."""
    session = _crafted_session()
    attack = session.event_for(0, Command("action", move="E4xE5"))
    session.apply(attack)
    view = session.view(0)
    assert view["view"]["pending"]["square"] == "E5" and view["game"]["to_move"] == 0
    kinds = {a["kind"] for a in view["actions"]}
    assert kinds == {"attack", "stop"}  # attack again from E5, or stop
    assert session.view(1)["legal"] == []
    session.apply(session.event_for(0, Command("action", move="stop")))
    after = session.view(1)
    assert after["game"]["to_move"] == 1 and [m["notation"] for m in after["moves"]] == ["E4xE5", "stop"]


def test_a_repeat_attack_reads_the_same_in_the_move_list_and_in_every_replay() -> None:
    """LOTR-REPEAT-1: the second attack is written 'E5xE6 (again)' by the move list, and so by the
    replay of the whole game and by each seat's own replay (the engine's notation says only 'E5xE6')."""
    session = _crafted_session()
    session.apply(session.event_for(0, Command("action", move="E4xE5")))
    session.apply(session.event_for(0, Command("action", move="E5xE6")))
    listed = [m["notation"] for m in session.view(None)["moves"]]
    assert listed == ["E4xE5", "E5xE6 (again)"]
    for viewer in (None, 0, 1):
        replay = build_replay(session.adapter, session.game, session.state.to_json(), viewer=viewer)
        assert [step["notation"] for step in replay["steps"]] == listed, viewer
