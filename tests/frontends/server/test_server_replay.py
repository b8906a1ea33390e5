"""Replays, record export (JSON, Gravon XML) and record import over the REST API.

A replay is computed by the rules engine on the server: the client gets the first view and, per
move, what changed. Finished games replay for everyone with every rank; a game still on replays
only for its players, each from its own side, and never shows the other side's hidden ranks.
Stratego LOTR replays every character, battle and power; Admiral every roll (one step per roll),
decision and resolution report, and keeps another seat's secret orders secret, even their number.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fogofwar.core.records import GameRecord
from fogofwar.frontends.server.records_io import MAX_IMPORT_BYTES
from fogofwar.games.admiral.actions import COMMIT, PASS
from fogofwar.games.stratego.formats.gravon import parse_gravon_xml, record_from_gravon
from fogofwar.grid.board import parse_square

from .server_helpers import BOTH_DATABASES, act, auth, create, seat_view

Msg = dict[str, Any]


def hotseat(client: TestClient, variant: str = "barrage") -> tuple[str, dict[str, str]]:
    """A hot-seat game past its setups; both armies are the variant's sample, so that the seeded random
    moves of `play` make the same game every run (a random army may lose its flag at once)."""
    g = create(client, opponent="hotseat", variant=variant)
    gid, tokens = g["game"]["id"], g["seats"]
    act(client, gid, tokens["0"], type="setup", setup="sample")
    act(client, gid, tokens["1"], type="setup", setup="sample")
    return gid, tokens


def play(client: TestClient, gid: str, tokens: dict[str, str], moves: int, seed: int = 1) -> int:
    """Random legal moves for whoever is to move; returns how many were played."""
    rng = random.Random(seed)
    played = 0
    while played < moves:
        info = client.get(f"/api/games/{gid}").json()["game"]
        if info["status"] == "over":
            break
        seat = str(info["to_move"])
        view = seat_view(client, gid, tokens[seat])
        act(client, gid, tokens[seat], type="action", action=rng.choice(view["legal"]))
        played += 1
    return played


def finished_game(client: TestClient, moves: int = 40, seed: int = 1) -> tuple[str, dict[str, str]]:
    gid, tokens = hotseat(client)
    play(client, gid, tokens, moves, seed)
    if client.get(f"/api/games/{gid}").json()["game"]["status"] != "over":
        act(client, gid, tokens["0"], type="resign")
    return gid, tokens


def views_of(replay: Msg) -> list[Msg]:
    """Patch the replay's changes in, as the browser does: the whole view after each move."""
    views = [replay["start"]]
    for step in replay["steps"]:
        prev = views[-1]
        board = list(prev["board"])
        for sq, cell in step["changes"].items():
            board[int(sq)] = cell
        views.append({**prev, **step["set"], "board": board})
    return views


