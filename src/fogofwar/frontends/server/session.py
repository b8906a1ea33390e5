"""One hosted game: its state, rebuilt from the event log, and the checks on what seats send.

Everything here is synchronous and free of I/O, so the same code serves live play and
the replay of a log after a restart: a game is `GameSession(meta)` plus `apply(event)`
for each stored event, in order.

Setups are simultaneous for the players but sequential in the engine (red places, then
blue). A seat that sends its setup before its turn gets it checked and logged at once;
it is applied when the engine reaches that seat (`_pending`), so nobody waits on
anybody, and a replay applies it at the same point.

Dice (the engine's chance player) are rolled by the server: `chance_event` draws the roll
from the game's stream for that event number (`GameMeta.secret`, `fogofwar.core.randomness`),
and it is logged like any move, so a replay rebuilds the same dice. Each seat's random setup,
the computer's choices and each die are separate streams of the secret: seeing one tells
nothing of another. A seat whose decisions are secret for a while (Admiral's
attack assignment, `Adapter.in_secret`) builds a *draft*: each decision is checked and
shown to that seat alone, and the whole draft becomes one event when the seat commits,
so the other seat learns neither the decisions nor how many there were. A draft is not
stored: after a restart the seat makes its decisions again.

A computer player may explain its decisions (`Command.explain`); the explanations are
stored with the event they explain and shown to everybody once that event is public.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import operator
from dataclasses import dataclass
from typing import Any

from fogofwar.core import inputs
from fogofwar.core.match import roll
from fogofwar.core.protocol import (
    CHANCE,
    GameError,
    IllegalActionError,
    InvalidSetupError,
    NotationError,
    RecordError,
    State,
    Termination,
)
from fogofwar.core.randomness import Streams
from fogofwar.core.records import GameRecord
from fogofwar.core.web_adapter import Entry, Event
from fogofwar.frontends.server import clock as game_clock
from fogofwar.frontends.server.adapters import Adapter, get_adapter
from fogofwar.frontends.server.clock import SLACK, Clocks, TimeControl
from fogofwar.frontends.server.store import GameMeta, Summary

MAX_MESSAGE_BYTES = 4096
"""Largest client message accepted: a classic placement as JSON is under 1 KiB."""
MAX_EXPLANATIONS = 60
"""Explanations sent with a state: the most recent ones."""
MAX_ERROR_CHARS = 600
"""An error message is cut to this length: it may quote what the client sent, never all of a huge input."""
MAX_DEPTH = 16
"""Deepest nesting of lists and objects in a client message (a setup is two levels)."""


def printable(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, with anything that is not encodable (a lone surrogate quoted
    from a client's JSON) escaped: an answer must never fail to encode."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def check_json_text(value: Any, what: str = "the message", max_depth: int = MAX_DEPTH) -> None:
    """Refuse what JSON can carry but the server can neither store nor echo (`inputs.json_problem`: a lone
    UTF-16 surrogate from a `\\ud800` escape, nesting deeper than `max_depth`, NaN, an integer of more
    than 50 digits). Raises `ClientError`."""
    problem = inputs.json_problem(value, max_depth=max_depth, max_int_digits=50, root=what)
    if problem:
        raise ClientError("malformed", problem)


class ClientError(Exception):
    """A request refused; `code` is machine-readable, the message says what was wrong. Nothing changed."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        message = printable(message, MAX_ERROR_CHARS)
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_json(self, ref: Any = None) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "error", "error": self.code, "message": self.message}
        if ref is not None:
            d["id"] = ref
        return d


