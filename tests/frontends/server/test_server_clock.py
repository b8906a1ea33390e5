"""Game clocks and aborting: time controls chosen at creation, enforced by the server from the event log's times,
a loss on time recorded as such (whenever the server notices it), clocks that survive a restart, and aborting
a game in its first moves. The server's time is moved by the tests (`clock.now`), never waited for."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fogofwar.core.protocol import RecordError
from fogofwar.core.web_adapter import Event
from fogofwar.frontends.server import clock as game_clock
from fogofwar.frontends.server.app import create_app
from fogofwar.frontends.server.clock import DAY, Clocks, TimeControl, TimeControlError
from fogofwar.frontends.server.manager import GameManager
from fogofwar.frontends.server.session import GameSession
from fogofwar.frontends.server.store import Store

from .server_helpers import BOTH_DATABASES, Follower, act, auth, create, seat_view

START = 1_900_000_000.0


class FakeTime:
    """The server's clock, moved by hand."""

    def __init__(self) -> None:
        self.t = START

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeTime]:
    fake = FakeTime()
    monkeypatch.setattr(game_clock, "now", fake)
    yield fake


# --- the time control and the clock's arithmetic ----------------------------------------------------
@pytest.mark.parametrize(
    ("spec", "label", "start"),
    [
        ("5+3", "5+3", 300.0),
        (" 15 + 10 ", "15+10", 900.0),
        ("0.5+0", "0.5+0", 30.0),
        ("2 days", "2 days a move", 2 * DAY),
    ],
)
def test_time_controls_are_read_as_players_write_them(spec: str, label: str, start: float) -> None:
    tc = TimeControl.parse(spec)
    assert tc is not None and tc.label == label and tc.start == start
    assert TimeControl.from_json(tc.to_json()) == tc


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("5", "not a time control"),
        ("0+3", "more than 0"),
        ("181+0", "at most 180 minutes"),
        ("5+999", "at most 180 seconds"),
        ("20 days", "1 to 14 days"),
        ("5+3" * 10, "written like"),
        (17, "written like"),
    ],
)
def test_a_bad_time_control_says_what_is_wrong(spec: Any, says: str) -> None:
    with pytest.raises(TimeControlError, match=says):
        TimeControl.parse(spec)
    assert TimeControl.parse("") is None and TimeControl.parse("none") is None and TimeControl.parse(None) is None


def test_the_running_clock_is_charged_and_the_increment_comes_when_the_turn_passes() -> None:
    clocks = Clocks(TimeControl(initial=60, increment=5))
    clocks.advance(100.0, 0)  # play starts: red's clock runs
    assert clocks.time_left(0, 110.0) == 50 and clocks.time_left(1, 110.0) == 60
    clocks.advance(112.0, 0)  # an event that leaves red to act (a draw offer): no increment
    assert clocks.left == [48, 60]
    clocks.advance(120.0, 1)  # red moved: 8 more seconds, then the increment
    assert clocks.left == [45, 60] and clocks.running == 1
    assert clocks.deadline() == 180.0 and clocks.flagged(179.9) is None and clocks.flagged(180.0) == 1
    clocks.resume(500.0)  # the server was down: blue's clock goes on from 500
    assert clocks.time_left(1, 510.0) == 50
    clocks.advance(520.0, None)  # the game ends: no clock runs
    assert clocks.running is None and clocks.deadline() is None and clocks.left == [45, 40]


def test_a_correspondence_clock_is_a_whole_move_at_each_turn() -> None:
    clocks = Clocks(TimeControl(per_move=DAY))
    clocks.advance(0.0, 0)
    clocks.advance(DAY - 1, 1)  # red took nearly the whole day
    assert clocks.left == [1.0, DAY]
    clocks.advance(DAY, 0)
    assert clocks.left[0] == DAY


# --- the server --------------------------------------------------------------------------------------
def _two_players(client: TestClient, clock: str) -> tuple[str, str, str]:
    """A clocked barrage game between two people, both armies set up: red to move, red's clock running."""
    res = create(client, opponent="invite", color="red", name="Host", clock=clock)
    gid, red = res["game"]["id"], res["seats"]["0"]
    blue = client.post(f"/api/games/{gid}/join", json={"invite": res["invite"], "name": "Guest"}).json()["seats"]["1"]
    act(client, gid, red, type="setup", setup="random")
    act(client, gid, blue, type="setup", setup="random")
    return gid, red, blue


