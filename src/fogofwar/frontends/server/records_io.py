"""Game records in and out of the web app: export (JSON record, Gravon XML), import, and replays.

A replay is computed here, by the one rules engine, never in the browser: the game is rebuilt
from its start and the view after every move is taken from the adapter (the full view, every
rank, for a finished game or an imported record; a seat's own observation for a player
looking back at a game still in progress). The browser gets the first view whole and, for
each move, only what changed (`changes`: square -> cell, `set`: other fields of the view), so
that a long game stays small; it patches one view into the next and judges nothing.

An imported file is read, replayed and answered; nothing is stored. Anything wrong with it
is a `ClientError` that says what: too large, not UTF-8, malformed JSON or XML, not a record,
an unknown game, a bad start or setup, or the first illegal move by its number.
"""

from __future__ import annotations

import gzip
import json
from typing import Any

from fogofwar.core.formats import record_formats
from fogofwar.core.protocol import (
    GameError,
    IllegalActionError,
    InvalidSetupError,
    NotationError,
    Outcome,
    RecordError,
)
from fogofwar.core.records import GameRecord
from fogofwar.core.registry import make_game
from fogofwar.core.state_json import start_of
from fogofwar.frontends.server.adapters import Adapter, get_adapter
from fogofwar.frontends.server.session import ClientError

MAX_IMPORT_BYTES = 1 << 20
"""Largest record file accepted for import (1 MiB: a long classic game as JSON is under 100 KiB)."""

MAX_REPLAY_STEPS = 10_000
"""Most moves a replay shows (the server's own move cap is at most 10,000)."""


# --- import ----------------------------------------------------------------------------------------
def export_formats() -> tuple[str, ...]:
    """fogofwar's JSON record and every outside format a game registered (`core.formats`)."""
    return ("json", *record_formats())


def record_from_upload(data: bytes, name: str = "the file") -> tuple[GameRecord, str]:
    """Read an uploaded file: a project JSON record or a game in an outside format (Gravon XML). Returns the
    record and the format ("json", "gravon"); `ClientError` says what is wrong with the file."""
    if len(data) > MAX_IMPORT_BYTES:
        raise ClientError("too_large", f"{name} has {len(data):,} bytes, over the limit of {MAX_IMPORT_BYTES:,}", 413)
    if not data.strip():
        raise ClientError("bad_record", f"{name} is empty", 422)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ClientError("bad_record", f"{name} is not UTF-8 text (byte {exc.start} cannot be read)", 422) from None
    head = text.lstrip()[:1]
    formats = record_formats()
    try:
        if head == "{":
            return _json_record(text, name), "json"
        for fmt in formats.values():
            if head == fmt.starts_with:  # Gravon's reader refuses a DOCTYPE and its entities itself
                return fmt.read(text, name), fmt.name
    except RecordError as exc:
        raise ClientError("bad_record", str(exc), 422) from None
    others = "".join(f" nor a {f.title} game (it would start with {f.starts_with!r})" for f in formats.values())
    raise ClientError(
        "bad_record",
        f"{name} is neither a fogofwar JSON record (it would start with '{{'){others}; "
        f"it starts with {text.lstrip()[:12]!r}",
        422,
    )


def _json_record(text: str, name: str) -> GameRecord:
    try:
        return GameRecord.loads(text)  # checks every part of it (JSON, depth, integers, types, text)
    except RecordError as exc:
        raise RecordError(f"{name}: {exc}") from None


# --- export ----------------------------------------------------------------------------------------
def export(record: GameRecord, fmt: str) -> tuple[str, str, str]:
    """(body, media type, file extension) of a finished game's record in `fmt` ("json", "gravon", ...)."""
    if fmt == "json":
        return record.dumps(), "application/json", "json"
    outside = record_formats().get(fmt)
    if outside is None:
        raise ClientError("malformed", f"format must be one of {', '.join(export_formats())}, not {fmt!r}")
    try:
        return outside.write(record), outside.media_type, outside.extension
    except GameError as exc:  # RecordError among them
        raise ClientError("no_export", f"no {outside.title} for this game: {exc}", 422) from None


# --- replays -----------------------------------------------------------------------------------------
def _start(game: Any, data: dict[str, Any]) -> tuple[Any, list[int], dict[str, Any] | None]:
    """The state before the first action, the actions, and an ending from outside the board (if any)."""
    actions = data.get("actions") or []
    if not isinstance(actions, list) or not all(isinstance(a, int) and not isinstance(a, bool) for a in actions):
        raise RecordError('"actions" must be a list of action ids')
    ended = data.get("ended_by")
    return start_of(game, data), list(actions), ended if isinstance(ended, dict) else None


