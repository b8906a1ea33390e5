"""Stratego LOTR in the terminal: one person against a computer agent, or two at one keyboard (hot-seat)
(`fogofwar play --variant lotr-... [--hotseat]`).

The person sees only what the rules let their seat see: the drawing is made from
`state.observation(human)`, never from the full state, until the game is over and the whole
board is revealed. Own pieces show a short name and their rank (`Gan 10`, `Orc  3`, ` Fort `);
an enemy piece whose character is unknown is drawn as `?` (`?'` once it has moved, so it is no
Fortress and no Flag), and a known one carries a `*` (`Naz 8*`), so the drawing reads the same
without colours. The Forbidden Zones are `~~~~~~`; in Game 3 Mount Doom is ` DOOM `.

Moves are written `E4-E5` (`E4xE5` for an attack); the powers of Games 2 and 3 in their notation
(`fly E4-E8`, `detect C6>A7`, `bow F5>F7`, `steed E4-F5`, `rage E4-E5`, `axe E4-E5>D6,F6`, `stop`);
`moves` lists every legal one. A move the rules refuse is answered with the engine's reason.

The session reuses the classic terminal game (`fogofwar.games.stratego.ui.console.TerminalGame`) for reading input,
the computer's turns and saving the record; exit codes are the same (0 played to its end, 1
abandoned or record not saved, 2 bad options, 130 interrupted).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from fogofwar.core.agents import make_agent
from fogofwar.core.console_session import PlaySettings, own_extras, refuse
from fogofwar.core.protocol import GameError, InvalidSetupError
from fogofwar.games.lotr.agents.heuristic import lotr_setup
from fogofwar.games.lotr.observation import LotrView, lotr_view
from fogofwar.games.lotr.powers import POWER_BASE, STOP, decode
from fogofwar.games.lotr.roster import EVIL, FLAG, FORTRESS, GOOD, SIDE_NAMES, SPY, Army, Kind
from fogofwar.games.lotr.rules import (
    CAPTURED_MODES,
    GAME_MODES,
    GAME_TITLES,
    POWER_NAMES,
    VARIANT_ALIASES,
    LotrGame,
    LotrState,
)
from fogofwar.games.lotr.rules import random_setup as lotr_random_setup
from fogofwar.games.lotr.setup import format_setup, sample_names, sample_setup, setup_rows
from fogofwar.games.lotr.setup import parse_setup as parse_letters
from fogofwar.grid.board import NUM_SQUARES, SIZE, parse_square, square_name
from fogofwar.grid.console import COMMANDS_HELP, MOVE_PROMPT, GridTerminalGame, grid_board_text

SIDE_STYLES = ("bold white on grey30", "bold black on wheat1")
"""Evil's grey pieces, Good's beige pieces (LOTR-ARMY-1)."""
SIDE_TEXT_STYLES = ("bold grey50", "bold dark_goldenrod")
ZONE_STYLE = "bright_blue"
DOOM_STYLE = "bold white on red3"
EMPTY_STYLE = "dim"

"""`--variant` names of the three games."""
SIDES = {"evil": EVIL, "grey": EVIL, "gray": EVIL, "red": EVIL, "e": EVIL, "good": GOOD, "beige": GOOD, "blue": GOOD}
SIDES["g"] = GOOD

REPEAT_PROMPT = "Your Uruk-Hai on {square} may attack again ({example}) or 'stop': "
SETUP_PROMPT = "Your setup (a setup string, or: random, sample, sample:NAME, auto, help, quit): "
LEGEND = "? unknown enemy  ?' unknown, has moved  Naz 8* known enemy  [ ] last move  ~~~~~~ Forbidden Zone"
DOOM_LEGEND = "  DOOM Mount Doom"
POWER_HELP = {
    "fly": "fly E4-E8      jump in a line over pieces and zones, land on the first free square",
    "sense_enemy": "detect C6>A7   strike an enemy up to two squares away in any direction (no risk)",
    "long_bow": "bow F5>F7      shoot an enemy one or two squares along a line or diagonal (no risk)",
    "dwarf_axe": "axe E4-E5>D6,F6  step, then strike 1-3 enemies around the landing square",
    "swift_steed": "steed E4-F5    two steps at once (steed E4xE6 ends in an attack)",
    "repeat_attack": "stop           after a won attack the Uruk-Hai may attack again, or stop",
    "rage": "rage E4-E5     step, then attack every enemy around; the Berserker falls",
}

CellData = Any
"""One cell of an observation's "board": None, "zone", or {"owner", "kind", "name", "rank", "moved", "revealed"}."""