def _move(client: TestClient, gid: str, token: str) -> None:
    act(client, gid, token, type="action", action=seat_view(client, gid, token)["legal"][0])


def test_clocks_are_shown_to_everybody_and_run_only_for_the_seat_to_move(client: TestClient, now: FakeTime) -> None:
    res = create(client, opponent="invite", color="red", clock="1+5")
    gid, red = res["game"]["id"], res["seats"]["0"]
    assert res["game"]["clock"] == "1+5"  # the lobby shows the control
    assert seat_view(client, gid, red)["clock"]["running"] is None  # the setups are untimed
    gid, red, blue = _two_players(client, "1+5")
    view = seat_view(client, gid, blue)
    assert view["clock"] == {
        "control": {"initial": 60.0, "increment": 5.0, "label": "1+5"},
        "left": [60.0, 60.0],
        "running": 0,
    }
    now.t += 20
    assert seat_view(client, gid, blue)["clock"]["left"] == [40.0, 60.0]
    _move(client, gid, red)
    now.t += 7
    clock = client.get(f"/api/games/{gid}").json()["clock"]  # a spectator sees it too
    assert clock["left"] == [45.0, 53.0] and clock["running"] == 1


def test_a_move_after_the_flag_fell_loses_on_time(client: TestClient, now: FakeTime) -> None:
    gid, red, blue = _two_players(client, "1+0")
    _move(client, gid, red)
    now.t += 61  # blue thinks too long: the server has not noticed yet
    r = client.post(f"/api/games/{gid}/act", headers=auth(blue), json={"type": "action", "action": 0})
    assert r.status_code == 409 and "ran out of time" in r.json()["message"]
    outcome = seat_view(client, gid, red)["game"]["outcome"]
    assert outcome["termination"] == "timeout" and outcome["winner"] == 0
    assert seat_view(client, gid, red)["clock"]["left"][1] == 0
    manager: GameManager = client.app.state.manager  # type: ignore[attr-defined]
    events = manager.store.events(gid)
    assert events[-1].kind == "timeout" and events[-1].at == pytest.approx(
        (events[-2].at or 0.0) + 60
    )  # when it ran out


def test_the_server_ends_the_game_when_the_clock_runs_out(client: TestClient, now: FakeTime) -> None:
    gid, red, _ = _two_players(client, "1+0")
    manager: GameManager = client.app.state.manager  # type: ignore[attr-defined]
    live = client.portal.call(manager.get, gid)  # type: ignore[union-attr]
    assert live.clock_timer is not None  # woken when red's minute is up
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        watch = Follower(ws)
        assert watch.hello(None)["game"]["status"] == "play"
        client.portal.call(manager._on_time, gid)  # type: ignore[union-attr]
        assert client.get(f"/api/games/{gid}").json()["game"]["status"] == "play"  # too early: nothing
        now.t += 60
        client.portal.call(manager._on_time, gid)  # type: ignore[union-attr]
        assert watch.receive()["events"][-1]["kind"] == "timeout"
        msg = watch.held
        assert msg["game"]["outcome"]["termination"] == "timeout" and msg["game"]["outcome"]["winner"] == 1
    assert seat_view(client, gid, red)["game"]["status"] == "over"


@BOTH_DATABASES
def test_a_restart_sets_the_running_clock_back_to_the_last_stored_event(db_url: str, now: FakeTime) -> None:
    """The log holds no time of the crash: the running clock goes on from where it stood at the last event,
    so neither the hour the server was down nor the thinking cut short by it is charged."""
    with TestClient(create_app(db_url, fsync=False, seed=7)) as client:
        gid, red, blue = _two_players(client, "5+0")
        now.t += 100
    now.t += 3600  # an hour down
    with TestClient(create_app(db_url, fsync=False, seed=7)) as client:
        assert seat_view(client, gid, red)["clock"]["left"] == [300.0, 300.0]
        now.t += 50
        _move(client, gid, red)
        manager: GameManager = client.app.state.manager  # type: ignore[attr-defined]
        assert [e.kind for e in manager.store.events(gid)][-2:] == ["resume", "action"]
    with TestClient(create_app(db_url, fsync=False, seed=7)) as client:  # a clock that runs is resumed again
        view = seat_view(client, gid, blue)
        assert view["clock"]["left"] == [250.0, 300.0] and view["clock"]["running"] == 1