@BOTH_DATABASES
def test_a_finished_game_replays_for_everyone_with_every_rank(client: TestClient) -> None:
    gid, _ = finished_game(client)
    r = client.get(f"/api/games/{gid}/replay")  # no token: a spectator
    assert r.status_code == 200, r.text
    replay = r.json()
    assert replay["perspective"] is None and replay["game"]["status"] == "over"
    assert replay["outcome"] == replay["game"]["outcome"] is not None
    views = views_of(replay)
    pieces = [c for c in views[0]["board"] if isinstance(c, dict)]
    assert len(pieces) == 16 and all(c["rank"] for c in pieces)  # both barrage armies, every rank
    assert set(replay["setups"]) == {"0", "1"}
    # The patched views are the server's own views after move N.
    for n in sorted({0, 1, len(views) // 2, len(views) - 1}):
        step = client.get(f"/api/games/{gid}/replay", params={"step": n}).json()
        assert step["step"] == n
        assert step["view"]["board"] == views[n]["board"]
        assert step["view"]["captured"] == views[n]["captured"]
        if n:
            assert step["move"]["notation"] == replay["steps"][n - 1]["notation"]
    # The last view is the final position the game page shows; the move list matches the game's.
    final = client.get(f"/api/games/{gid}").json()
    assert views[-1]["board"] == final["final"]["board"]
    assert [s["notation"] for s in replay["steps"]] == [m["notation"] for m in final["moves"]]
    battles = [s for s in replay["steps"] if (s["set"].get("last_move") or {}).get("result")]
    for s in battles:  # a battle shows both ranks
        assert s["set"]["last_move"]["attacker"] and s["set"]["last_move"]["defender"]
    assert client.get(f"/api/games/{gid}/replay", params={"step": len(views)}).status_code == 404


@BOTH_DATABASES
def test_a_game_in_progress_replays_only_for_its_players_from_their_side(client: TestClient) -> None:
    gid, tokens = hotseat(client)
    play(client, gid, tokens, 12, seed=3)
    assert client.get(f"/api/games/{gid}").json()["game"]["status"] == "play"
    r = client.get(f"/api/games/{gid}/replay")
    assert r.status_code == 409 and r.json()["error"] == "not_over"
    assert client.get(f"/api/games/{gid}/replay", params={"step": 0}).status_code == 409
    assert client.get(f"/api/games/{gid}/replay", headers=auth("not-a-token")).status_code == 403
    for fmt in ("json", "gravon"):
        assert client.get(f"/api/games/{gid}/record", params={"format": fmt}).status_code == 409
    for seat in (0, 1):
        r = client.get(f"/api/games/{gid}/replay", headers=auth(tokens[str(seat)]))
        assert r.status_code == 200, r.text
        replay = r.json()
        assert replay["perspective"] == seat and replay["setups"] == {}
        assert "final" not in json.dumps(replay)
        for view in views_of(replay):
            for cell in view["board"]:
                if isinstance(cell, dict) and cell["owner"] != seat:
                    assert cell["rank"] is None or cell["revealed"], cell  # nothing hidden leaks
        now = seat_view(client, gid, tokens[str(seat)])["view"]
        assert views_of(replay)[-1]["board"] == now["board"]  # ends where the seat's own view is


@BOTH_DATABASES
def test_export_as_json_record_and_gravon_xml(client: TestClient) -> None:
    gid, _ = finished_game(client, seed=5)
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert f'filename="fogofwar-{gid}.json"' in r.headers["content-disposition"]
    record = GameRecord.loads(r.text)
    state = record.replay(check=True)
    x = client.get(f"/api/games/{gid}/record", params={"format": "gravon"})
    assert x.status_code == 200 and x.headers["content-type"].startswith("application/xml")
    assert f'filename="fogofwar-{gid}.xml"' in x.headers["content-disposition"]
    gravon = parse_gravon_xml(x.content, "export.xml")
    assert gravon.game_type == "barrage"
    assert [f"{a // 100:02d}{a % 100:02d}" for a in record.actions if a < 10_000] == [
        f"{parse_square(src):02d}{parse_square(dst):02d}" for src, dst in gravon.moves
    ]
    outcome, again = state.outcome(), record_from_gravon(gravon).replay().outcome()
    assert outcome is not None and again is not None and again.winner == outcome.winner
    bad = client.get(f"/api/games/{gid}/record", params={"format": "pgn"})
    assert bad.status_code == 400 and "json, gravon" in bad.json()["message"]


def test_import_a_json_record_and_a_gravon_file(client: TestClient) -> None:
    gid, _ = finished_game(client, seed=7)
    text = client.get(f"/api/games/{gid}/record").text
    xml = client.get(f"/api/games/{gid}/record", params={"format": "gravon"}).content
    ours = client.get(f"/api/games/{gid}/replay").json()
    before = client.get("/api/games").json()
    for name, body, fmt in (("game.json", text.encode(), "json"), ("game.xml", xml, "gravon")):
        r = client.post("/api/replay/import", params={"name": name}, content=body)
        assert r.status_code == 200, r.text
        replay = r.json()
        assert replay["format"] == fmt and replay["game"]["source"] == name and replay["game"]["id"] is None
        assert [s["notation"] for s in replay["steps"]] == [s["notation"] for s in ours["steps"]]
        assert views_of(replay)[-1]["board"] == views_of(ours)[-1]["board"]
        assert replay["exports"]["json"]["format"] == "fogofwar-record"
        assert parse_gravon_xml(replay["exports"]["gravon"], "x").moves == parse_gravon_xml(xml, "y").moves
    assert client.get("/api/games").json() == before  # an import stores nothing


def _record_with_bad_move(client: TestClient) -> bytes:
    gid, _ = finished_game(client, seed=9)
    data = client.get(f"/api/games/{gid}/record").json()
    setup_actions = sum(1 for a in data["actions"] if a >= 10_000)
    data["actions"][setup_actions + 2] = 4243  # move 3: into a lake
    data["notation"] = []
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (b"", 422, "is empty"),
        (b"\xff\xfe{}", 422, "not UTF-8"),
        (b'{"format": "fogofwar-record", "version": 1,', 422, "malformed JSON at line 1, column"),
        (b'{"hello": 1}', 422, "not a fogofwar record"),
        (b'{"format": "fogofwar-record", "version": 1, "game": "chess", "actions": []}', 422, "'chess'"),
        (b"<stratego><game type='classic'><field", 422, "not well-formed XML"),
        (b'<stratego><game type="ultimate lightning"><field content="A"/></game></stratego>', 422, "not played here"),
        (b'<!DOCTYPE x [<!ENTITY a "b">]><stratego/>', 422, "DOCTYPE"),
        (b"PK\x03\x04 a zip file", 422, "neither a fogofwar JSON record"),
        (b"{" + b" " * MAX_IMPORT_BYTES + b"}", 413, "over the limit"),
    ],
)
def test_bad_files_are_refused_with_a_clear_error(client: TestClient, body: bytes, status: int, message: str) -> None:
    r = client.post("/api/replay/import", params={"name": "upload.txt"}, content=body)
    assert r.status_code == status, r.text
    assert r.json()["error"] in ("bad_record", "too_large")
    assert message in r.json()["message"]