def build_replay(
    adapter: Adapter,
    game: Any,
    data: dict[str, Any],
    viewer: int | None = None,
    stop_at: int | None = None,
) -> dict[str, Any]:
    """Replay a state's JSON (options, start, actions) step by step through the rules engine.

    `viewer` None: the full view (every rank; only for finished games and imported records), else
    that seat's own observation. A step is one action, or the actions the adapter groups into one
    (`Adapter.replay_step`: the dice of one roll; another seat's secret orders), numbered from 1.
    Returns {"start": view before the first step, "steps": [...], "outcome"}; with `stop_at`, also
    "view": the whole view after step `stop_at` (the replay ends there). `RecordError` names the
    first action the rules refuse.
    """

    def view(st: Any) -> dict[str, Any]:
        return adapter.final_view(st) if viewer is None else adapter.seat_view(st, viewer)

    try:
        state, actions, ended = _start(game, data)
    except (GameError, KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"the record's start cannot be set up: {exc}") from None
    i = 0
    while i < len(actions) and adapter.in_setup(state) and not state.is_terminal():
        try:
            state.apply(actions[i])
        except (IllegalActionError, InvalidSetupError, NotationError, ValueError, KeyError) as exc:
            raise RecordError(f"setup action {i + 1} ({actions[i]}) is illegal: {exc}") from None
        i += 1
    moves = actions[i:]
    if len(moves) > MAX_REPLAY_STEPS:
        raise RecordError(f"the record has {len(moves):,} moves; replays show at most {MAX_REPLAY_STEPS:,}")
    in_setup = adapter.in_setup(state)
    prev = view(state)
    out: dict[str, Any] = {"start": prev, "steps": [], "in_setup": in_setup}
    steps: list[dict[str, Any]] = out["steps"]
    group: str | None = None  # the group of the last step, which the next action may join
    before = prev  # the view before the last step
    complete = True
    for n, action in enumerate(moves, 1):
        player = state.current_player()
        facts = dict(adapter.replay_step(state, player, viewer))
        key = facts.pop("group", None)
        hidden = facts.pop("hidden", None)
        joins = key is not None and key == group and bool(steps)
        if stop_at is not None and not joins and len(steps) >= stop_at:
            complete = False
            break
        try:
            text = state.action_to_string(action)
        except (GameError, ValueError, KeyError, IndexError):
            text = str(action)
        try:
            state.apply(action)
        except (IllegalActionError, ValueError, KeyError, IndexError) as exc:
            raise RecordError(f"move {n} ({text}) is illegal: {exc}") from None
        cur = view(state)
        if hidden is None:
            # The move as the game's public history writes it: the engine's notation may say more than
            # the viewer saw, or less than the history (LOTR's Uruk-Hai attacking again).
            text = adapter.replay_notation(text, cur)
        if joins:
            last = steps[-1]
            if hidden is None:
                last["texts"].append(text)
                last["notation"] = "; ".join(last["texts"])
            last.update(_step(last["n"], last["player"], last["notation"], before, cur, {}))
        else:
            before = prev
            step = _step(len(steps) + 1, player, str(hidden) if hidden is not None else text, prev, cur, facts)
            if hidden is not None:
                step["hidden"] = True
            elif key is not None:
                step["texts"] = [text]
            steps.append(step)
        group = key
        prev = cur
    if ended is not None and complete:
        outcome = Outcome.from_json(ended)
        if not state.is_terminal():
            state.end_by(outcome.termination, outcome.winner, outcome.reason)
            cur = view(state)
            if steps:
                steps[-1]["set"].update({k: v for k, v in cur.items() if k != "board" and prev.get(k) != v})
            else:
                out["start"] = cur
            prev = cur
    if stop_at is not None:
        if stop_at > len(steps):
            raise RecordError(f"there is no move {stop_at}: the game has {len(steps)} moves")
        out["view"] = prev
    o = state.outcome()
    out["outcome"] = o.to_json() if o is not None else None
    return out


def _step(
    n: int, player: int, notation: str, prev: dict[str, Any], cur: dict[str, Any], facts: dict[str, Any]
) -> dict[str, Any]:
    board0, board1 = prev.get("board") or [], cur.get("board") or []
    changes = {str(sq): cell for sq, cell in enumerate(board1) if sq >= len(board0) or board0[sq] != cell}
    changed = {k: v for k, v in cur.items() if k != "board" and prev.get(k) != v}
    return {**facts, "n": n, "player": player, "notation": notation, "changes": changes, "set": changed}


def replay_of_record(record: GameRecord, source: str) -> dict[str, Any]:
    """The full replay of an imported record, with its game facts (`ClientError` if the server cannot replay it)."""
    try:
        adapter = get_adapter(record.game)
        game = make_game(record.game, **record.options)  # the engine's own options, as the record holds them
    except (GameError, TypeError, ValueError) as exc:
        raise ClientError("bad_record", f"this record cannot be replayed here: {exc}", 422) from None
    try:
        rep = build_replay(adapter, game, record.state_json(), None)
        if rep["in_setup"] and not record.actions:
            raise RecordError("the record has no moves and no start position: there is nothing to show")
        record.replay(check=True)  # also the record's own notation and outcome must agree with the rules
    except RecordError as exc:
        raise ClientError("bad_record", f"{source}: {exc}", 422) from None
    options = dict(record.options)
    rep["game"] = {
        "id": None,
        "game": record.game,
        "variant": options.get("variant"),
        "options": options,
        "players": list(record.players),
        "outcome": rep["outcome"],
        "move_count": len(rep["steps"]),
        "source": source,
        "status": "over" if rep["outcome"] else "record",
    }
    rep["perspective"] = None
    rep["setups"] = {}
    return rep


def gzip_json(data: Any, accept_encoding: str | None) -> tuple[bytes, dict[str, str]]:
    """JSON bytes, gzipped when the client takes gzip and the body is worth it (a replay compresses ~20x)."""
    body = json.dumps(data, separators=(",", ":")).encode("utf-8")
    if len(body) > 4096 and "gzip" in (accept_encoding or "").lower():
        return gzip.compress(body, 5), {"content-encoding": "gzip", "vary": "accept-encoding"}
    return body, {"vary": "accept-encoding"}
