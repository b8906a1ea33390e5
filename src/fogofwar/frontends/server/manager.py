"""The live games of one server process: locking, commit-before-acknowledge, broadcasting, agents.

Every change to a game goes through `GameManager._commit` under the game's lock: the event,
checked against the rules (`GameSession.event_for`), is played on the live session, written to the
database (in a worker thread, so the event loop never waits on the disk; in one transaction with
the other games' changes of the moment: group_commit.py), and only then does the sender get its
acknowledgement and every connection what changed. The lock is held until the event is durable, and
whatever shows a game (a new connection, a view over HTTP, a replay) takes it, so nobody sees a state
that is not yet durable; if the write fails, the game is rebuilt from its own events as it was
(`_undo`), which costs a replay but only then: no move pays for a copy of the game.

Each connection is sent its seat's whole view once (on connect, or when it asks with "sync"), then
after every change only what changed for its seat: a delta (delta.py), numbered so that a client
that misses one knows it and asks again.

Computer players think in a thread pool, on a snapshot of their observation; when they
answer, the move is committed like anybody else's, unless the game changed meanwhile
(a resignation), in which case the answer is dropped and they think again if needed.
What an agent explains of its decisions (`core.agents.take_explanations`) is stored with the
event it explains.

Dice are the server's: whenever an event leaves the game at a chance node, the rolls are
drawn (`GameSession.chance_event`) and stored in the same transaction as that event, so a
move and the dice it calls for are durable together. A seat's secret draft (Admiral's
attack assignment) is checked and shown to that seat alone and stored only when committed.
Several processes may serve one database (`fogofwar serve --workers N`, supervisor.py), each owning
its share of the games (`routing.Ownership`): a process loads, plays and creates only the games it owns.
Should another writer append to one of its games all the same (a killed predecessor's last commit landing
late), the log's sequence check refuses the stale move, nothing is acknowledged, and the game is reloaded from
the log (`_reload`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from fogofwar.core.agents import (
    Agent,
    Explanation,
    agent_game_options,
    agent_names,
    agent_title,
    make_agent,
    take_explanations,
)
from fogofwar.core.protocol import GameError, RecordError, State, Termination
from fogofwar.core.randomness import SECRET_BYTES, Streams, new_secret
from fogofwar.core.web_adapter import Event
from fogofwar.frontends.server import clock as game_clock
from fogofwar.frontends.server.account_store import AccountStore, User
from fogofwar.frontends.server.adapters import ADAPTERS, Adapter, get_adapter
from fogofwar.frontends.server.chat import (
    HISTORY,
    PLAYERS,
    SPECTATORS,
    FloodGate,
    History,
    chat_message,
    clean_text,
    rooms_for,
    why_not,
)
from fogofwar.frontends.server.clock import TimeControl
from fogofwar.frontends.server.delta import diff
from fogofwar.frontends.server.group_commit import GroupCommit
from fogofwar.frontends.server.limits import Limits
from fogofwar.frontends.server.ratings import Rating, computer, mode_of, updated
from fogofwar.frontends.server.routing import Ownership
from fogofwar.frontends.server.session import ClientError, Command, GameSession, dumps, game_info, hash_token
from fogofwar.frontends.server.store import Append, GameMeta, Store, StoreError, Summary

log = logging.getLogger("fogofwar.frontends.server")

"""Agents a web client may pick (each game lists those that play it). Never `ucc`: its spec names a
program to run."""
MAX_EXPLANATION_CHARS = 500

QUEUE_LIMIT = 256
"""Messages waiting for one connection; a client that falls this far behind is dropped."""

T = TypeVar("T")


@dataclass(eq=False)
class Connection:
    """One websocket's outbox: messages are queued here and sent by the socket's own task. A message is
    a dict, or its JSON text already (a state, encoded once for every connection of its seat)."""

    seat: int | None
    ip: str = ""
    """The client's address: spectators' chat is limited per address (a new socket is no new writer)."""
    queue: asyncio.Queue[dict[str, Any] | str | None] = field(default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))
    closed: bool = False

    def send(self, msg: dict[str, Any] | str) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(msg)
        except asyncio.QueueFull:
            self.close()

    def end(self) -> None:
        """Close once what is queued has been sent (a last word, such as why the socket closes)."""
        if not self.closed:
            try:
                self.queue.put_nowait(None)
                self.closed = True
            except asyncio.QueueFull:
                self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)


@dataclass(frozen=True)
class Shown:
    """The view the connections of one seat (or the spectators) hold: its number and the message (without "v").
    The next change is sent to them as the difference from it."""

    version: int
    msg: dict[str, Any]


@dataclass(eq=False)
class LiveGame:
    session: GameSession
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    agent: Agent | None = None
    agent_task: asyncio.Task[None] | None = None
    clock_timer: asyncio.TimerHandle | None = None
    """Wakes the server when the running clock reaches zero."""
    used: float = field(default_factory=time.monotonic)
    """When the game was last asked for: idle games leave memory (`GameManager.evict_idle`)."""
    chat: History = field(default_factory=History)
    flood: FloodGate = field(default_factory=lambda: FloodGate(Limits().chat_messages, Limits().chat_seconds))
    chat_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Chat messages of the game are stored one at a time, so that their order is their numbers'."""
    over_told: bool = False
    """The players were sent the spectators' room, which they read once the game is over."""
    shown: dict[int | None, Shown] = field(default_factory=dict)
    """What the connections of each seat (None: the spectators) hold, for the seats that have connections."""

    def busy(self) -> bool:
        """Somebody watches or plays it, the computer is thinking, or a change is under way."""
        thinking = self.agent_task is not None and not self.agent_task.done()
        return bool(self.connections) or thinking or self.lock.locked()