# --- names ---------------------------------------------------------------------------------------


@cache
def short_names(army: Army) -> dict[str, str]:
    """Three-letter names of the characters of one army, unique within it: 'Gan', 'Naz', 'Kni'."""
    out: dict[str, str] = {}
    for k in army.kinds:
        letters = "".join(ch for ch in k.name if ch.isalpha())
        short = letters[:3].capitalize()
        n = 3
        while short in out.values() and n < len(letters):
            n += 1
            short = (letters[:2] + letters[n - 1]).capitalize()
        out[k.key] = short
    return out


def rank_mark(rank: str) -> str:
    """How a rank label is written in a cell: '10', '3', 'S'; '' for Fortresses and Flags."""
    return {"spy": "S", "fortress": "", "flag": ""}.get(rank, rank)


def piece_words(kind: Kind, rank: str | None = None, article: bool = True) -> str:
    """'Gandalf (10)', 'an Orc (3)', 'Eowyn (spy)', 'a Fortress', 'the Flag'; without the article after
    a possessive ('your Orc (3)'). `rank` overrides the printed one (Game 3 raises Evil's ranks)."""
    label = rank or {FLAG: "flag", SPY: "spy", FORTRESS: "fortress"}.get(kind.rank, str(kind.rank))
    if kind.rank == FLAG:
        return "the Flag" if article else "Flag"
    head = kind.name
    if article and kind.count > 1:
        head = ("an " if kind.name[0] in "AEIOU" else "a ") + kind.name
    return head if kind.rank == FORTRESS else f"{head} ({label})"


def bare_name(kind: Kind) -> str:
    return kind.name if kind.count == 1 and kind.rank != FLAG else f"{'the ' if kind.rank == FLAG else ''}{kind.name}"


# --- drawing ----------------------------------------------------------------------------------


def cell_content(cell: CellData, sq: int, me: int, game: LotrGame) -> tuple[str, str]:
    """The six characters drawn for one square, and their style."""
    if cell == "zone":
        if game.mode == "ring" and sq == game.doom:
            return " DOOM ", DOOM_STYLE
        return "~~~~~~", ZONE_STYLE
    if cell is None:
        return "  .   ", EMPTY_STYLE
    owner = int(cell["owner"])
    style = SIDE_STYLES[owner]
    if game.mode == "ring" and sq == game.doom:
        style = DOOM_STYLE
    kind = cell.get("kind")
    if kind is None:
        return ("  ?'  " if cell["moved"] else "  ?   "), style
    rank = str(cell["rank"])
    enemy = owner != me
    if rank in ("fortress", "flag"):
        text = (" Fort" if rank == "fortress" else " Flag") + ("*" if enemy else " ")
    elif enemy:
        text = f"{short_names(game.army(owner))[kind]:<3}{rank_mark(rank):>2}*"
    else:
        text = f"{short_names(game.army(owner))[kind]:<3}{rank_mark(rank):>3}"
    if not enemy and cell.get("revealed"):
        style += " underline"  # the enemy knows this piece (colour terminals only)
    return text, style


def board_text(cells: Sequence[CellData], me: int, game: LotrGame, highlight: frozenset[int] = frozenset()) -> Text:
    """The board as `me` sees it from their chair: their own side at the bottom (Good sees it turned)."""
    return grid_board_text(lambda sq: cell_content(cells[sq], sq, me, game), me != EVIL, 8, highlight)