def test_an_illegal_move_is_named_by_its_number(client: TestClient) -> None:
    body = _record_with_bad_move(client)
    before = client.get("/api/games").json()
    r = client.post("/api/replay/import", params={"name": "bad.json"}, content=body)
    assert r.status_code == 422
    assert r.json()["message"].startswith("bad.json: move 3 (")
    assert "is illegal" in r.json()["message"]
    assert client.get("/api/games").json() == before


def test_pages_are_served(client: TestClient) -> None:
    for path in ("/replay", "/replay/whatever"):
        r = client.get(path)
        assert r.status_code == 200 and "replay.js" in r.text
    assert client.get("/static/replay.js").status_code == 200
    assert client.get("/static/setup_editor.js").status_code == 200
    for module in ("replay_lotr.js", "replay_admiral.js", "lotr_board.js", "admiral_board.js", "svg.js"):
        assert client.get(f"/static/{module}").status_code == 200, module
    assert client.get("/api/games/nope/replay").status_code == 404


# --- Stratego LOTR and Admiral ---------------------------------------------------------------------------
def hotseat_game(client: TestClient, game: str, variant: str, **options: Any) -> tuple[str, dict[str, str]]:
    """A hot-seat game of LOTR or Admiral, both armies set up at random."""
    r = client.post("/api/games", json={"game": game, "variant": variant, "opponent": "hotseat", "options": options})
    assert r.status_code == 201, r.text
    gid, tokens = r.json()["game"]["id"], r.json()["seats"]
    act(client, gid, tokens["0"], type="setup", setup="random")
    act(client, gid, tokens["1"], type="setup", setup="random")
    return gid, tokens