@dataclass(frozen=True)
class Created:
    """What the creator of a game gets back: the only time its seat tokens are shown."""

    info: dict[str, Any]
    tokens: dict[int, str]
    invite: str | None


class GameManager:
    def __init__(
        self,
        store: Store,
        agent_delay: float = 0.0,
        agent_workers: int = 4,
        seed: int | None = None,
        limits: Limits | None = None,
        accounts: AccountStore | None = None,
        ownership: Ownership | None = None,
    ) -> None:
        self.store = store
        self.ownership = ownership or Ownership()
        """The games this process serves (one process: all of them)."""
        self.accounts = accounts
        self.agent_delay = agent_delay
        self.limits = limits or Limits()
        self._sweeper: asyncio.Task[None] | None = None
        # Each game's secret (its random setups, dice and computer play) is 256 bits from the OS; a test
        # may fix `seed` so that a run of it repeats the same games.
        self._seeds = Streams.from_seed(seed).rng("game secrets") if seed is not None else None
        self._games: dict[str, LiveGame] = {}
        self._load_lock = asyncio.Lock()
        self._executor = ThreadPoolExecutor(max_workers=agent_workers, thread_name_prefix="fogofwar-agent")
        # Writes have threads of their own, as many as the database can use at once (SQLite: one; more
        # would only queue on its write lock, sleeping in its busy handler and adding to every commit's wait).
        self._writer = ThreadPoolExecutor(max_workers=store.writers, thread_name_prefix="fogofwar-db")
        # The games' moves share transactions: what arrives during a commit goes in the next one (group_commit.py).
        self.commits = GroupCommit(store, self._write, flushers=store.writers)
        self._closing = False
        self._timers: set[asyncio.Future[None]] = set()

    # --- life cycle --------------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild every unfinished game from its log and let computer players resume their turn; a running
        clock goes on from now with the time it had at the game's last event (an outage is nobody's move)."""
        for game_id in await self._io(self.store.unfinished_ids):
            if not self.ownership.owns(game_id):
                continue  # another worker's: it resumes it
            try:
                await self.get(game_id, restarting=True)
            except ClientError as exc:
                log.error("game %s cannot be restored: %s", game_id, exc.message)
        if self.accounts is not None:  # rated games that ended while their rating was being written
            for game_id in await self._io(self.accounts.unrated_finished):
                if self.ownership.owns(game_id):
                    await self._rate(game_id)
        self._sweeper = asyncio.create_task(self._sweep(), name="evict-idle-games")

    async def _sweep(self) -> None:
        """Now and then, drop the games nobody uses from memory."""
        period = min(60.0, self.limits.idle_game_seconds / 4)
        while not self._closing:
            await asyncio.sleep(period)
            self.forget_unowned()
            self.evict_idle()

    def evict_idle(self, now: float | None = None, keep: str | None = None) -> int:
        """Drop from memory every game idle for `idle_game_seconds`, and the least recently used idle ones
        while more than `live_games` are kept; a dropped game is rebuilt from its log when next asked for.
        Returns how many were dropped. (Should a request still hold a dropped game, its next move meets the
        stored log's sequence check and is refused, never written twice.)"""
        now = time.monotonic() if now is None else now
        idle = sorted((live.used, gid) for gid, live in self._games.items() if not live.busy() and gid != keep)
        extra = len(self._games) - self.limits.live_games
        dropped = 0
        for used, gid in idle:
            if now - used < self.limits.idle_game_seconds and dropped >= extra:
                break
            del self._games[gid]
            dropped += 1
        return dropped

    def live_count(self) -> int:
        """How many games are in memory."""
        return len(self._games)

    async def stop(self) -> None:
        self._closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for live in self._games.values():
            if live.clock_timer is not None:
                live.clock_timer.cancel()
            if live.agent_task is not None:
                live.agent_task.cancel()
            for conn in list(live.connections):
                conn.close()
        tasks = [live.agent_task for live in self._games.values() if live.agent_task is not None]
        await asyncio.gather(*tasks, return_exceptions=True)
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._writer.shutdown(wait=True)  # a commit under way ends before the store closes

    async def _io(self, fn: Callable[..., T], *args: Any) -> T:
        """Database reads run in a worker thread: the disk may be slow."""
        return await asyncio.to_thread(fn, *args)

    async def _write(self, fn: Callable[..., T], *args: Any) -> T:
        """Database writes run in the writer threads: a commit waits on the disk."""
        return await asyncio.get_running_loop().run_in_executor(self._writer, functools.partial(fn, *args))

    # --- games -------------------------------------------------------------------------------
    def agents(self, game: str | None = None) -> list[str]:
        """The computer players a client may pick: for one game, those its adapter names; without a game, those
        of every game. Only these: an agent no adapter offers (`ucc` runs a program) is never started here."""
        names = set(agent_names())
        offered = dict.fromkeys(a for adapter in ADAPTERS.values() for a in adapter.agents)
        known = [a for a in offered if a in names]
        if game is None:
            return known
        return [a for a in known if a in get_adapter(game).agents]

    async def page_for(self, game_id: str) -> str:
        """The page of the browser client for a game (the game page of Stratego for an unknown id)."""
        live = self._games.get(game_id)
        kind = live.session.meta.game if live is not None else None
        if kind is None:
            meta = await self._io(self.store.game, game_id)
            kind = meta.game if meta is not None else "stratego"
        try:
            return get_adapter(kind).page
        except GameError:
            return "game.html"

    async def create(
        self,
        game: str,
        options: dict[str, Any],
        opponent: str,
        color: str,
        name: str,
        clock: str | dict[str, Any] | None = None,
        user: User | None = None,
        rated: bool = False,
    ) -> Created:
        """Make a game; the creator gets its seat's token (both for hot-seat) and, for `invite`, the invite secret.
        `clock` is the time control ("5+3", "2 days", or as stored; None or "" for an untimed game); `user`, the
        signed-in creator, sits at its seat; a `rated` game counts for the ratings of the accounts in it."""
        try:
            adapter: Adapter = get_adapter(game)
            adapter.make_game(options)  # checks the options before anything is stored
            control = TimeControl.parse(clock)
        except (GameError, TypeError, ValueError) as exc:  # TimeControlError is a ValueError
            raise ClientError("bad_request", str(exc), 422) from None
        seats = adapter.seat_names
        if color == "random":
            seat = secrets.randbelow(len(seats))
        elif color in seats:
            seat = seats.index(color)
        elif color in ("red", "blue"):  # the classic colours name the first and the second seat of any game
            seat = ("red", "blue").index(color)
        else:
            raise ClientError("bad_request", f"color must be one of {', '.join(seats)} or random", 422)
        other = 1 - seat
        tokens: dict[int, str] = {seat: secrets.token_urlsafe(24)}
        players: list[str | None] = [None, None]
        players[seat] = name or seats[seat].capitalize()
        invite: str | None = None
        agent: str | None = None
        agent_seat: int | None = None
        if opponent == "hotseat":
            mode = "hotseat"
            tokens[other] = secrets.token_urlsafe(24)
            players = [f"{name} ({s})" for s in seats] if name else [s.capitalize() for s in seats]
        elif opponent in ("invite", "challenge"):  # a challenge is an invitation listed for anyone to accept
            mode = "invite"
            invite = secrets.token_urlsafe(18)
        elif opponent in self.agents(game):
            mode, agent, agent_seat = "agent", opponent, other
            players[other] = f"{agent_title(opponent, game)} (computer)"
            # An agent may need game options at its seat (Admiral's `stratego` plays the solo rules).
            seated: list[object] = [object(), object()]
            try:
                seated[other] = make_agent(opponent)
                options = agent_game_options(seated, game, options)
                adapter.make_game(options)
            except (GameError, TypeError, ValueError) as exc:
                raise ClientError("bad_request", str(exc), 422) from None
        else:
            raise ClientError(
                "bad_request",
                f"opponent must be hotseat, invite, challenge or one of the agents of {game}:"
                f" {', '.join(self.agents(game))}",
                422,
            )
        if rated:
            self._check_rated(adapter, game, opponent, user)
        if user is not None and name == "":
            players[seat] = user.name
        now = time.time()
        hashes: list[str | None] = [None, None]
        for s, t in tokens.items():
            hashes[s] = hash_token(t)
        meta = GameMeta(
            id=self.ownership.new_game_id(),  # born where it was created: this worker owns it
            game=game,
            options=dict(options),
            mode=mode,
            agent=agent,
            agent_seat=agent_seat,
            secret=new_secret() if self._seeds is None else self._seeds.randbytes(SECRET_BYTES),
            players=players,
            token_hashes=hashes,
            invite_hash=hash_token(invite) if invite else None,
            created_at=now,
            updated_at=now,
            clock=control.to_json() if control is not None else None,
            public=opponent == "challenge",
        )
        session = GameSession(meta)
        summary = session.summary()
        meta.status, meta.to_move, meta.move_count = summary.status, summary.to_move, summary.move_count
        try:
            await self._write(self.store.create_game, meta)
        except Exception as exc:  # the database is down, full or read-only: nothing was created
            log.exception("cannot store a new game")
            raise ClientError("unavailable", f"the game could not be saved ({type(exc).__name__})", 503) from None
        if user is not None and self.accounts is not None:
            await self._write(self.accounts.bind_seat, meta.id, seat, user.id, rated)
        live = self._add(session)
        self._schedule_agent(live)
        return Created(session.info(), tokens, invite)

    def _check_rated(self, adapter: Adapter, game: str, opponent: str, user: User | None) -> None:
        """A rated game needs an account, an opponent who can have one (or a computer with a measured rating)."""
        if self.accounts is None or user is None:
            raise ClientError("unauthorized", "sign in to play a rated game", 401)
        if opponent == "hotseat":
            raise ClientError("bad_request", "a hot-seat game cannot be rated: both seats are one screen", 422)
        if opponent not in ("invite", "challenge") and self._computer_rating(adapter, opponent) is None:
            raise ClientError("bad_request", f"the computer {opponent!r} has no measured rating in {game}", 422)

    @staticmethod
    def _computer_rating(adapter: Adapter, agent: str) -> Rating | None:
        elo = next((level.get("elo") for level in adapter.levels() if level.get("name") == agent), None)
        return computer(float(elo)) if isinstance(elo, int | float) else None

    async def rematch(self, live: LiveGame, seat: int, user: User | None = None) -> Created:
        """A new game like a finished one, the seats swapped: same game, options, clock and opponent (the same
        computer, the same screen, or the same person). Between two people the first to ask makes the new game
        and the other is told (a `rematch` event in the old game's log); the other asking too takes its seat."""
        if live.session.status() != "over":
            raise ClientError("not_over", "a rematch follows a finished game; this one is still on", 409)
        if live.session.meta.mode != "invite":
            return await self._rematch_game(live, seat, user)
        async with live.lock:
            offer = live.session.rematch
            if offer is None:
                created = await self._rematch_game(live, seat, user)
                await self._commit(live, Event(live.session.seq + 1, "rematch", seat, {"game": created.info["id"]}))
                self._broadcast(live)
                return created
            if offer["by"] == seat:
                raise ClientError("illegal", "your rematch waits for your opponent to accept it", 409)
        new = await self.get(str(offer["game"]))
        async with new.lock:
            if new.session.meta.invite_hash is None or new.session.state.is_terminal():
                raise ClientError("taken", "the rematch was taken or withdrawn", 409)
            rated = await self._check_account(new, user)
            taken, token, info = await self._take_seat(new, live.session.meta.players[seat] or "", user, rated)
        return Created(info, {taken: token}, None)

    async def _rematch_game(self, live: LiveGame, seat: int, user: User | None) -> Created:
        meta = live.session.meta
        adapter = get_adapter(meta.game)
        options = {k: v for k, v in meta.options.items() if k not in self._agent_options(meta)}
        opponent = meta.agent if meta.mode == "agent" and meta.agent else meta.mode  # a challenge: offered, unlisted
        seats = adapter.seat_names
        player = meta.players[seat] or ""
        name = "" if meta.mode == "hotseat" or player == seats[seat].capitalize() else player
        rated = await self._is_rated(meta.id) and user is not None
        return await self.create(meta.game, options, opponent, seats[1 - seat], name, meta.clock, user, rated)

    async def _is_rated(self, game_id: str) -> bool:
        if self.accounts is None:
            return False
        return any(rated for _, rated in (await self._io(self.accounts.seats, game_id)).values())

    async def _check_account(self, live: LiveGame, user: User | None) -> bool:
        """Whether the game is rated; taking a seat of a rated game needs an account, and not the one at the other
        seat."""
        if self.accounts is None:
            return False
        seats = await self._io(self.accounts.seats, live.session.meta.id)
        if not any(rated for _, rated in seats.values()):
            return False
        if user is None:
            raise ClientError("unauthorized", "this game is rated: sign in to take its seat", 401)
        if any(u.id == user.id for u, _ in seats.values()):
            raise ClientError("bad_request", "you cannot play yourself in a rated game", 409)
        return True

    @staticmethod
    def _agent_options(meta: GameMeta) -> set[str]:
        """The options a game's computer player added at its seat (Admiral's solo_seat): a rematch seats it anew."""
        if meta.agent is None or meta.agent_seat is None:
            return set()
        seated: list[object] = [object(), object()]
        seated[meta.agent_seat] = make_agent(meta.agent)
        return set(agent_game_options(seated, meta.game, {}))

    def _add(self, session: GameSession, chat: History | None = None) -> LiveGame:
        live = LiveGame(
            session,
            chat=chat or History(),
            flood=FloodGate(self.limits.chat_messages, self.limits.chat_seconds),
            over_told=session.state.is_terminal(),  # over already: a connection is sent every room it reads
        )
        meta = session.meta
        if meta.agent is not None and meta.agent_seat is not None:
            agent = make_agent(meta.agent)
            # A restarted server gives the agent a fresh start: it forgets what it inferred, not the rules.
            agent.start(session.game, meta.agent_seat, session.streams.rng("agent", meta.agent_seat, session.seq))
            live.agent = agent
        self._games[meta.id] = live
        if len(self._games) > self.limits.live_games:
            self.evict_idle(keep=meta.id)
        return live

    async def get(self, game_id: str, restarting: bool = False) -> LiveGame:
        """The live game, rebuilt from the database on first use (`restarting`: as the server starts, when a
        running clock goes on from now; otherwise a clock that ran out while the game was out of memory
        ends it, dated when it ran out)."""
        live = self._games.get(game_id)
        if live is not None:
            live.used = time.monotonic()
            return live
        if not self.ownership.owns(game_id):  # the routing sends its requests elsewhere: never loaded here
            raise ClientError("moved", f"game {game_id} is served by another worker: connect again", 421)
        async with self._load_lock:
            live = self._games.get(game_id)
            if live is not None:
                live.used = time.monotonic()
                return live
            meta = await self._io(self.store.game, game_id)
            if meta is None:
                raise ClientError("not_found", f"no game {game_id!r}", 404)
            events = await self._io(self.store.events, game_id)
            try:
                session = await asyncio.to_thread(GameSession.replay, meta, events)
            except (RecordError, GameError) as exc:
                raise ClientError("broken", f"game {game_id} cannot be rebuilt: {exc}", 500) from None
            said = await self._io(self.store.chat, game_id, HISTORY)
            live = self._add(session, History(said))
        if live.session.needs_chance():  # a log from before the dice were stored with their move
            async with live.lock:
                if live.session.needs_chance():
                    await self._commit(live, None)
        if live.session.clocks is not None and live.clock_timer is None:
            async with live.lock:
                resume = live.session.resume_event(game_clock.now()) if restarting else None
                if resume is not None:
                    await self._commit(live, resume)
                elif await self._flag_fall(live):
                    self._broadcast(live)
            self._schedule_clock(live)
        self._schedule_agent(live)
        return live

    async def stored_seat(self, game_id: str, token: str) -> int | None:
        """The seat `token` opens in a game, read from the database (so for any worker's game), or None."""
        meta = await self._io(self.store.game, game_id)
        if meta is None or not token:
            return None
        wanted = hash_token(token)
        held = [(seat, h) for seat, h in enumerate(meta.token_hashes) if h is not None]
        return next((seat for seat, h in held if secrets.compare_digest(h, wanted)), None)

    async def list_games(self, limit: int) -> list[dict[str, Any]]:
        """Summaries straight from the database: listing never replays a game."""
        metas = await self._io(self.store.games, limit)
        out = []
        for m in metas:
            live = self._games.get(m.id)
            if live is not None and not live.lock.locked():  # locked: a change not yet stored; the row is the truth
                out.append(live.session.info())
            else:
                out.append(game_info(m, Summary(m.status, m.to_move, m.move_count, m.outcome), m.seq))
        return out

    async def open_challenges(self, limit: int) -> list[dict[str, Any]]:
        """The challenges waiting for an opponent, the newest first (from the database: listing replays nothing)."""
        metas = await self._io(self.store.open_challenges, limit)
        return [game_info(m, Summary(m.status, m.to_move, m.move_count, m.outcome), m.seq) for m in metas]

    async def join(
        self, game_id: str, invite: str, name: str, user: User | None = None
    ) -> tuple[int, str, dict[str, Any]]:
        """Take the open seat of an invite game with its invite secret; the secret then expires."""
        live = await self.get(game_id)
        async with live.lock:
            meta = live.session.meta
            if meta.invite_hash is None or not secrets.compare_digest(meta.invite_hash, hash_token(invite)):
                raise ClientError("forbidden", "this invite is not valid (or the seat was taken already)", 403)
            rated = await self._check_account(live, user)
            return await self._take_seat(live, name, user, rated)

    async def accept(
        self, game_id: str, name: str, token: str | None, user: User | None = None
    ) -> tuple[int, str, dict[str, Any]]:
        """Take the open seat of an open challenge (no invite needed); never one's own (`token`: a seat of it)."""
        live = await self.get(game_id)
        async with live.lock:
            meta = live.session.meta
            if not meta.public:
                raise ClientError("forbidden", "this game is not an open challenge: its seat needs the invitation", 403)
            if live.session.seat_of(token) is not None:
                raise ClientError("own_challenge", "this is your own challenge: wait for somebody to accept it", 409)
            if meta.invite_hash is None:
                raise ClientError("taken", "somebody accepted this challenge first", 409)
            if live.session.state.is_terminal():
                raise ClientError("game_over", "this challenge was withdrawn", 409)
            rated = await self._check_account(live, user)
            return await self._take_seat(live, name, user, rated)

    async def _take_seat(
        self, live: LiveGame, name: str, user: User | None = None, rated: bool = False
    ) -> tuple[int, str, dict[str, Any]]:
        """Give the open seat to whoever joins (the caller holds the lock and has checked their right to)."""
        game_id = live.session.meta.id
        meta = live.session.meta
        seat = next(i for i, h in enumerate(meta.token_hashes) if h is None)
        token = secrets.token_urlsafe(24)
        player = name or (user.name if user is not None else live.session.seat_name(seat).capitalize())
        try:
            joined = await self._write(self.store.join, game_id, seat, hash_token(token), player)
        except Exception as exc:  # the database is down, full or read-only: nobody joined
            log.exception("cannot store a join")
            raise ClientError("unavailable", f"the seat could not be saved ({type(exc).__name__})", 503) from None
        if not joined:
            raise ClientError("forbidden", "the seat was taken already", 403)
        if user is not None and self.accounts is not None:
            await self._write(self.accounts.bind_seat, game_id, seat, user.id, rated)
        meta.token_hashes[seat] = hash_token(token)  # stored: the live game follows
        meta.players[seat] = player
        meta.invite_hash = None
        meta.updated_at = time.time()
        self._broadcast(live)
        return seat, token, live.session.info()

    # --- changes -----------------------------------------------------------------------------
    async def submit(self, live: LiveGame, seat: int, cmd: Command, origin: Connection | None = None) -> Event:
        """Check and commit a seat's command; `ClientError` (nothing changed) if it is refused."""
        async with live.lock:
            if await self._flag_fall(live):  # time ran out before this arrived: the game is over
                self._broadcast(live)
            ev = live.session.event_for(seat, cmd)
            if ev.kind in ("draft", "undo"):
                self._draft(live, ev)
                if origin is not None:
                    origin.send({"type": "ack", "id": cmd.ref, "seq": ev.seq, "draft": len(live.session.drafts[seat])})
                self._broadcast(live, only=seat)
                return ev
            await self._commit(live, ev)
            if origin is not None:
                origin.send({"type": "ack", "id": cmd.ref, "seq": ev.seq})
            self._broadcast(live)
        self._schedule_agent(live)
        return ev

    def _draft(self, live: LiveGame, ev: Event) -> None:
        """A secret decision joins (or leaves) the seat's draft: nothing is stored, nobody else is told."""
        live.session.apply_draft(ev)

    async def _commit(self, live: LiveGame, ev: Event | None) -> None:
        """Play `ev` and the dice it calls for on the live game and store them; the caller holds the lock (until
        this returns, nobody sees the game) and has checked the event (None: only the dice). If they cannot be
        stored the game is put back as it was and `ClientError` says so. Each event is dated now unless it has
        its time already (a loss on time)."""
        session = live.session
        mark = session.seq
        drafts = {s: list(d) for s, d in session.drafts.items()}  # apply() ends drafts; an undo gives them back
        notes = {s: list(d) for s, d in session.draft_explain.items()}
        was_over = session.state.is_terminal()
        now = game_clock.now()
        events: list[Event] = []
        try:
            if ev is not None:
                ev = ev if ev.at is not None else replace(ev, at=now)
                session.apply(ev)
                events.append(ev)
            while session.needs_chance():
                roll = replace(session.chance_event(), at=now)
                session.apply(roll)
                events.append(roll)
        except BaseException:  # a checked event that does not apply (a bug): the game stays as it was
            self._undo(live, mark, drafts, notes)
            raise
        if not events:
            return
        try:
            stamp = await self.commits.append(Append(session.meta.id, events, session.summary()))
        except StoreError as exc:  # the log holds other events at that place: another writer got there first
            log.error("cannot store event: %s", exc)
            self._undo(live, mark, drafts, notes)
            await self._reload(live)
            raise ClientError(
                "conflict", "the game changed elsewhere; the move was not played (the game is shown as stored)", 409
            ) from None
        except Exception as exc:  # the database is down or full: the move must not count
            log.exception("database error")
            self._undo(live, mark, drafts, notes)
            raise ClientError("unavailable", f"the move could not be saved ({type(exc).__name__})", 503) from None
        session.meta.updated_at = stamp
        self._schedule_clock(live)
        if not was_over and session.state.is_terminal() and self.accounts is not None:
            self._spawn(self._rate(session.meta.id))

    async def _reload(self, live: LiveGame) -> None:
        """Rebuild a game from the stored log after another writer appended to it (the caller holds the lock), and
        show every connection the game as stored. A game this process no longer owns, or one that cannot be read
        now, leaves memory instead and its connections are closed: their clients reconnect to whoever owns it,
        and it is rebuilt from the log there."""
        game_id = live.session.meta.id
        try:
            if not self.ownership.owns(game_id):
                raise ClientError("moved", f"game {game_id} is served by another worker", 421)
            meta = await self._io(self.store.game, game_id)
            events = await self._io(self.store.events, game_id)
            if meta is None:
                raise ClientError("not_found", f"no game {game_id!r}", 404)
            live.session = await asyncio.to_thread(GameSession.replay, meta, events)
        except Exception as exc:  # whatever it is, the game must not stay stale in memory
            log.warning("game %s leaves memory instead of being reloaded: %r", game_id, exc)
            self._forget(live)
            return
        log.warning("game %s reloaded from its log at event %d", game_id, live.session.seq)
        self._broadcast(live)
        self._schedule_clock(live)
        self._schedule_agent(live)

    def _forget(self, live: LiveGame) -> None:
        """Drop a game from memory now: its timers and computer stop, its connections close (to reconnect)."""
        game_id = live.session.meta.id
        if self._games.get(game_id) is live:
            del self._games[game_id]
        if live.clock_timer is not None:
            live.clock_timer.cancel()
            live.clock_timer = None
        if live.agent_task is not None and live.agent_task is not asyncio.current_task():
            live.agent_task.cancel()
        live.agent = None
        for conn in list(live.connections):
            conn.send(ClientError("reconnect", "the game moved or changed elsewhere: connect again", 409).to_json())
            conn.end()

    def forget_unowned(self) -> int:
        """Drop from memory every game this process no longer owns (the workers changed); returns how many."""
        gone = [live for gid, live in self._games.items() if not self.ownership.owns(gid)]
        for live in gone:
            self._forget(live)
        return len(gone)

    @staticmethod
    def _undo(live: LiveGame, seq: int, drafts: dict[int, list[int]], notes: dict[int, list[dict[str, Any]]]) -> None:
        """Put the game back as it was after event `seq`, with the seats' drafts of then: rebuilt from its own
        events (a new session object, so that a computer that thought on the undone state thinks again)."""
        session = live.session
        restored = GameSession.replay(session.meta, session.events[:seq])
        restored.drafts, restored.draft_explain = drafts, notes
        live.session = restored

    # --- clocks --------------------------------------------------------------------------------
    async def _flag_fall(self, live: LiveGame) -> bool:
        """End the game on time if the running clock has reached zero (the caller holds the lock)."""
        ev = live.session.timeout_event(game_clock.now())
        if ev is None:
            return False
        await self._commit(live, ev)
        return True

    def _schedule_clock(self, live: LiveGame) -> None:
        """Wake up when the running clock reaches zero (a move before then makes a new schedule)."""
        if live.clock_timer is not None:
            live.clock_timer.cancel()
            live.clock_timer = None
        clocks = live.session.clocks
        end = clocks.deadline() if clocks is not None and not live.session.state.is_terminal() else None
        if end is None or self._closing:
            return
        game_id = live.session.meta.id
        live.clock_timer = asyncio.get_running_loop().call_later(
            max(0.0, end - game_clock.now()) + 0.01, self._spawn_on_time, game_id
        )

    def _spawn_on_time(self, game_id: str) -> None:
        self._spawn(self._on_time(game_id))

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(job)
        self._timers.add(task)  # held until done: the loop keeps only a weak reference to a task
        task.add_done_callback(self._timers.discard)

    # --- ratings -------------------------------------------------------------------------------
    async def _rate(self, game_id: str) -> None:
        """A finished game changes the ratings of its rated accounts, once: against the other account's rating or
        the computer's measured one; a game aborted or against an anonymous seat changes nothing."""
        accounts = self.accounts
        if accounts is None:
            return
        try:
            seats = await self._io(accounts.seats, game_id)
            if not any(rated for _, rated in seats.values()):
                return
            live = await self.get(game_id)
            meta, outcome = live.session.meta, live.session.state.outcome()
            if outcome is None:
                return
            mode = mode_of(meta.game, meta.options.get("variant"))
            old = {u.id: await self._io(accounts.rating, u.id, mode) for u, _ in seats.values()}
            new: dict[int, Rating] = {}
            if outcome.termination is not Termination.ABORTED:
                for seat, (user, _) in seats.items():
                    other = seats.get(1 - seat)
                    if other is not None:
                        opponent: Rating | None = old[other[0].id]
                    elif meta.agent is not None and meta.agent_seat == 1 - seat:
                        opponent = self._computer_rating(get_adapter(meta.game), meta.agent)
                    else:
                        opponent = None  # an anonymous player: nothing to rate against
                    if opponent is not None:
                        score = 0.5 if outcome.winner is None else 1.0 if outcome.winner == seat else 0.0
                        new[user.id] = updated(old[user.id], opponent, score)
            await self._write(accounts.rate, game_id, mode, new, old)
            for conn in list(live.connections):  # their pages show the change now, not when they next ask
                conn.send({"type": "rated", "game": game_id})
        except Exception:  # the next start rates it (`start`): a result is never lost, never counted twice
            log.exception("cannot rate game %s", game_id)

    async def _on_time(self, game_id: str) -> None:
        """The running clock of a game should be at zero now: end the game on time, or look again later."""
        if self._closing:
            return
        try:
            live = await self.get(game_id)  # reloads a game dropped from memory, which ends it on time
            async with live.lock:
                if await self._flag_fall(live):
                    self._broadcast(live)
                else:
                    self._schedule_clock(live)
        except ClientError as exc:  # the database is unavailable: the next look (or move) ends it
            log.error("game %s: cannot end it on time: %s", game_id, exc.message)

    def _broadcast(self, live: LiveGame, only: int | None = None) -> None:
        """Send every connection what changed for its seat since the view it holds (`only`: to that seat's
        connections alone): one delta a seat, encoded once for all of its connections."""
        seats: dict[int | None, list[Connection]] = {}
        for conn in list(live.connections):
            if conn.closed:
                live.connections.discard(conn)
            else:
                seats.setdefault(conn.seat, []).append(conn)
        for key in [k for k in live.shown if k not in seats]:
            del live.shown[key]  # nobody of that seat is connected: a new connection is sent the whole view
        for key, conns in seats.items():
            if only is not None and key != only:
                continue
            text = self._delta(live, key)
            if text is not None:
                for conn in conns:
                    conn.send(text)
        if not live.over_told and live.session.state.is_terminal():
            # The game is over: the players may read the spectators' room now, and are sent what it holds.
            live.over_told = True
            said = live.chat.of(SPECTATORS)
            history = chat_message(SPECTATORS, said, history=True)
            for conn in list(live.connections):
                if conn.seat is not None and said:
                    conn.send(history)

    @staticmethod
    def _delta(live: LiveGame, key: int | None) -> str | None:
        """The delta that brings the connections of seat `key` (None: the spectators) from the view they hold to
        the game's view now, as JSON text; None if nothing changed for them. It holds the view's new number,
        the events since (their kinds and seats: what they did is in the patch, as this seat sees it) and the
        patch of the state message."""
        session = live.session
        new = session.view(key)
        shown = live.shown.get(key)
        if shown is None:  # every connection is sent a whole view first (`_send_view`): never here
            raise RuntimeError(f"seat {key} has connections and no view")
        patch = diff(shown.msg, new)
        if patch is None:
            return None
        version = shown.version + 1
        live.shown[key] = Shown(version, new)
        delta: dict[str, Any] = {"type": "delta", "v": version}
        since = shown.msg["game"]["seq"]
        if session.seq > since:
            delta["events"] = [{"seq": e.seq, "kind": e.kind, "seat": e.seat} for e in session.events[since:]]
        delta["patch"] = patch
        return dumps(delta)

    def _send_view(self, live: LiveGame, conn: Connection) -> None:
        """Send `conn` its seat's whole view now (the caller holds the lock). Its seat's other connections are
        sent what changed since theirs (the clock ran on), so that all of them hold the same view, and its number."""
        key = conn.seat
        if key in live.shown:
            text = self._delta(live, key)
            if text is not None:
                for other in list(live.connections):
                    if other.seat == key and other is not conn and not other.closed:
                        other.send(text)
            shown = live.shown[key]
        else:
            shown = Shown(1, live.session.view(key))
            live.shown[key] = shown
        conn.send(live.session.encode_view({**shown.msg, "v": shown.version}))

    async def connect(self, live: LiveGame, seat: int | None, ip: str = "") -> Connection:
        """A new connection of `seat` (None: a spectator) from address `ip`: it is sent the game's state, then the
        recent messages of each chat room it reads (if the room has any)."""
        conn = Connection(seat, ip)
        async with live.lock:  # not while a change is on its way to the disk
            live.connections.add(conn)
            self._send_view(live, conn)
            over = live.session.state.is_terminal()
        for room in rooms_for(live.session.meta.mode, seat, over):
            said = live.chat.of(room)
            if said:
                conn.send(chat_message(room, said, history=True))
        return conn

    async def sync(self, live: LiveGame, conn: Connection, cmd: Command) -> None:
        """A client that missed a delta (or doubts its view) asks for the whole view again: sent unless the view it
        says it holds (`cmd.version`) is the latest, when an ack says so. A number this connection was never sent
        is refused, and nothing is sent."""
        async with live.lock:
            shown = live.shown.get(conn.seat)
            latest = shown.version if shown is not None else 0
            if cmd.version is not None and cmd.version > latest:
                raise ClientError("bad_version", f"this connection was sent views up to {latest}, not {cmd.version}")
            if cmd.version is not None and cmd.version == latest:
                conn.send({"type": "ack", "id": cmd.ref, "v": latest})
                return
            self._send_view(live, conn)

    async def view(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        """The state message of `seat` (None: a spectator) as it is once any change on its way is stored."""
        async with live.lock:
            return live.session.view(seat)

    async def chat(self, live: LiveGame, conn: Connection, cmd: Command) -> None:
        """A chat message from `conn`: checked (a room it reads, the text, the flood limit), stored, acknowledged,
        then sent to every connection that reads its room; `ClientError` (nothing stored) if it is refused."""
        meta = live.session.meta
        readable = rooms_for(meta.mode, conn.seat, await self._over(live))
        room = cmd.room or (readable[0] if readable else PLAYERS)  # a spectator always reads its room
        if room not in readable:
            raise why_not(room, meta.mode, conn.seat)
        text = clean_text(cmd.text or "")
        live.flood.take(f"seat {conn.seat}" if conn.seat is not None else f"address {conn.ip}")
        name = meta.players[conn.seat] if conn.seat is not None else None
        async with live.chat_lock:
            try:
                entry = await self._write(self.store.add_chat, meta.id, room, conn.seat, name, text, HISTORY)
            except Exception as exc:  # the database is down or full: nobody is told of the message
                log.exception("cannot store a chat message")
                why = f"the message could not be saved ({type(exc).__name__})"
                raise ClientError("unavailable", why, 503) from None
            live.chat.add(entry)
        conn.send({"type": "ack", "id": cmd.ref, "chat": entry.id})
        msg = chat_message(room, [entry])
        over = await self._over(live)
        for other in list(live.connections):
            if room in rooms_for(meta.mode, other.seat, over):
                other.send(msg)

    @staticmethod
    async def _over(live: LiveGame) -> bool:
        """Whether the game is over, as stored (an ending on its way to the disk does not open the players'
        chat to the spectators' room yet)."""
        async with live.lock:
            return live.session.state.is_terminal()

    def disconnect(self, live: LiveGame, conn: Connection) -> None:
        live.connections.discard(conn)
        conn.close()
        if not any(c.seat == conn.seat for c in live.connections):
            live.shown.pop(conn.seat, None)

    # --- computer players ----------------------------------------------------------------------
    def _schedule_agent(self, live: LiveGame) -> None:
        if live.agent is None or self._closing:
            return
        s = live.session
        if s.state.is_terminal() or s.to_move() != s.meta.agent_seat:
            return
        if live.agent_task is None or live.agent_task.done():
            live.agent_task = asyncio.create_task(self._agent_turns(live), name=f"agent-{s.meta.id}")

    async def _agent_turns(self, live: LiveGame) -> None:
        """Let the computer play while it is its turn; an agent that crashes or cheats forfeits."""
        agent = live.agent
        assert agent is not None
        loop = asyncio.get_running_loop()
        while not self._closing and live.agent is agent:  # a game that left memory (`_forget`) plays no more
            session = live.session
            seat = session.meta.agent_seat
            if seat is None or session.state.is_terminal() or session.to_move() != seat:
                return
            stamp = (session.seq, len(session.drafts.get(seat, [])))
            started = loop.time()
            job: Callable[[], Command | str]
            if session.adapter.in_setup(session.state):
                job = _setup_job(agent, session.adapter, session.state.clone(), seat)
            else:
                state = session.seat_state(seat)
                obs, legal = state.observation(seat), list(state.legal_actions())
                job = _move_job(agent, obs, legal)
            answer: Command | str
            try:
                answer = await loop.run_in_executor(self._executor, job)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # an agent's crash is its loss, never the server's
                log.warning("agent %s failed in game %s: %r", agent.name, session.meta.id, exc)
                answer = f"the computer ({agent.name}) failed: {exc!r}"
            wait = self.agent_delay - (loop.time() - started)
            if wait > 0:
                await asyncio.sleep(wait)
            async with live.lock:
                if await self._flag_fall(live):  # its time ran out while it thought
                    self._broadcast(live)
                    return
                if live.session is not session or (live.session.seq, len(live.session.drafts.get(seat, []))) != stamp:
                    continue  # the game changed while the agent thought (a resignation, an undone move): think again
                try:
                    if isinstance(answer, str):
                        ev = live.session.forfeit_event(seat, answer)
                    else:
                        ev = live.session.event_for(seat, answer)
                except ClientError as exc:
                    ev = live.session.forfeit_event(seat, f"the computer ({agent.name}) broke the rules: {exc.message}")
                if ev.kind == "draft":
                    self._draft(live, ev)  # the agent's secret orders: nobody else sees them
                    continue
                try:
                    await self._commit(live, ev)
                except ClientError:
                    await asyncio.sleep(1.0)  # the database is unavailable: try again later
                    continue
                self._broadcast(live)


def explanation(item: Explanation) -> dict[str, str]:
    """One explanation as the event stores it: {rule, text}, each cut to its length limit."""
    return {"rule": str(item.rule)[:40], "text": str(item.text)[:MAX_EXPLANATION_CHARS]}


def _new_explanations(agent: Agent) -> tuple[dict[str, str], ...]:
    """What the agent explained of the decision it just made."""
    return tuple(explanation(e) for e in take_explanations(agent))


def _move_job(agent: Agent, obs: Any, legal: list[int]) -> Callable[[], Command | str]:
    def run() -> Command | str:
        action = int(agent.act(obs, legal))
        return Command("action", action=action, explain=_new_explanations(agent))

    return run


def _setup_job(agent: Agent, adapter: Adapter, state: State, seat: int) -> Callable[[], Command | str]:
    """The agent places its army on a copy, one piece at a time; the result is sent as one setup."""

    def run() -> Command | str:
        while not state.is_terminal() and adapter.in_setup(state) and state.current_player() == seat:
            state.apply(agent.act(state.observation(seat), list(state.legal_actions())))
        return Command("setup", setup=adapter.placement_of(state, seat), explain=_new_explanations(agent))

    return run
