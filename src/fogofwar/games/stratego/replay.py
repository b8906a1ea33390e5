"""Replay recorded Stratego games through the rules engine and report what the rules contradict."""

from __future__ import annotations

from dataclasses import dataclass, field

from fogofwar.core.protocol import GameError, IllegalActionError, Termination
from fogofwar.games.stratego.formats.gravon import RESULT_TYPES, VARIANT_OF_TYPE, GravonGame
from fogofwar.games.stratego.params import Repetition
from fogofwar.games.stratego.rules import DEFAULT_TWO_SQUARES, StrategoGame, StrategoState, check_setup
from fogofwar.games.stratego.variants import get_variant
from fogofwar.grid.board import PLAYER_NAMES


@dataclass
class ReplayReport:
    source: str
    variant: str | None
    moves: int = 0
    violations: list[str] = field(default_factory=list)
    skipped: str = ""
    not_played: str = ""
    """Why the record is no game at all (no setup and no move), else empty."""
    repetition: Repetition | None = None
    """The reading of the repetition rules the game was replayed under (STR-REP-8)."""
    state: StrategoState | None = None

    @property
    def ok(self) -> bool:
        return not self.violations


def replay_gravon(
    record: GravonGame,
    two_squares: int = DEFAULT_TWO_SQUARES,
    more_squares: bool = True,
    repetition: Repetition | None = None,
) -> ReplayReport:
    """Check every move of a Gravon game and, for rule-decided endings, its result (STR-END-*).

    `repetition` None: the reading Gravon applied at the game's date (`GravonGame.repetition`, STR-REP-8).
    A record with no setup and no move is no game: it is reported `not_played`, and nothing is checked."""
    variant = VARIANT_OF_TYPE.get(record.game_type)
    report = ReplayReport(record.source, variant)
    if not record.played:
        kind = "" if record.result_type is None else f" (result type {record.result_type})"
        report.not_played = f"no setup and no move: the game was never played{kind}"
        return report
    if variant is None:
        report.skipped = f"game type {record.game_type!r} has rules fogofwar does not play"
        return report
    try:
        pieces = record.pieces()
        squares = record.move_squares()
    except GameError as exc:
        report.violations.append(str(exc))
        return report
    v = get_variant(variant)
    for player in (0, 1):
        try:
            check_setup(v, player, {sq: rank for sq, owner, rank in pieces if owner == player})
        except GameError as exc:
            report.violations.append(f"setup: {exc}")
    report.repetition = era = record.repetition if repetition is None else repetition
    game = StrategoGame(variant, two_squares=two_squares, more_squares=more_squares, max_moves=0, repetition=era)
    state = game.state_from_position([(sq, o, int(r)) for sq, o, r in pieces], to_move=0)
    report.state = state
    for i, (src, dst) in enumerate(squares, 1):
        action = src * 100 + dst
        text = f"{record.moves[i - 1][0]}-{record.moves[i - 1][1]}"
        try:
            state.apply(action)
        except IllegalActionError as exc:
            report.violations.append(f"move {i} {text}: {exc}")
            return report
        report.moves += 1
    _check_result(record, state, report)
    return report


def _check_result(record: GravonGame, state: StrategoState, report: ReplayReport) -> None:
    kind = record.result_type
    if kind not in (0, 1, 2):
        return  # forfeit, agreed draw, clock: the game stopped at an arbitrary position (STR-REC-2)
    outcome = state.outcome()
    expected = RESULT_TYPES[kind]
    winner = None if record.winner is None else record.winner - 1
    if kind == 1:
        if outcome is None or outcome.termination is not Termination.FLAG_CAPTURED:
            report.violations.append(f"result says {expected}, but the last move takes no flag")
        elif outcome.winner != winner:
            by = PLAYER_NAMES[outcome.winner or 0]
            report.violations.append(f"result names player {record.winner} as winner of a flag capture by {by}")
    elif kind == 0:
        if outcome is None or outcome.termination is not Termination.NO_MOVES:
            to_move = PLAYER_NAMES[state.current_player()] if outcome is None else "nobody"
            report.violations.append(f"result says {expected}, but {to_move} to move still has legal moves")
        elif outcome.winner != winner:
            says = PLAYER_NAMES[outcome.winner or 0]
            report.violations.append(f"result names player {record.winner} as winner, the rules say {says}")
    elif outcome is None or outcome.termination is not Termination.NO_MOVES_EITHER:
        report.violations.append(f"result says {expected}, but the rules do not end the game so")