def revealed_cells(state: LotrState) -> list[CellData]:
    """Observation-style cells with every piece shown: for the end of the game only."""
    game = state.game
    cells: list[CellData] = []
    for sq in range(NUM_SQUARES):
        piece = state.piece_at(sq)
        if piece is None:
            cells.append("zone" if sq in game.forbidden else None)
            continue
        owner, key, strength, moved, _ = piece
        kind = game.army(owner).kinds[game.army(owner).index(key)]
        label = {FLAG: "flag", SPY: "spy", FORTRESS: "fortress"}.get(kind.rank, str(strength))
        cells.append({"owner": owner, "kind": key, "name": kind.name, "rank": label, "moved": moved, "revealed": True})
    return cells


# --- what a move did --------------------------------------------------------------------------


def describe_move(event: Mapping[str, Any], me: int, before: Sequence[CellData], game: LotrGame) -> str:
    """One line (or a few) saying what an action did, from `me`'s point of view.

    `before` is `me`'s view of the board before the action, to tell what was known then.
    """
    mover = int(event["player"])
    mine = mover == me
    enemy = SIDE_NAMES[1 - me].capitalize()
    whose = "Your" if mine else f"{enemy}'s"
    armies = (game.army(EVIL), game.army(GOOD))

    def kind(owner: int, key: Any) -> Kind:
        army = armies[owner]
        if all(k.key != key for k in army.kinds):  # a piece of the other army (Frodo onto Mount Doom)
            army = armies[1 - owner]
        return army.kinds[army.index(str(key))]

    src = str(event["from"])
    dst = str(event.get("to", ""))
    src_cell = before[parse_square(src)]
    known_before = isinstance(src_cell, dict) and src_cell.get("kind") is not None
    if event.get("stop"):
        return f"{whose} Uruk-Hai on {src} stops attacking."
    attacker = event.get("attacker")
    a_kind = kind(mover, attacker) if attacker else None
    a_words = piece_words(a_kind, event.get("attacker_rank"), article=False) if a_kind else "piece"
    a_noun = piece_words(a_kind, event.get("attacker_rank")) if a_kind else "a piece"
    power = event.get("power")
    if power in ("sense_enemy", "long_bow", "rage", "dwarf_axe"):
        verb = {
            "sense_enemy": "used Detect Enemy",
            "long_bow": "shot with the Longbow",
            "rage": f"stepped {src}-{dst} and flew into a Rage",
            "dwarf_axe": f"stepped {src}-{dst} and swung the Dwarven Axe",
        }[power]
        parts = []
        for hit in event.get("targets") or []:
            t_kind = kind(1 - mover, hit["defender"])
            fate = {
                "captured": "captured",
                "survived": "it survives",
                "immune": "unharmed",
                "both_lost": "captured, and the attacker falls too",
            }[str(hit["result"])]
            parts.append(f"{hit['square']} {piece_words(t_kind, hit.get('defender_rank'))}: {fate}")
        line = f"{whose} {a_words} {verb}" + (f" — {'; '.join(parts)}" if parts else "")
        if power in ("rage", "dwarf_axe") and event.get("attacker_survived") is False:
            line += f"; the {bare_name(kind(mover, attacker))} is gone"
        return line + "." + _ring_words(event, me)
    defender = event.get("defender")
    if defender is None:  # a move: plain, a Knight's run, a Fly, a Swift Steed, onto Mount Doom
        if power == "fly":
            line = f"{whose} {a_words} flew {src}-{dst}."
        elif power == "swift_steed":
            line = f"{whose} {a_words} rode {src}-{dst}."
        elif mine:
            what = f" your {_cell_words(src_cell, game)}" if known_before else ""
            line = f"You moved{what} {src}-{dst}."
        elif attacker and not known_before:
            line = f"{enemy} moved {src}-{dst}: that piece is {a_noun}."
        else:
            known = f" its {_cell_words(src_cell, game)}" if known_before else ""
            line = f"{enemy} moved{known} {src}-{dst}."
        return line + _ring_words(event, me)
    d_kind = kind(1 - mover, defender)
    d_words = piece_words(d_kind, event.get("defender_rank"), article=False)
    d_noun = piece_words(d_kind, event.get("defender_rank"))
    dst_cell = before[parse_square(dst)]
    dst_known = isinstance(dst_cell, dict) and dst_cell.get("kind") is not None
    result = str(event.get("result"))
    verb = {"swift_steed": "rode and attacked", "repeat_attack": "attacked again"}.get(str(power), "attacked")
    if mine:
        target = f"{d_words} on {dst}" if dst_known else f"unknown piece on {dst}: it was {d_noun}"
        head = f"Your {a_words} {verb} {enemy}'s {target}"
        tail = {
            "attacker_won": "you captured it",
            "defender_won": f"your {bare_name(kind(mover, attacker))} is lost",
            "both_lost": "both pieces are lost",
            "both_stayed": "neither piece falls; both stay",
        }[result]
    else:
        if known_before:
            head = f"{enemy}'s {a_words} from {src} {verb} your {d_words} on {dst}"
        else:
            head = f"{enemy}'s unknown piece from {src} {verb} your {d_words} on {dst}: it was {a_noun}"
        tail = {
            "attacker_won": f"your {bare_name(d_kind)} is lost",
            "defender_won": f"{enemy} lost it",
            "both_lost": "both pieces are lost",
            "both_stayed": "neither piece falls; both stay",
        }[result]
    if result == "both_stayed":
        tail += " (Frodo's Invisibility)"
    return f"{head} — {tail}." + _ring_words(event, me)