def hash_token(token: str) -> str:
    """Tokens are stored hashed, so a leaked database does not hand out seats."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Command:
    """A checked client message: what a seat asks for."""

    kind: str  # "hello" | "action" | "setup" | "undo" | "resign" | "abort" | "ping" | "chat" | "sync", or a draw's
    ref: Any = None  # the client's own id for the message, echoed in the answer
    action: int | None = None
    move: str | None = None
    setup: Any = None
    token: str | None = None
    explain: tuple[dict[str, Any], ...] = ()  # a computer player's reasons (never read from a client)
    text: str | None = None  # a chat message, as typed (`chat.clean_text` cleans it)
    room: str | None = None  # the chat room it is for (None: the first the sender reads)
    version: int | None = None  # sync: the view number the client holds (None: it holds none it trusts)


def parse_command(raw: str | bytes) -> Command:
    """Read one client message (JSON text); `ClientError` names what is wrong with it."""
    size = len(raw.encode("utf-8")) if isinstance(raw, str) else len(raw)
    if size > MAX_MESSAGE_BYTES:
        raise ClientError("too_large", f"message of {size} bytes is over the limit of {MAX_MESSAGE_BYTES}", 413)
    try:
        data = json.loads(raw)
    except RecursionError:
        raise ClientError("malformed", f"not JSON this server reads: nested deeper than {MAX_DEPTH} levels") from None
    except (ValueError, UnicodeDecodeError) as exc:  # also an integer of thousands of digits
        raise ClientError("malformed", f"not JSON: {exc}") from None
    check_json_text(data)
    return command_from_json(data)


def command_from_json(data: Any) -> Command:
    if not isinstance(data, dict):
        raise ClientError("malformed", 'a message is a JSON object like {"type": "action", "action": 1213}')
    kind = data.get("type")
    ref = data.get("id")
    if ref is not None and not (isinstance(ref, str | int) and not isinstance(ref, bool) and len(str(ref)) <= 64):
        raise ClientError("malformed", '"id" must be a string or a number of at most 64 characters')
    if kind == "action":
        action, move = data.get("action"), data.get("move")
        if action is not None:
            if isinstance(action, bool) or not isinstance(action, int):
                raise ClientError("malformed", '"action" must be an integer action id', 400)
            return Command("action", ref, action=action)
        if isinstance(move, str) and move.strip():
            return Command("action", ref, move=move)
        raise ClientError("malformed", 'an action message needs "action" (an id) or "move" (like "B4-B5")')
    if kind == "setup":
        setup = data.get("setup")
        if not isinstance(setup, str | dict):
            raise ClientError(
                "malformed", '"setup" must be "random", "sample", "sample:NAME", a setup string or {square: rank}'
            )
        return Command("setup", ref, setup=setup)
    if kind == "hello":
        token = data.get("token")
        if token is not None and not isinstance(token, str):
            raise ClientError("malformed", '"token" must be a string')
        return Command("hello", ref, token=token)
    if kind == "chat":
        text, room = data.get("text"), data.get("room")
        if not isinstance(text, str):
            raise ClientError("malformed", 'a chat message needs "text", a string')
        if room is not None and room not in ("players", "spectators"):
            raise ClientError("malformed", '"room" must be "players" or "spectators"')
        return Command("chat", ref, text=text, room=room)
    if kind == "sync":
        version = data.get("v")
        if version is not None and (isinstance(version, bool) or not isinstance(version, int) or version < 0):
            raise ClientError("malformed", '"v" must be the number of the last view the client holds (0 or more)')
        return Command("sync", ref, version=version)
    if kind in ("resign", "abort", "ping", "undo", *DRAW_COMMANDS):
        return Command(str(kind), ref)
    raise ClientError(
        "malformed",
        f"unknown message type {kind!r}; use action, setup, undo, resign, abort, offer_draw, accept_draw,"
        " decline_draw, chat, sync, hello or ping",
    )


DRAW_COMMANDS = ("offer_draw", "accept_draw", "decline_draw")
"""What players say of a draw (not to the computer): an offer, its acceptance, its refusal."""
ABORT_BEFORE = 2
"""A game may be aborted (called off without a result) until this many moves have been played."""


class GameSession:
    """A game's meta data and state; apply() is the only way the state changes."""

    def __init__(self, meta: GameMeta) -> None:
        self.meta = meta
        self.adapter: Adapter = get_adapter(meta.game)
        self.game = self.adapter.make_game(dict(meta.options))
        self.state: State = self.game.new_initial_state()
        self._pending: dict[int, dict[str, str]] = {}
        self.events: list[Event] = []
        self.setup_strings: dict[int, str] = {}
        self.placements: dict[int, dict[str, str]] = {}
        self.streams = Streams(meta.secret)
        self._moves: tuple[int, list[dict[str, Any]]] = (-1, [])  # the public move list, built once per seq
        self._moves_json: tuple[list[dict[str, Any]], list[str], str] = ([], [], "[]")  # that list as JSON
        self.drafts: dict[int, list[int]] = {}  # a seat's secret decisions, not yet committed
        self.draw_offer: int | None = None  # the seat whose offer of a draw waits for the other's answer
        self.draft_explain: dict[int, list[dict[str, Any]]] = {}
        self._draft_state: tuple[tuple[int, int, tuple[int, ...]], State] | None = None
        self.log: list[Entry] = []  # the move log, for adapters that keep one (uses_log)
        self.explanations: list[Entry] = []
        self.clocks = Clocks(TimeControl.from_json(meta.clock)) if meta.clock else None
        self.rematch: dict[str, Any] | None = None  # {"game": id, "by": seat}: the new game one player asked for

    @classmethod
    def replay(cls, meta: GameMeta, events: list[Event]) -> GameSession:
        """Rebuild a game from its log; `RecordError` if an event no longer applies."""
        session = cls(meta)
        for ev in events:
            if ev.seq != len(session.events) + 1:
                raise RecordError(f"game {meta.id}: event {ev.seq} is out of order")
            try:
                session.apply(ev)
            except (GameError, KeyError, TypeError, ValueError) as exc:
                raise RecordError(f"game {meta.id}: event {ev.seq} ({ev.kind}) does not apply: {exc}") from exc
        return session

    # --- who is who ----------------------------------------------------------------------------
    @property
    def seq(self) -> int:
        return len(self.events)

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens, or None."""
        if not token:
            return None
        h = hash_token(token)
        for seat, stored in enumerate(self.meta.token_hashes):
            if stored is not None and hmac.compare_digest(stored, h):
                return seat
        return None

    def seat_name(self, seat: int) -> str:
        return self.adapter.seat_names[seat]

    def status(self) -> str:
        if self.state.is_terminal():
            return "over"
        return "setup" if self.adapter.in_setup(self.state) else "play"

    def to_move(self) -> int | None:
        """The seat to act; None once the game is over (or for the instant the server rolls dice)."""
        if self.state.is_terminal():
            return None
        player = self.state.current_player()
        return player if player >= 0 else None

    def needs_chance(self) -> bool:
        """The dice must be rolled (by the server) before anybody can act."""
        return not self.state.is_terminal() and self.state.current_player() == CHANCE

    def chance_event(self) -> Event:
        """The next die roll, drawn from the game's stream for this event number (so a restarted server
        rolls the same die it would have rolled), as an event for the log."""
        action = roll(self.state, self.streams.rng("chance", self.seq + 1))
        return Event(self.seq + 1, "chance", None, {"action": int(action)})

    def seat_state(self, seat: int) -> State:
        """The state as `seat` sees it: the game, with the seat's draft (if any) played on a copy."""
        draft = self.drafts.get(seat)
        if not draft:
            return self.state
        key = (self.seq, seat, tuple(draft))
        if self._draft_state is not None and self._draft_state[0] == key:
            return self._draft_state[1]
        state = self.state.clone()
        for a in draft:
            state.apply(a)
        self._draft_state = (key, state)
        return state

    def has_set_up(self, seat: int) -> bool:
        """The seat's setup is logged (applied or waiting for its turn)."""
        return seat in self.setup_strings

    def summary(self) -> Summary:
        outcome = self.state.outcome()
        return Summary(
            self.status(), self.to_move(), self.adapter.move_count(self.state), outcome.to_json() if outcome else None
        )

    # --- turning commands into events -------------------------------------------------------------
    def event_for(self, seat: int, cmd: Command) -> Event:
        """Check `cmd` from `seat` against the rules and turn it into the next event; `ClientError` if refused.

        An action is checked against the legal actions (the engine explains a refusal on a copy), a setup on a copy
        of the state: an accepted event is certain to apply, and nothing here changes the session.
        """
        if self.state.is_terminal():
            outcome = self.state.outcome()
            raise ClientError("game_over", f"the game is over ({outcome.reason if outcome else ''})", 409)
        seq = self.seq + 1
        if cmd.kind == "resign":
            return Event(seq, "resign", seat, {})
        if cmd.kind == "abort":
            if self.adapter.move_count(self.state) >= ABORT_BEFORE:
                raise ClientError(
                    "illegal", f"a game can be aborted only in its first {ABORT_BEFORE} moves: resign instead", 409
                )
            return Event(seq, "abort", seat, {})
        if cmd.kind in DRAW_COMMANDS:
            return self._draw_event(seq, seat, cmd.kind)
        if cmd.kind == "setup":
            ev = self._setup_event(seq, seat, cmd.setup)
            if cmd.explain:
                ev.payload["explain"] = [dict(e) for e in cmd.explain]
            return ev
        if cmd.kind == "undo":
            if not self.drafts.get(seat):
                raise ClientError(
                    "illegal", "there is no decision to take back: only secret orders not yet committed", 409
                )
            return Event(self.seq, "undo", seat, {})
        if cmd.kind != "action":
            raise ClientError("malformed", f"{cmd.kind!r} is not a game action")
        if self.adapter.in_setup(self.state):
            raise ClientError("illegal", "during the setup send your whole army as one setup message", 409)
        if self.needs_chance():
            raise ClientError("not_your_turn", "the dice are being rolled", 409)
        to_move = self.state.current_player()
        if to_move != seat:
            raise ClientError(
                "not_your_turn", f"it is {self.seat_name(to_move)}'s turn, not {self.seat_name(seat)}'s", 409
            )
        secret = self.adapter.in_secret(self.state, seat)
        state = self.seat_state(seat) if secret else self.state
        try:
            if cmd.move is not None:
                action = state.string_to_action(cmd.move)
            else:
                assert cmd.action is not None
                action = cmd.action
                if not 0 <= action < self.game.num_distinct_actions():
                    raise IllegalActionError(f"{action} is not an action id of {self.meta.game}")
                if action not in state.legal_actions():
                    state.clone().apply(action)  # raises with the engine's explanation
        except (IllegalActionError, NotationError) as exc:
            raise ClientError("illegal", f"illegal move: {exc}", 422) from None
        explain = [dict(e) for e in cmd.explain]
        if secret:
            trial = state.clone()
            trial.apply(action)
            if self.adapter.in_secret(trial, seat):  # one more secret decision: the seat's draft grows
                return Event(self.seq, "draft", seat, {"action": action, "explain": explain})
            actions = [*self.drafts.get(seat, []), action]  # committed: the whole draft is one event
            payload: dict[str, Any] = {"actions": actions}
            explain = [*self.draft_explain.get(seat, []), *explain]
        else:
            payload = {"action": action}
        if explain:
            payload["explain"] = explain
        return Event(seq, "action", seat, payload)

    def apply_draft(self, ev: Event) -> None:
        """A seat's secret decision (`draft`) or its taking back (`undo`): shown to that seat alone, never
        logged."""
        assert ev.seat is not None
        draft = self.drafts.setdefault(ev.seat, [])
        notes = self.draft_explain.setdefault(ev.seat, [])
        if ev.kind == "draft":
            draft.append(int(ev.payload["action"]))
            notes.extend(ev.payload.get("explain") or [])
        elif ev.kind == "undo" and draft:
            draft.pop()
        else:
            raise RecordError(f"{ev.kind!r} is not a draft change")

    def _setup_event(self, seq: int, seat: int, spec: Any) -> Event:
        if not self.adapter.in_setup(self.state):
            raise ClientError("illegal", "the setup is over", 409)
        if self.has_set_up(seat):
            raise ClientError("illegal", f"{self.seat_name(seat)} has already set up", 409)
        try:
            placement = self.adapter.parse_setup(self.state, seat, spec, self.streams.rng("setup", seat, seq))
            if self.state.current_player() == seat:
                self.adapter.apply_setup(self.state.clone(), seat, placement)
            else:
                self.adapter.check_early_setup(self.state, seat, placement)
        except (InvalidSetupError, NotationError) as exc:
            raise ClientError("bad_setup", f"setup refused: {exc}", 422) from None
        return Event(seq, "setup", seat, {"placement": placement})

    def _draw_event(self, seq: int, seat: int, kind: str) -> Event:
        """An offer of a draw between two people, or the answer to one (the computer takes none)."""
        if self.meta.mode == "agent":
            raise ClientError("illegal", "the computer plays on: draws are agreed between two players", 409)
        if self.adapter.in_setup(self.state):
            raise ClientError("illegal", "a draw can be offered once the game has begun", 409)
        if kind == "offer_draw":
            if self.draw_offer == seat:
                raise ClientError("illegal", "your offer of a draw is still waiting for an answer", 409)
            if self.draw_offer is not None:
                raise ClientError("illegal", "your opponent offers a draw: accept or decline it", 409)
            return Event(seq, "draw_offer", seat, {})
        if self.draw_offer is None or self.draw_offer == seat:
            raise ClientError("illegal", "there is no offer of a draw from your opponent to answer", 409)
        return Event(seq, "draw_accept" if kind == "accept_draw" else "draw_decline", seat, {})

    def forfeit_event(self, seat: int, reason: str) -> Event:
        return Event(self.seq + 1, "forfeit", seat, {"reason": reason[:500]})

    def timeout_event(self, now: float) -> Event | None:
        """The loss on time of the seat whose clock has run out by `now` (None: nobody's has), dated the
        moment it ran out."""
        if self.clocks is None or self.state.is_terminal():
            return None
        seat, end = self.clocks.flagged(now), self.clocks.deadline()
        if seat is None or end is None:
            return None
        return Event(self.seq + 1, "timeout", seat, {}, at=end)

    def resume_event(self, now: float) -> Event | None:
        """After a restart: the running clock goes on from `now` (None: no clock runs)."""
        if self.clocks is None or self.clocks.running is None or self.state.is_terminal():
            return None
        return Event(self.seq + 1, "resume", None, {}, at=now)

    def _clock_seat(self) -> int | None:
        """Whose clock runs now: the seat to act once the play has started (while the server rolls dice,
        the one it ran for before)."""
        if self.state.is_terminal() or self.adapter.in_setup(self.state):
            return None
        if self.needs_chance():
            return self.clocks.running if self.clocks is not None else None
        return self.state.current_player()

    # --- applying events ------------------------------------------------------------------------
    def apply(self, ev: Event) -> None:
        """Play one logged event on the state (the only mutation)."""
        notes = ev.payload.get("explain") or []
        moment = self.adapter.moment(self.state) if notes else {}  # what the explanations remember
        ends = ("setup", "resign", "forfeit", "draw_accept", "abort", "timeout")
        before = self.state.clone() if self.adapter.uses_log and ev.kind in ends else None
        if ev.kind == "setup":
            assert ev.seat is not None
            placement = {str(k): str(v) for k, v in ev.payload["placement"].items()}
            self.setup_strings[ev.seat] = self.adapter.setup_string(self.state, ev.seat, placement)
            self.placements[ev.seat] = placement
            self._pending[ev.seat] = placement
            self._flush_pending()
        elif ev.kind in ("action", "chance"):
            self._play(ev)
        elif ev.kind == "resign":
            assert ev.seat is not None
            self.state.end_by(Termination.RESIGNATION, 1 - ev.seat, f"{self.seat_name(ev.seat)} resigned")
        elif ev.kind == "forfeit":
            assert ev.seat is not None
            reason = str(ev.payload.get("reason") or "forfeit")
            self.state.end_by(Termination.FORFEIT, 1 - ev.seat, f"{self.seat_name(ev.seat)} forfeits: {reason}")
        elif ev.kind == "draw_offer":
            self.draw_offer = ev.seat
        elif ev.kind == "draw_decline":
            self.draw_offer = None
        elif ev.kind == "draw_accept":
            self.draw_offer = None
            self.state.end_by(Termination.AGREED_DRAW, None, "the players agreed a draw")
        elif ev.kind == "abort":
            assert ev.seat is not None
            self.state.end_by(Termination.ABORTED, None, f"{self.seat_name(ev.seat)} aborted the game")
        elif ev.kind == "timeout":
            assert ev.seat is not None
            if self.clocks is None or ev.at is None or self.clocks.flagged(ev.at + SLACK) != ev.seat:
                raise RecordError(f"a loss on time for {self.seat_name(ev.seat)}, whose clock has not run out")
            self.state.end_by(Termination.TIMEOUT, 1 - ev.seat, f"{self.seat_name(ev.seat)} ran out of time")
        elif ev.kind == "resume":
            if self.clocks is not None:
                self.clocks.resume(ev.at)
        elif ev.kind == "rematch":
            if not self.state.is_terminal():
                raise RecordError("a rematch of a game that is still on")
            self.rematch = {"game": str(ev.payload["game"]), "by": ev.seat}
        else:
            raise RecordError(f"unknown event kind {ev.kind!r}")
        if before is not None:
            self._log(before, ev, [])
        for note in notes:
            self.explanations.append(
                {
                    **moment,
                    "seq": ev.seq,
                    "seat": ev.seat,
                    "rule": str(note.get("rule", "")),
                    "text": str(note.get("text", "")),
                }
            )
        if ev.kind in ("action", "setup") and self.draw_offer is not None and ev.seat != self.draw_offer:
            self.draw_offer = None  # the opponent played on: the offer lapses
        if self.clocks is not None and ev.kind != "resume":
            self.clocks.advance(ev.at, self._clock_seat())
        self.events.append(ev)
        for seat in list(self.drafts):  # a draft lives only while its seat's secret decisions last
            if ev.seat == seat or not self.adapter.in_secret(self.state, seat):
                self.drafts.pop(seat, None)
                self.draft_explain.pop(seat, None)

    def _play(self, ev: Event) -> None:
        """An action event (one action, or a committed draft: several) or a die roll."""
        if ev.kind == "chance" and not self.needs_chance():
            raise RecordError("a die roll where the game expects no dice")
        if ev.kind == "action" and self.needs_chance():
            raise RecordError("a move where the dice must be rolled")
        actions = [int(a) for a in ev.payload["actions"]] if "actions" in ev.payload else [int(ev.payload["action"])]
        before = self.state.clone() if self.adapter.uses_log else None
        texts: list[str] = []
        for a in actions:
            if before is not None:
                texts.append(self.state.action_to_string(a))
            self.state.apply(a)
        if before is not None:
            self._log(before, ev, texts)

    def _log(self, before: State, ev: Event, texts: list[str]) -> None:
        entry = self.adapter.log_entry(before, ev, texts)
        if entry is not None:
            self.log.append(entry)

    def _flush_pending(self) -> None:
        while not self.state.is_terminal() and self.adapter.in_setup(self.state):
            seat = self.state.current_player()
            placement = self._pending.pop(seat, None)
            if placement is None:
                return
            self.adapter.apply_setup(self.state, seat, placement)

    # --- what goes out --------------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        """The public summary of the game (what the game list shows)."""
        m = self.meta
        return game_info(m, self.summary(), self.seq)

    def view(self, seat: int | None) -> dict[str, Any]:
        """The state message for a seat (None: a spectator). A seat sees only its observation (with its
        own draft, if it has one); everybody sees everything once the game is over."""
        over = self.state.is_terminal()
        msg: dict[str, Any] = {"type": "state", "game": self.info(), "seat": seat}
        state = self.state if seat is None else self.seat_state(seat)
        if seat is None:
            msg["view"] = self.adapter.public_view(self.state)
        else:
            msg["view"] = self.adapter.seat_view(state, seat)
        if self._moves[0] != self.seq:  # extended from the list of an earlier seq (copies share it, unchanged)
            self._moves = (self.seq, self.adapter.public_moves_after(self.state, self.log, self._moves[1]))
        msg["moves"] = self._moves[1]
        to_move = self.to_move()
        in_setup = self.adapter.in_setup(self.state)
        mine = seat is not None and to_move == seat and not in_setup
        msg["legal"] = list(state.legal_actions()) if mine else []
        if mine:
            actions = self.adapter.describe_actions(state, msg["legal"], msg["view"])
            if actions:
                msg["actions"] = actions
        if seat is not None and seat in self.drafts:
            msg["draft"] = list(self.drafts[seat])  # the seat's own secret decisions, not yet committed
        if self.clocks is not None:
            msg["clock"] = self.clocks.to_json(game_clock.now())
        if self.draw_offer is not None and not over:
            msg["draw_offer"] = self.draw_offer  # whose offer of a draw waits (both players and spectators see it)
        if self.explanations:
            shown: list[dict[str, Any]] = []  # the most recent visible ones, newest first
            for e in reversed(self.explanations):
                if len(shown) == MAX_EXPLANATIONS:
                    break
                if self.adapter.explanation_visible(self.state, e):
                    shown.append({k: e[k] for k in ("seq", "seat", "rule", "text") if k in e} | {"turn": e.get("turn")})
            msg["explanations"] = shown[::-1]
        if seat is not None and in_setup and not over:
            msg["setup"] = {
                **self.adapter.setup_info(self.state, seat),
                "done": self.has_set_up(seat),
                "string": self.setup_strings.get(seat, ""),
                "placement": self.placements.get(seat, {}),  # the seat's own army, also while it waits for its turn
            }
        if over and self.rematch is not None:
            msg["rematch"] = dict(self.rematch)  # the new game one player asked for: the other may take its seat
        if over:
            msg["final"] = self.adapter.final_view(self.state)
            msg["setups"] = {str(s): text for s, text in sorted(self.setup_strings.items())}
        return msg

    def view_json(self, seat: int | None) -> str:
        """`view(seat)` as the JSON text the websocket sends (what `json.dumps` makes of it with Starlette's
        settings)."""
        return self.encode_view(self.view(seat))

    def encode_view(self, msg: dict[str, Any]) -> str:
        """A message of `view` (extra keys allowed) as JSON text, the move list's part encoded once per entry and
        reused until the list changes."""
        moves = msg["moves"]
        known, parts, text = self._moves_json
        if moves is not known:
            n = len(known)
            if len(moves) >= n and all(map(operator.is_, known, moves)):  # extended: encode the new entries
                parts = [*parts, *(dumps(m) for m in moves[n:])]
            else:
                parts = [dumps(m) for m in moves]
            text = "[" + ",".join(parts) + "]"
            self._moves_json = (moves, parts, text)
        return encode_object(msg, {"moves": text})

    def record(self) -> GameRecord:
        """The project's game record; only ever asked for once the game is over (it holds every setup)."""
        return GameRecord.from_state(
            self.state,
            players=[p or self.seat_name(i) for i, p in enumerate(self.meta.players)],
            game_id=self.meta.id,
            mode=self.meta.mode,
        )


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
dumps = _ENCODER.encode
"""JSON text as Starlette's `WebSocket.send_json` writes it (`json.dumps` with these settings)."""


