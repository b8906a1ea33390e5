"""The store on SQLite and on PostgreSQL: what is written reads back the same (JSON, text, time stamps), the
event log takes only the next events even when writers race, an invite is taken once, and the lobby's lists."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any, TypeVar

import pytest

from fogofwar.core.web_adapter import Event
from fogofwar.frontends.server.group_commit import GroupCommit
from fogofwar.frontends.server.store import Append, GameMeta, Store, StoreError, Summary

from .server_helpers import BOTH_DATABASES

pytestmark = BOTH_DATABASES
T = TypeVar("T")


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store(db_url, fsync=False)
    try:
        yield s
    finally:
        s.close()


def meta(game_id: str, updated_at: float = 0.0, **changes: Any) -> GameMeta:
    fields: dict[str, Any] = {
        "id": game_id,
        "game": "stratego",
        "options": {"variant": "barrage"},
        "mode": "hotseat",
        "agent": None,
        "agent_seat": None,
        "secret": bytes(range(32)),
        "players": ["Red", "Blue"],
        "token_hashes": ["a" * 64, "b" * 64],
        "invite_hash": None,
        "created_at": 0.0,
        "updated_at": updated_at,
    }
    fields.update(changes)
    return GameMeta(**fields)


def race(n: int, fn: Callable[[int], T]) -> list[T | Exception]:
    """`fn(i)` for i < n on n threads released together; each one's result or exception."""
    start = threading.Barrier(n)

    def one(i: int) -> T | Exception:
        start.wait()
        try:
            return fn(i)
        except Exception as exc:
            return exc

    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(one, range(n)))


def test_a_game_and_its_log_read_back_as_written(store: Store) -> None:
    now = time.time()
    odd = "Ann é \u2028 \U0001f600 ' \" \\ \x00 end"
    game = meta(
        "g1",
        created_at=now,
        updated_at=now + 1e-6,
        options={"variant": "barrage", "nested": {"list": [1, 2.5, None, True, "x"]}, "big": 10**30},
        players=[odd, None],
        agent="random",
        agent_seat=1,
        mode="agent",
        invite_hash="c" * 64,
        clock={"start": 300.0, "increment": 3.0},
        public=True,
    )
    store.create_game(game)
    assert store.game("g1") == game  # the float time stamps to the last bit, NUL and all
    events = [
        Event(1, "setup", 0, {"placement": {"A1": "flag"}, "text": odd}, at=now - 0.1),  # dated by the server's clock
        Event(2, "chance", None, {"roll": [6, 1], "big": -(10**30), "f": 0.1}),  # dated by the store
    ]
    outcome = {"termination": "flag", "winner": 0, "why": odd}
    stamp = store.append_events("g1", events, Summary("over", None, 1, outcome))
    assert store.events("g1") == [events[0], replace(events[1], at=stamp)]
    read = store.game("g1")
    assert read is not None and read.updated_at == stamp and read.outcome == outcome and read.status == "over"
    assert store.game("nope") is None and store.events("nope") == []


def test_racing_writers_each_get_the_next_seq_or_a_store_error(store: Store) -> None:
    """Writers racing for the same place in one game's log (the server's lock would never let them: a dropped
    game reloaded by a request still under way): one wins, the others get StoreError, never another error."""
    store.create_game(meta("g1"))
    play = Summary("play", 0, 0, None)
    for seq in range(1, 4):
        results = race(4, lambda i, seq=seq: store.append_events("g1", [Event(seq, "action", 0, {"by": i})], play))
        assert sum(isinstance(r, float) for r in results) == 1, results
        assert all(isinstance(r, StoreError) for r in results if not isinstance(r, float)), results
    assert [e.seq for e in store.events("g1")] == [1, 2, 3]
    stored = store.game("g1")
    assert stored is not None and stored.seq == 3


def test_writers_on_different_games_all_commit(store: Store) -> None:
    n = max(store.writers, 2)
    for i in range(n):
        store.create_game(meta(f"g{i}"))

    def play(i: int) -> None:
        for seq in range(1, 11):
            store.append_events(f"g{i}", [Event(seq, "action", i % 2, {"action": seq})], Summary("play", 0, seq, None))

    assert race(n, play) == [None] * n
    for i in range(n):
        assert [e.payload["action"] for e in store.events(f"g{i}")] == list(range(1, 11))


def test_an_invite_is_taken_once(store: Store) -> None:
    store.create_game(meta("g1", token_hashes=["a" * 64, None], invite_hash="i" * 64, mode="invite"))
    results = race(4, lambda i: store.join("g1", 1, f"{i}" * 64, f"player {i}"))
    assert sorted(results, key=str) == [False, False, False, True]
    winner = results.index(True)
    joined = store.game("g1")
    assert joined is not None and joined.invite_hash is None
    assert joined.token_hashes == ["a" * 64, f"{winner}" * 64] and joined.players == ["Red", f"player {winner}"]
    assert store.join("g1", 1, "z" * 64, "late") is False
    assert store.join("nope", 1, "z" * 64, "late") is False