def _cell_words(cell: CellData, game: LotrGame) -> str:
    army = game.army(int(cell["owner"]))
    return piece_words(army.kinds[army.index(str(cell["kind"]))], str(cell["rank"]), article=False)


def _ring_words(event: Mapping[str, Any], me: int) -> str:
    ring = event.get("ring")
    if ring == "destroyed":
        n = len(event.get("removed") or [])
        return f" Frodo reached Mount Doom: the Ring is destroyed and Evil loses {n} pieces!"
    if ring == "taken":
        return " Frodo is captured: Evil holds the Ring, and every Evil piece with a number gains one rank!"
    return ""


# --- setups -----------------------------------------------------------------------------------


def in_words(text: str) -> bool:
    """Whether a setup string names its pieces in words ('Gan Ara ...'), not in letters ('GAL...')."""
    tokens = text.replace("/", " ").replace(",", " ").split()
    return len(tokens) > 4 and any(len(t) > 1 for t in tokens)


def parse_setup(text: str, game: LotrGame, player: int) -> dict[int, int]:
    """Read a setup string in letters (LOTR-SETUP-3, as the web app writes it) or, as this terminal read
    them first, in words (`parse_words`). `InvalidSetupError` says what is wrong."""
    return parse_words(text, game, player) if in_words(text) else parse_letters(text, game, player)


def parse_words(text: str, game: LotrGame, player: int) -> dict[int, int]:
    """Read a setup string in words: 4 rows separated by '/', the front row first, each row 10 pieces
    separated by spaces, left to right as seen from your chair; a piece is its short name ('Gan')
    or its key ('gandalf'), in any case. `InvalidSetupError` says what is wrong."""
    army = game.army(player)
    names = {v.lower(): k for k, v in short_names(army).items()} | {k.key: k.key for k in army.kinds}
    rows = [r.split() for r in text.replace(",", " ").split("/")]
    squares = setup_rows(game, player)
    if len(rows) != len(squares):
        raise InvalidSetupError(f"a setup string has {len(squares)} rows separated by '/', this one has {len(rows)}")
    placement: dict[int, int] = {}
    for i, (tokens, row) in enumerate(zip(rows, squares, strict=True)):
        if len(tokens) != len(row):
            raise InvalidSetupError(f"row {i + 1} of the setup string has {len(tokens)} pieces; it needs {len(row)}")
        for token, sq in zip(tokens, row, strict=True):
            key = names.get(token.lower())
            if key is None:
                raise InvalidSetupError(f"{token!r} is not a {SIDE_NAMES[player]} piece (type 'help' for the names)")
            placement[sq] = army.index(key)
    return placement


def format_words(placement: Mapping[int, int], game: LotrGame, player: int) -> str:
    """A placement as a setup string in words (`parse_words`)."""
    army = game.army(player)
    shorts = short_names(army)
    return " / ".join(" ".join(shorts[army.kinds[placement[sq]].key] for sq in row) for row in setup_rows(game, player))


def letter_words(army: Army) -> str:
    """The letters of a setup string: 'G Gandalf, A Aragorn, ...'."""
    return ", ".join(f"{k.letter} {k.name}" for k in army.kinds)