@BOTH_DATABASES
def test_a_game_reloaded_after_its_flag_fell_ends_when_the_time_ran_out(db_url: str, now: FakeTime) -> None:
    """A game dropped from memory (or whose timer was lost) is ended on time when next asked for, dated when
    its clock ran out: the record is the same whenever the server noticed."""
    with TestClient(create_app(db_url, fsync=False, seed=7)) as client:
        gid, red, _ = _two_players(client, "2 days")
        manager: GameManager = client.app.state.manager  # type: ignore[attr-defined]
        manager.evict_idle(now=10**12)
        now.t += 3 * DAY
        outcome = seat_view(client, gid, red)["game"]["outcome"]
        assert outcome["termination"] == "timeout" and outcome["winner"] == 1
        assert manager.store.events(gid)[-1].at == pytest.approx(START + 2 * DAY)


@BOTH_DATABASES
def test_a_timeout_the_clock_does_not_justify_is_refused_on_replay(db_url: str, now: FakeTime) -> None:
    with TestClient(create_app(db_url, fsync=False, seed=7)) as client:
        gid, _, _ = _two_players(client, "1+0")
        store: Store = client.app.state.manager.store  # type: ignore[attr-defined]
    meta = store.game(gid)
    events = store.events(gid)
    assert meta is not None
    early = Event(len(events) + 1, "timeout", 0, {}, at=START + 30)  # red still had 30 s
    with pytest.raises(RecordError, match="has not run out"):
        GameSession.replay(meta, [*events, early])
    assert GameSession.replay(
        meta, [*events, Event(len(events) + 1, "timeout", 0, {}, at=START + 60)]
    ).state.is_terminal()


def test_a_bad_clock_is_refused_and_a_rematch_keeps_the_clock(client: TestClient, now: FakeTime) -> None:
    r = client.post("/api/games", json={"variant": "barrage", "opponent": "hotseat", "clock": "90 days"})
    assert r.status_code == 422 and "1 to 14 days" in r.text
    gid, red, _ = _two_players(client, "3+2")
    act(client, gid, red, type="resign")
    again = client.post(f"/api/games/{gid}/rematch", headers=auth(red)).json()
    assert again["game"]["clock"] == "3+2"


# --- aborting ------------------------------------------------------------------------------------------
def test_a_game_can_be_aborted_in_its_first_moves_only(client: TestClient) -> None:
    gid, red, blue = _two_players(client, "")
    _move(client, gid, red)
    act(client, gid, blue, type="abort")
    outcome = seat_view(client, gid, red)["game"]["outcome"]
    assert outcome["termination"] == "aborted" and outcome["winner"] is None and "blue aborted" in outcome["reason"]
    gid, red, blue = _two_players(client, "")
    _move(client, gid, red)
    _move(client, gid, blue)
    r = client.post(f"/api/games/{gid}/act", headers=auth(red), json={"type": "abort"})
    assert r.status_code == 409 and "resign instead" in r.json()["message"]
    hot = create(client, opponent="hotseat")  # during the setup too
    act(client, hot["game"]["id"], hot["seats"]["1"], type="abort")
    assert seat_view(client, hot["game"]["id"], hot["seats"]["0"])["game"]["outcome"]["termination"] == "aborted"


def test_admirals_clock_runs_for_the_seat_whose_decision_it_is(client: TestClient, now: FakeTime) -> None:
    """Admiral's turns hold many decisions of both seats and the server's dice: the clock of the seat to decide
    runs, each decision charged to the seat that made it, the dice to nobody."""
    res = create(client, game="admiral", opponent="hotseat", clock="10+0", options={"max_turns": 3})
    gid, tokens = res["game"]["id"], {0: res["seats"]["0"], 1: res["seats"]["1"]}
    act(client, gid, tokens[0], type="setup", setup="random")
    act(client, gid, tokens[1], type="setup", setup="random")
    used = [0, 0]
    for step in range(40):
        game = client.get(f"/api/games/{gid}").json()
        if game["game"]["status"] == "over":
            break
        seat = game["game"]["to_move"]
        assert game["clock"]["running"] == seat
        assert game["clock"]["left"] == [600.0 - used[0], 600.0 - used[1]]
        view = seat_view(client, gid, tokens[seat])
        now.t += 1 + step % 3
        used[seat] += 1 + step % 3
        act(client, gid, tokens[seat], type="action", action=view["legal"][-1])
    assert sum(used) > 20