def test_the_lobby_lists_the_latest_games_first_and_the_open_challenges(store: Store) -> None:
    for i, updated in enumerate([5.0, 1.0, 3.0, 4.0]):
        store.create_game(meta(f"g{i}", updated_at=updated))
    store.append_events("g3", [Event(1, "resign", 0, {})], Summary("over", None, 0, {"winner": 1}))  # updated now
    assert [m.id for m in store.games()] == ["g3", "g0", "g2", "g1"]
    assert [m.id for m in store.games(limit=2)] == ["g3", "g0"]
    assert [m.id for m in store.games(unfinished_only=True)] == ["g0", "g2", "g1"]
    assert sorted(store.unfinished_ids()) == ["g0", "g1", "g2"]
    assert store.open_challenges() == []
    for i, created in enumerate([2.0, 3.0, 1.0, 4.0]):
        store.create_game(
            meta(f"c{i}", created_at=created, public=True, invite_hash="i" * 64, token_hashes=["a", None])
        )
    store.join("c1", 1, "b" * 64, "taken")  # accepted
    store.append_events("c3", [Event(1, "abort", 0, {})], Summary("over", None, 0, None))  # withdrawn
    assert [m.id for m in store.open_challenges()] == ["c0", "c2"]


# --- group commit -------------------------------------------------------------------------------------
def _resign(seq: int) -> list[Event]:
    return [Event(seq, "resign", 0, {})]


def test_a_batch_stores_every_game_whose_events_are_next_and_only_those(store: Store) -> None:
    for gid in ("g1", "g2", "g3"):
        store.create_game(meta(gid))
    over = Summary("over", None, 0, None)
    results = store.append_batch(
        [Append("g1", _resign(1), over), Append("g2", _resign(5), over), Append("g3", _resign(1), over)]
    )
    assert isinstance(results[0], float) and isinstance(results[2], float)
    assert isinstance(results[1], StoreError) and "does not follow event 0" in str(results[1])
    assert [e.seq for e in store.events("g1")] == [1] and store.events("g2") == [] and len(store.events("g3")) == 1
    assert [g.status for g in (store.game("g1"), store.game("g2"), store.game("g3")) if g] == ["over", "setup", "over"]
    again = store.append_batch([Append("g1", _resign(1), over), Append("nosuch", _resign(1), over)])
    assert all(isinstance(r, StoreError) for r in again) and "no game" in str(again[1])


def test_games_committing_together_share_transactions(store: Store) -> None:
    games = [f"game{i}" for i in range(40)]
    for gid in games:
        store.create_game(meta(gid))
    pool = ThreadPoolExecutor(max_workers=1)

    async def run(fn: Callable[[list[Append]], list[float | StoreError]], batch: list[Append]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(pool, fn, batch)

    async def main() -> tuple[list[Any], int]:
        commits = GroupCommit(store, run)
        over = Summary("over", None, 0, None)
        done = await asyncio.gather(
            *(commits.append(Append(gid, _resign(1), over)) for gid in games),
            commits.append(Append("game0", _resign(7), over)),  # not its next event: refused alone
            return_exceptions=True,
        )
        return list(done), commits.batches

    results, batches = asyncio.run(main())
    pool.shutdown()
    assert all(isinstance(r, float) for r in results[:-1]) and isinstance(results[-1], StoreError)
    assert batches < len(games) / 4  # forty games, a handful of commits
    assert all(len(store.events(gid)) == 1 for gid in games)


def test_a_connection_a_database_server_closed_while_it_rested_is_replaced(
    store: Store, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL restarted (its connections ended) while the pool held one: the next commit pings the rested
    connection and takes a new one. Without the ping (a connection counted as busy) that commit fails."""
    if store.engine.dialect.name == "sqlite":
        pytest.skip("SQLite has no server to lose the connection to")
    from .postgres import PostgresServer

    server: PostgresServer = request.getfixturevalue("postgres")
    for gid in ("g1", "g2"):
        store.create_game(meta(gid))
    over = Summary("over", None, 0, None)

    def end_every_connection() -> None:
        server._admin(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()",
            database=store.engine.url.database or "postgres",
        )

    end_every_connection()
    monkeypatch.setattr("fogofwar.frontends.server.store.IDLE_PING", 0.0)
    assert isinstance(store.append_batch([Append("g1", _resign(1), over)])[0], float)
    end_every_connection()
    monkeypatch.setattr("fogofwar.frontends.server.store.IDLE_PING", 3600.0)
    with pytest.raises(Exception, match="terminat|closed|connection"):
        store.append_batch([Append("g2", _resign(1), over)])
    assert isinstance(store.append_batch([Append("g2", _resign(1), over)])[0], float)  # the pool was renewed
    assert [len(store.events(g)) for g in ("g1", "g2")] == [1, 1]