def encode_object(msg: dict[str, Any], encoded: dict[str, str]) -> str:
    """`dumps(msg)` where the values of the keys in `encoded` are given as JSON text already: the runs of
    other keys are encoded in one go each, and the key order is kept."""
    parts: list[str] = []
    run: dict[str, Any] = {}
    for k, v in msg.items():
        if k in encoded:
            if run:
                parts.append(dumps(run)[1:-1])
                run = {}
            parts.append(f"{dumps(k)}:{encoded[k]}")
        else:
            run[k] = v
    if run:
        parts.append(dumps(run)[1:-1])
    return "{" + ",".join(parts) + "}"


def game_info(m: GameMeta, s: Summary, seq: int) -> dict[str, Any]:
    """Public facts of a game: never a token, never a hidden rank. Its lists are its own (a view sent is what a
    delta is made from: it must not change when the game's meta data does)."""
    open_seats = [i for i, h in enumerate(m.token_hashes) if h is None and i != m.agent_seat]
    return {
        "id": m.id,
        "game": m.game,
        "variant": m.options.get("variant"),
        "options": dict(m.options),
        "mode": m.mode,
        "agent": m.agent,
        "agent_seat": m.agent_seat,
        "players": list(m.players),
        "open_seats": open_seats if m.invite_hash is not None else [],
        "status": s.status,
        "to_move": s.to_move,
        "move_count": s.move_count,
        "outcome": s.outcome,
        "seq": seq,
        "created_at": m.created_at,
        "updated_at": m.updated_at,
        "clock": m.clock["label"] if m.clock else None,
        "public": m.public,
    }