def play_lotr(
    client: TestClient, gid: str, tokens: dict[str, str], moves: int, rng: random.Random, eager: bool = True
) -> None:
    """Random moves for whoever is to move; `eager`: attacks first, and often a special power."""
    for _ in range(moves):
        info = client.get(f"/api/games/{gid}").json()["game"]
        if info["status"] == "over":
            return
        seat = str(info["to_move"])
        actions = seat_view(client, gid, tokens[seat])["actions"]
        attacks = [a for a in actions if a["kind"] == "attack" or a.get("attack")]
        powers = [a for a in actions if a["kind"] not in ("move", "attack", "stop")]
        pool = (attacks or (powers if powers and rng.random() < 0.4 else actions)) if eager else actions
        act(client, gid, tokens[seat], type="action", action=rng.choice(pool)["id"])


@BOTH_DATABASES
def test_a_finished_lotr_game_replays_every_character_battle_and_power(client: TestClient) -> None:
    for attempt in range(5):  # random armies: a flag in reach may end a game at once; play another
        gid, tokens = hotseat_game(client, "lotr", "powers")
        play_lotr(client, gid, tokens, 70, random.Random(attempt))
        if client.get(f"/api/games/{gid}").json()["game"]["move_count"] > 10:
            break
    if client.get(f"/api/games/{gid}").json()["game"]["status"] != "over":
        act(client, gid, tokens["1"], type="resign")
    r = client.get(f"/api/games/{gid}/replay")  # no token: anybody
    assert r.status_code == 200, r.text
    replay = r.json()
    assert replay["perspective"] is None and replay["game"]["game"] == "lotr"
    views = views_of(replay)
    start = views[0]["board"]
    assert start.count("zone") == 8  # the two Forbidden Zones
    pieces = [c for c in start if isinstance(c, dict)]
    assert len(pieces) == 80 and all(c["kind"] and c["name"] and c["rank"] for c in pieces)  # every character
    # One step per move, each the public move the game's own list shows, battles and powers with all they showed.
    game = client.get(f"/api/games/{gid}").json()
    moves = game["moves"]
    assert len(replay["steps"]) == len(moves) > 10  # the Uruk-Hai's repeated attacks and stop are moves too
    for step, move in zip(replay["steps"], moves, strict=True):
        assert step["notation"] == move["notation"]
        assert views[step["n"]]["last_move"] == {k: v for k, v in move.items() if k not in ("n", "notation")}
    lasts = [v["last_move"] for v in views[1:]]
    battles = [m for m in lasts if m.get("defender")]
    powers = [m for m in lasts if m.get("power")]
    assert battles and all(m["attacker_rank"] and m["defender_rank"] and m["result"] for m in battles)
    assert powers and all(m["attacker"] and m["attacker_rank"] for m in powers)
    # The view after step N is the server's own; the last one is the game's final board, every capture shown.
    for n in sorted({1, len(views) // 2, len(views) - 1}):
        at = client.get(f"/api/games/{gid}/replay", params={"step": n}).json()
        assert at["view"]["board"] == views[n]["board"] and at["view"]["last_move"] == views[n]["last_move"]
        assert at["view"]["captured"] == views[n]["captured"] and at["move"]["notation"] == moves[n - 1]["notation"]
    assert views[-1]["board"] == game["final"]["board"] and views[-1]["captured"] == game["final"]["captured"]
    assert sum(len(c) for c in views[-1]["captured"]) == sum(views[-1]["captured_count"]) > 0
    assert client.get(f"/api/games/{gid}/replay", params={"step": len(views)}).status_code == 404


def test_a_lotr_game_in_progress_replays_only_for_its_players_and_hides_the_enemy(client: TestClient) -> None:
    for _attempt in range(5):  # a random army may leave its flag in reach: play another game
        gid, tokens = hotseat_game(client, "lotr", "powers")
        play_lotr(client, gid, tokens, 16, random.Random(5), eager=False)
        if client.get(f"/api/games/{gid}").json()["game"]["status"] == "play":
            break
    assert client.get(f"/api/games/{gid}").json()["game"]["status"] == "play"
    assert client.get(f"/api/games/{gid}/replay").status_code == 409  # a spectator: not before the end
    assert client.get(f"/api/games/{gid}/replay", params={"step": 1}).status_code == 409
    assert client.get(f"/api/games/{gid}/replay", headers=auth("not-a-token")).status_code == 403
    for seat in (0, 1):
        r = client.get(f"/api/games/{gid}/replay", headers=auth(tokens[str(seat)]))
        assert r.status_code == 200, r.text
        replay = r.json()
        assert replay["perspective"] == seat and "final" not in json.dumps(replay)
        views = views_of(replay)
        for view in views:
            assert view["player"] == seat
            for cell in view["board"]:
                if isinstance(cell, dict) and cell["owner"] != seat and not cell["revealed"]:
                    assert cell["kind"] is None and cell["name"] is None and cell["rank"] is None, cell
        mine = seat_view(client, gid, tokens[str(seat)])
        assert [s["notation"] for s in replay["steps"]] == [m["notation"] for m in mine["moves"]]
        assert views[-1]["board"] == mine["view"]["board"]


def play_admiral(client: TestClient, gid: str, tokens: dict[str, str], rng: random.Random, limit: int = 3000) -> None:
    """Random decisions for whoever is to decide (secret orders drafted and committed) until the game is over."""
    for _ in range(limit):
        info = client.get(f"/api/games/{gid}").json()["game"]
        if info["status"] == "over":
            return
        seat = str(info["to_move"])
        act(client, gid, tokens[seat], type="action", action=rng.choice(seat_view(client, gid, tokens[seat])["legal"]))
    raise AssertionError("the game did not end")


@BOTH_DATABASES
def test_a_finished_admiral_game_replays_rolls_decisions_and_their_results(client: TestClient) -> None:
    gid, tokens = hotseat_game(client, "admiral", "archipelago", max_turns=2)
    play_admiral(client, gid, tokens, random.Random(3))
    r = client.get(f"/api/games/{gid}/replay")
    assert r.status_code == 200, r.text
    replay = r.json()
    assert replay["perspective"] is None and replay["game"]["game"] == "admiral"
    views = views_of(replay)
    steps = replay["steps"]
    # Both fleets from the start (the deployment is the setup), every unit with its name and structure.
    fleet = [u for c in views[0]["board"] for u in c["units"]]
    assert {u["owner"] for u in fleet} == {0, 1} and all(u["name"] and u["structure"] > 0 for u in fleet)
    # A step is one decision, or all the dice of one roll: every action of the record, in order.
    record = client.get(f"/api/games/{gid}/record").json()
    texts = [t for s in steps for t in s.get("texts", [s["notation"]])]
    assert record["notation"][len(record["notation"]) - len(texts) :] == texts
    assert len(record["notation"]) - len(texts) == len(fleet)  # the rest: the deployments
    assert [s["n"] for s in steps] == list(range(1, len(steps) + 1))
    for s in steps:
        assert s["turn"] in (1, 2) and s["phase"]
        if s["player"] == -1:
            assert s["texts"] and all(t.startswith("roll:") for t in s["texts"])
            assert s["notation"] == "; ".join(s["texts"])
        else:
            assert "texts" not in s and not s["notation"].startswith("roll:")
    for a, b in zip(steps, steps[1:], strict=False):
        assert not (a["player"] == b["player"] == -1 and (a["phase"], a["turn"]) == (b["phase"], b["turn"]))
    first = steps[0]
    assert (first["player"], first["phase"]) == (-1, "initiative")
    assert any(views[1]["initiative"]["rolls"]) and views[1]["initiative"]["winner"] in (0, 1)
    dice = next(s for s in steps if s["phase"] == "action_dice")
    assert all(views[dice["n"]]["fleets"][p]["dice"] for p in (0, 1))  # both pools rolled in one step
    # Each turn's attack assignment ends with both seats' commits; what was ordered is reported.
    commits = [s for s in steps if s["phase"] == "attack" and s["notation"] == "commit"]
    assert len(commits) >= 2 and {s["player"] for s in commits} == {0, 1}
    for s in steps:
        if s["phase"] == "attack" and s["notation"].startswith(("fire:", "torpedo:")):
            resolved = max(c["n"] for c in commits if c["turn"] == s["turn"])  # the second seat's commit
            assert resolved > s["n"] and views[resolved]["report"]
    # The view after step N is the server's own; the last is the game's final view.
    for n in sorted({1, len(views) // 2, len(views) - 1}):
        at = client.get(f"/api/games/{gid}/replay", params={"step": n}).json()
        for key in ("board", "fleets", "report", "phase", "turn", "initiative"):
            assert at["view"][key] == views[n][key], (n, key)
        assert at["move"]["notation"] == steps[n - 1]["notation"]
    game = client.get(f"/api/games/{gid}").json()
    assert views[-1]["board"] == game["final"]["board"] and views[-1]["fleets"] == game["final"]["fleets"]
    assert views[-1]["outcome"] == replay["outcome"] == game["game"]["outcome"] is not None
    assert client.get(f"/api/games/{gid}/replay", params={"step": len(views)}).status_code == 404
    # Its record file replays the same.
    imported = client.post("/api/replay/import", params={"name": "admiral.json"}, content=json.dumps(record)).json()
    assert [s["notation"] for s in imported["steps"]] == [s["notation"] for s in steps]


def test_an_admiral_game_in_progress_keeps_the_secret_orders_from_the_other_player(client: TestClient) -> None:
    rng = random.Random(7)
    found = None
    for _game in range(8):  # the server seeds the dice: try turns and games until the first to assign has an order
        gid, tokens = hotseat_game(client, "admiral", "archipelago", max_turns=6)
        for _ in range(2000):
            info = client.get(f"/api/games/{gid}").json()["game"]
            if info["status"] == "over":
                break
            seat = str(info["to_move"])
            view = seat_view(client, gid, tokens[seat])
            if view["view"]["phase"] == "attack" and not view["view"]["fleets"][1 - int(seat)]["committed"]:
                orders = [a for a in view["actions"] if a["kind"] != "commit"]
                if orders:
                    act(client, gid, tokens[seat], type="action", action=orders[0]["id"])
                    act(client, gid, tokens[seat], type="action", action=COMMIT)
                    found = (gid, tokens, int(seat), orders[0]["text"])
                    break
                act(client, gid, tokens[seat], type="action", action=COMMIT)
                continue
            legal = [a for a in view["legal"] if a != PASS] or view["legal"]
            act(client, gid, tokens[seat], type="action", action=rng.choice(legal))
        if found:
            break
    assert found, "no game gave the first seat to assign an order"
    gid, tokens, first, order = found
    second = 1 - first
    assert seat_view(client, gid, tokens[str(second)])["view"]["phase"] == "attack"
    assert client.get(f"/api/games/{gid}/replay").status_code == 409
    theirs = client.get(f"/api/games/{gid}/replay", headers=auth(tokens[str(second)])).json()
    assert theirs["perspective"] == second
    last = theirs["steps"][-1]  # the whole assignment, and how many orders it has, stays secret
    assert last["player"] == first and last["hidden"] and "texts" not in last and last["phase"] == "attack"
    assert order not in json.dumps(theirs) and "commit" not in last["notation"].split()
    assert all(v["fleets"][first]["orders"] in (None, []) for v in views_of(theirs)[-2:])
    rolls = [s for s in theirs["steps"] if s["player"] == -1]
    assert rolls and all(s["texts"] for s in rolls)  # the dice are public
    mine = client.get(f"/api/games/{gid}/replay", headers=auth(tokens[str(first)])).json()
    assert [s["notation"] for s in mine["steps"][-2:]] == [order, "commit"]  # its own orders, one by one
    assert not any(s.get("hidden") and s["player"] == first for s in mine["steps"])
