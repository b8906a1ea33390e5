"""The server's fast paths give what the plain ones gave: the encoded state message is `json.dumps` of the
view, the move list extended from an earlier one is the list built from scratch, and the Core append keeps
the event log's checks (the next seq only, all events or none)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from fogofwar.core.web_adapter import Event
from fogofwar.frontends.server.session import ClientError, Command, GameSession, encode_object
from fogofwar.frontends.server.store import GameMeta, Store, StoreError, Summary

from .server_helpers import BOTH_DATABASES


def _meta(game: str, options: dict[str, Any]) -> GameMeta:
    return GameMeta(
        id="g1",
        game=game,
        options=options,
        mode="hotseat",
        agent=None,
        agent_seat=None,
        secret=bytes(32),
        players=["Ann é", "Bob \u2028"],
        token_hashes=[None, None],
        invite_hash=None,
        created_at=0.0,
        updated_at=0.0,
    )


def _starlette(msg: Any) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


def _check(session: GameSession) -> None:
    for seat in (0, 1, None):
        assert session.view_json(seat) == _starlette(session.view(seat))
    assert session.view(0)["moves"] == session.adapter.public_moves(session.state, session.log)


def _step(session: GameSession, rng: random.Random) -> GameSession:
    """One random command, played on the session (as the manager plays it once checked)."""
    if session.needs_chance():
        session.apply(session.chance_event())
        return session
    seat = session.to_move()
    assert seat is not None
    if session.adapter.in_setup(session.state):
        for s in (0, 1):
            if not session.has_set_up(s):
                session.apply(session.event_for(s, Command("setup", setup="random")))
        return session
    legal = list(session.seat_state(seat).legal_actions())
    ev = session.event_for(seat, Command("action", action=rng.choice(legal)))
    if ev.kind == "draft":
        session.apply_draft(ev)
    else:
        session.apply(ev)
    return session


@pytest.mark.parametrize(
    ("game", "options"),
    [("stratego", {"variant": "barrage", "max_moves": 60}), ("lotr", {"max_moves": 40}), ("admiral", {})],
)
def test_encoded_views_and_extended_move_lists_match_the_plain_ones(game: str, options: dict[str, Any]) -> None:
    rng = random.Random(3)
    session = GameSession(_meta(game, options))
    _check(session)
    older = session.view(None)["moves"]
    kept = json.dumps(older)
    for _ in range(150):  # Admiral's turns are many: its first ones are enough
        if session.state.is_terminal():
            break
        try:
            session = _step(session, rng)
        except ClientError:
            continue
        _check(session)
        if rng.random() < 0.1:  # a view sent earlier (the one a delta is made from) still shows its own moment
            assert json.dumps(older) == kept
            older = session.view(None)["moves"]
            kept = json.dumps(older)
    assert session.view(None)["moves"]


def test_a_move_list_that_is_not_an_earlier_one_is_rebuilt() -> None:
    session = GameSession(_meta("stratego", {"variant": "barrage"}))
    rng = random.Random(5)
    while session.state.move_count < 6:
        session = _step(session, rng)
    real = session.adapter.public_moves(session.state, session.log)
    stranger = [dict(m, notation="Z9-Z9") for m in real[:3]]
    assert session.adapter.public_moves_after(session.state, session.log, stranger) == real
    assert session.adapter.public_moves_after(session.state, session.log, real + real) == real
    assert session.adapter.public_moves_after(session.state, session.log, real[:2]) == real


def test_encode_object_keeps_the_key_order() -> None:
    msg = {"a": 1, "moves": [{"x": "é"}], "b": [None, True], "c": "\u2028"}
    assert encode_object(msg, {"moves": _starlette(msg["moves"])}) == _starlette(msg)
    assert encode_object({"moves": []}, {"moves": "[]"}) == '{"moves":[]}'
    assert encode_object(msg, {}) == _starlette(msg)


@BOTH_DATABASES
def test_append_takes_only_the_next_events_and_all_or_none(db_url: str) -> None:
    store = Store(db_url, fsync=False)
    try:
        store.create_game(_meta("stratego", {"variant": "barrage"}))
        play = Summary("play", 1, 1, None)
        store.append_events("g1", [Event(1, "setup", 0, {"placement": {}}), Event(2, "chance", None, {})], play)
        for events in (
            [Event(2, "action", 0, {"action": 1})],  # taken
            [Event(4, "action", 0, {"action": 1})],  # a gap
            [Event(3, "action", 0, {"action": 1}), Event(5, "action", 1, {"action": 2})],  # not consecutive
        ):
            with pytest.raises(StoreError):
                store.append_events("g1", events, play)
        with pytest.raises(StoreError, match="no game"):
            store.append_events("nope", [Event(1, "action", 0, {})], play)
        with store.engine.begin() as c:  # a row in the way: the update of the game row is rolled back too
            c.exec_driver_sql("INSERT INTO events VALUES ('g1', 4, 'x', 0, '{}', 0)")
        with pytest.raises(StoreError, match="already exists"):
            store.append_events("g1", [Event(3, "action", 0, {}), Event(4, "action", 1, {})], play)
        meta = store.game("g1")
        assert meta is not None and meta.seq == 2 and meta.status == "play" and meta.outcome is None
        over = Summary("over", None, 3, {"termination": "resignation", "winner": 1})
        stamp = store.append_events("g1", [Event(3, "resign", 0, {})], over)
        meta = store.game("g1")
        assert meta is not None and (meta.seq, meta.status, meta.to_move, meta.move_count) == (3, "over", None, 3)
        assert meta.outcome == over.outcome and meta.updated_at == stamp
        kinds = [(e.seq, e.kind) for e in store.events("g1")]
        assert kinds == [(1, "setup"), (2, "chance"), (3, "resign"), (4, "x")]  # the row put in the way stays
    finally:
        store.close()


def test_a_meta_copy_shares_nothing_mutable() -> None:
    meta = _meta("stratego", {"variant": "barrage", "nested": {"a": [1]}})
    meta.outcome = {"winner": 0}
    other = meta.copy()
    assert other == meta
    other.options["nested"]["a"].append(2)
    other.players[0] = "x"
    other.token_hashes[1] = "h"
    assert other.outcome is not None
    other.outcome["winner"] = 1
    assert meta.options == {"variant": "barrage", "nested": {"a": [1]}} and meta.players[0] == "Ann é"
    assert meta.token_hashes == [None, None] and meta.outcome == {"winner": 0}
