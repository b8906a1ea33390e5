"""Replays, record export (JSON, Gravon XML) and record import over the REST API.

A replay is computed by the rules engine on the server: the client gets the first view and, per
move, what changed. Finished games replay for everyone with every rank; a game still on replays
only for its players, each from its own side, and never shows the other side's hidden ranks.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fogofwar.core.records import GameRecord
from fogofwar.server.records_io import MAX_IMPORT_BYTES
from fogofwar.stratego.board import parse_square
from fogofwar.stratego.formats.gravon import parse_gravon_xml, record_from_gravon

from .server_helpers import act, auth, create, seat_view

Msg = dict[str, Any]


def hotseat(client: TestClient, variant: str = "barrage") -> tuple[str, dict[str, str]]:
    g = create(client, opponent="hotseat", variant=variant)
    gid, tokens = g["game"]["id"], g["seats"]
    act(client, gid, tokens["0"], type="setup", setup="sample")
    act(client, gid, tokens["1"], type="setup", setup="random")
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
    assert client.get("/api/games/nope/replay").status_code == 404