def roster_words(army: Army, game: LotrGame) -> str:
    shorts = short_names(army)
    parts = []
    for k in army.kinds:
        rank = {FLAG: "flag", SPY: "spy", FORTRESS: "fortress"}.get(k.rank, str(k.rank))
        powers = [
            POWER_NAMES[p] for p in k.powers if game.mode != "classic" and (p != "invisibility" or game.mode == "ring")
        ]
        extra = f", {' + '.join(powers)}" if powers else ""
        parts.append(f"{shorts[k.key]} {k.name}{f' x{k.count}' if k.count > 1 else ''} ({rank}{extra})")
    return ", ".join(parts)


# --- the game session -------------------------------------------------------------------------


class LotrTerminalGame(GridTerminalGame):
    """One Stratego LOTR game between a person at the terminal and a computer agent."""

    side_styles = SIDE_TEXT_STYLES
    setup_prompt = SETUP_PROMPT
    late_setups = ("ask", "random", "auto")

    game: LotrGame
    state: LotrState

    def title(self) -> str:
        return f"Stratego, The Lord of the Rings: {GAME_TITLES[self.game.mode]}"

    def seat_name(self, seat: int) -> str:
        return SIDE_NAMES[seat]

    def intro(self) -> str:
        captured = f"Captured pieces: {self.game.captured_mode}."
        if self.hotseat:
            return f"{super().intro()} {captured}"
        first = "you move first" if self.human == EVIL else "Evil moves first"
        return (
            f"You play the Forces of {self.me.capitalize()} ({first}) against {self.opponent_words()}. "
            f"{captured}{self.seed_text}"
        )

    # -- setup
    def resolve_setup(self, spec: str) -> dict[int, int]:
        """A placement {square: kind} for the person's seat from 'random', 'sample[:NAME]', 'auto' or a setup
        string (the words of classic Stratego's terminal, and 'auto', the computer's way to set up)."""
        text = spec.strip()
        word = text.lower()
        if word == "random":
            return lotr_random_setup(self.game, self.human, self.setup_rng)
        if word == "auto":
            return lotr_setup(self.game, self.human, self.setup_rng)
        if word == "sample" or word.startswith("sample:"):
            return sample_setup(self.game, self.human, text.partition(":")[2].strip() or None)
        return parse_setup(text, self.game, self.human)

    def setup_help(self) -> str:
        g = self.game
        army = g.army(self.human)
        samples = sample_names(self.human)
        example = format_setup(sample_setup(g, self.human), g, self.human)
        return "\n".join(
            [
                f"Set up the Forces of {self.me.capitalize()}: {roster_words(army, g)}.",
                "A setup string is 4 rows separated by '/', the front row (nearest the enemy) first, each row 10 "
                "letters, left to right as you see the board from your chair, one per character: "
                f"{letter_words(army)}. (Rows of short names separated by spaces, 'Gan Ara ...', are read too.)",
                f"  Example: {example}",
                f"Or type random (anywhere), sample or sample:NAME (samples for {self.me}: {', '.join(samples)}), "
                "or auto (the computer's way: the Flag on the back row between Fortresses, ...).",
            ]
        )

    def setup_words(self, placement: Mapping[int, Any]) -> str:
        return format_setup(placement, self.game, self.human)

    # -- turns
    def human_turn(self) -> None:
        self.show_position()
        state = self.state
        legal = state.legal_actions()
        pending = state.pending
        if pending >= 0:
            attacks = [a for a in legal if a != STOP]
            example = state.action_to_string(attacks[0]) if attacks else "stop"
            prompt = REPEAT_PROMPT.format(square=square_name(pending), example=example)
        else:
            step = SIZE if self.human == EVIL else -SIZE  # one square towards the enemy, for the example
            moves = [a for a in legal if a < POWER_BASE]
            forward = [a for a in moves if a % 100 - a // 100 == step]
            example = state.action_to_string((forward or moves or legal)[0])
            powers = [a for a in legal if a >= POWER_BASE and a != STOP]
            if powers:
                example += f" or {state.action_to_string(powers[0])}"
            prompt = MOVE_PROMPT.format(example=example)
        self.read_move(prompt)

    def parse_move(self, line: str) -> int:
        return self.state.string_to_action(line)

    def describe(self, event: Mapping[str, Any], before: Sequence[CellData]) -> str:
        return describe_move(event, self.human, before, self.game)

    # -- showing things
    def help_text(self) -> str:
        g = self.game
        lines = [
            "Moves: the square a piece stands on, then the square it goes to: B4-B5 (also 'B4 B5' or 'b4b5'; "
            "'B4xB5' for an attack, but the x is optional). Files are A-K (there is no J), rows 1-10: see the "
            "edges of the board.",
            "Pieces step one square up, down, left or right; the Knights of Rohan and the Warg Riders (2) run any "
            "distance in a line (a run of more than one square shows them); Fortresses and the Flag never move; "
            "nobody enters a Forbidden Zone (~~~~~~).",
            "Moving onto an enemy attacks it: the higher rank wins (10 is the strongest), equal ranks both fall, "
            "the spy (Eowyn, Wormtongue) takes the 10 when it attacks, only the 3s (Soldiers of Gondor, Orcs) take "
            "Fortresses. Take the enemy Flag, or leave the enemy no move, to win. No piece moves between the same "
            "two squares on three turns in a row.",
        ]
        if g.mode != "classic":
            mine = {p for k in g.army(self.human).kinds for p in k.powers}
            lines.append("Powers (a power is the whole turn and shows the piece):")
            for power, words in POWER_HELP.items():
                holders = [k.name for k in g.army(self.human).kinds if power in k.powers]
                if power in mine:
                    lines.append(f"  {words}  [{', '.join(holders)}]")
        if g.mode == "ring":
            lines.append(
                f"Game 3: Frodo may step onto Mount Doom ({square_name(g.doom)}) from "
                f"{' or '.join(square_name(s) for s in g.doom_gates)}: the Ring is destroyed and Evil loses its "
                "4-8s and every Fortress. Only the Witch-king and the Nazgul can capture Frodo."
            )
        lines += [
            f"Your army: {roster_words(g.army(self.human), g)}.",
            f"Enemy army: {roster_words(g.army(self.computer), g)}.",
            f"Board: {LEGEND}{DOOM_LEGEND if g.mode == 'ring' else ''}",
            "  In colour, your pieces the enemy has seen are underlined.",
            COMMANDS_HELP,
        ]
        return "\n".join(lines)

    def _highlight(self, data: LotrView) -> frozenset[int]:
        last = data.get("last_move")
        if not last:
            return frozenset()
        squares = {parse_square(last["from"])}
        if last.get("to"):
            squares.add(parse_square(last["to"]))
        for hit in last.get("targets") or []:
            squares.add(parse_square(hit["square"]))
        return frozenset(squares)

    def show_position(self) -> None:
        data = lotr_view(self.state.observation(self.human).data)
        g = self.game
        self.console.print()
        self.console.print(board_text(data["board"], self.human, g, self._highlight(data)))
        self.say(LEGEND + (DOOM_LEGEND if g.mode == "ring" else ""), style="dim")
        self.show_captured(data)
        ring = data.get("ring")
        if ring:
            status = {
                "carried": "Frodo still carries it",
                "destroyed": "destroyed on Mount Doom",
                "taken": "taken by Evil with Frodo",
            }[str(ring["status"])]
            self.say(f"The Ring: {status} (Mount Doom is {ring['mount_doom']}).")
        turn = "your turn" if data["to_move"] == self.human else f"{self.them}'s turn"
        self.tell(f"Move {int(data['move_count']) + 1}: {turn} ({self.me}).", style="bold")

    def show_captured(self, data: LotrView) -> None:
        for owner in (self.human, self.computer):
            army = self.game.army(owner)
            shorts = short_names(army)
            who = f"{SIDE_NAMES[owner].capitalize()}{' (you)' if owner == self.human else ''}"
            lost = data["captured"][owner]
            count = int(data["captured_count"][owner])
            if lost is None:
                self.say(f"{who} lost {count} piece{'s' if count != 1 else ''} (which ones is hidden)")
                continue
            order = {k.key: -k.rank for k in army.kinds}
            names = " ".join(shorts[key] for key in sorted(lost, key=lambda key: order[key])) or "nothing"
            self.say(f"{who} lost: {names}")

    def show_moves(self) -> None:
        state = self.state
        legal = state.legal_actions()
        by_piece: dict[int, list[int]] = {}
        for action in legal:
            if action == STOP:
                continue
            if action < POWER_BASE:
                src = action // 100
            else:
                pa = decode(action)
                src = pa.src if pa is not None else -1
            by_piece.setdefault(src, []).append(action)
        board = state.observation(self.human).data["board"]
        self.say(f"Your legal moves ({len(legal)}):")
        for src, actions in sorted(by_piece.items()):
            cell = board[src]
            what = _cell_words(cell, self.game) if isinstance(cell, dict) and cell.get("kind") else "piece"
            plain = " ".join(state.action_to_string(a) for a in actions if a < POWER_BASE)
            powers = [state.action_to_string(a) for a in actions if a >= POWER_BASE]
            self.say(f"  {square_name(src)} {what}: {plain}".rstrip())
            if powers:
                shown = powers if len(powers) <= 12 else [*powers[:12], f"... ({len(powers) - 12} more)"]
                self.say(f"      powers: {', '.join(shown)}")
        if STOP in legal:
            self.say("  stop (end the Repeat Attack)")

    def show_final_board(self, data: Mapping[str, Any]) -> None:
        view = lotr_view(data)
        self.console.print(board_text(revealed_cells(self.state), self.human, self.game, self._highlight(view)))
        self.show_captured(view)


def run_lotr_terminal_game(
    variant: str = "classic",
    opponent: str = "heuristic",
    color: str = "evil",
    setup: str = "ask",
    seed: int | None = None,
    captured: str = "free",
    save: Path | None = None,
    console: Console | None = None,
    read: Callable[[], str] | None = None,
    hotseat: bool = False,
) -> int:
    """Play one Stratego LOTR game at the terminal; return the exit code (see the module docstring).

    `variant` is classic, powers or ring (Games 1-3; lotr-classic, lotr-powers, lotr-ring too); `color`
    evil (moves first; also red/grey) or good (also blue/beige); `captured` the captured-piece mode (free,
    prisoner, secret, hidden); `setup` ask, random, sample, sample:NAME, auto or a setup string; `hotseat` two
    people at this keyboard."""
    console = console or Console()
    try:
        name = variant.strip().lower()
        mode = VARIANT_ALIASES.get(name, name)
        if mode not in GAME_MODES:
            raise GameError(f"unknown Stratego LOTR variant {variant!r}: choose classic, powers or ring")
        side = color.strip().lower()
        if side not in SIDES:
            raise GameError(f"unknown side {color!r}: choose evil (moves first) or good")
        if captured not in CAPTURED_MODES:
            raise GameError(f"unknown captured-piece mode {captured!r}: choose {', '.join(CAPTURED_MODES)}")
        game = LotrGame(mode, captured_mode=captured)
        agent = None if hotseat else make_agent(opponent)
    except (GameError, ValueError) as exc:
        return refuse(console, str(exc))
    human = EVIL if hotseat else SIDES[side]  # hot-seat: Evil sets up and moves first
    session = LotrTerminalGame(console, game, human, agent, setup, seed, save, read)
    return session.run_checked(setup)


__all__ = [
    "play_in_terminal",
    "LotrTerminalGame",
    "board_text",
    "describe_move",
    "format_setup",
    "format_words",
    "parse_setup",
    "parse_words",
    "run_lotr_terminal_game",
    "short_names",
]


def play_in_terminal(settings: PlaySettings) -> int:
    """`fogofwar play lotr`: the registry's terminal for Stratego LOTR (its own option: captured)."""
    own = own_extras(settings, "Stratego LOTR", {"captured": "free"})
    return run_lotr_terminal_game(
        settings.variant or "classic",
        settings.opponent or "search",
        settings.color or "evil",
        settings.setup,
        settings.seed,
        captured=own["captured"],
        save=settings.save,
        console=settings.console,
        read=settings.read,
        hotseat=settings.hotseat,
    )
