"""Stratego in the terminal: one person against a computer agent, or two people taking turns at one
keyboard (hot-seat, `--hotseat`) (the `fogofwar play` command).

The person sees only what the rules let their seat see: the drawing is made from
`state.observation(human)`, never from the full state, until the game is over and the
whole board is revealed. Enemy pieces whose rank is unknown are drawn as `?` (`?'` once
they have moved, so they are neither a bomb nor the flag); an enemy piece whose rank is
known carries a `*` after it, so the drawing reads the same without colours.

In hot-seat a "pass the keyboard" screen stands between the two seats (the screen is cleared
first), and the next player is told what the other did, as their own seat saw it.

Exit codes of `run_terminal_game`: 0 the game was played to its end (a resignation
included), 1 the game was abandoned (`quit`, end of input) or the record could not be
saved, 2 bad options, 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from fogofwar.core.agents import Agent, make_agent
from fogofwar.core.console_session import PlaySettings, own_extras, refuse
from fogofwar.core.protocol import GameError
from fogofwar.games.stratego.pieces import Rank, RankNotation
from fogofwar.games.stratego.rules import DEFAULT_TWO_SQUARES, StrategoGame, StrategoState
from fogofwar.games.stratego.setup import SAMPLES, format_setup, parse_setup, random_setup, sample_setup
from fogofwar.games.stratego.variants import Variant
from fogofwar.grid.board import LAKES, PLAYER_NAMES, SETUP_SQUARES, SIZE, parse_square, square_name
from fogofwar.grid.console import COMMANDS_HELP, MOVE_PROMPT, CellData, GridTerminalGame, grid_board_text

SIDE_STYLES = ("bold white on red3", "bold white on blue3")
SIDE_TEXT_STYLES = ("bold red", "bold blue")
LAKE_STYLE = "bright_blue"
EMPTY_STYLE = "dim"

SETUP_PROMPT = "Your setup (a setup string, or: random, sample, sample:NAME, help, quit): "

LEGEND = "? unknown enemy  ?' unknown, has moved  5* known enemy  [ ] last move  ~~~ lake"


# --- drawing ------------------------------------------------------------------------------------


def rank_symbol(rank_name: str, notation: RankNotation) -> str:
    return Rank[rank_name.upper()].symbol(notation)


def rank_words(rank_name: str, notation: RankNotation) -> str:
    """'captain (5)', 'spy (S)', 'bomb', 'flag'."""
    rank = Rank[rank_name.upper()]
    if rank in (Rank.BOMB, Rank.FLAG):
        return rank.name.lower()
    return f"{rank.name.lower()} ({rank.symbol(notation)})"


def with_article(rank_name: str, notation: RankNotation) -> str:
    return ("the " if Rank[rank_name.upper()] is Rank.FLAG else "a ") + rank_words(rank_name, notation)


def cell_content(cell: CellData, me: int, notation: RankNotation) -> tuple[str, str]:
    """The three characters drawn for one square, and their style."""
    if cell == "lake":
        return "~~~", LAKE_STYLE
    if cell is None:
        return " . ", EMPTY_STYLE
    owner = int(cell["owner"])
    style = SIDE_STYLES[owner]
    if owner == me:  # underlined once the enemy knows its rank (colour terminals only)
        return f"{rank_symbol(cell['rank'], notation):>2} ", style + (" underline" if cell["revealed"] else "")
    if cell["rank"] is None:
        return (" ?'" if cell["moved"] else " ? "), style
    return f"{rank_symbol(cell['rank'], notation):>2}*", style


def board_text(
    cells: Sequence[CellData], me: int, notation: RankNotation = "classic", highlight: frozenset[int] = frozenset()
) -> Text:
    """The board as `me` sees it from their chair: their own side at the bottom.

    Red sees file A on the left and row 1 at the bottom; blue sees the board turned
    round, row 10 at the bottom and file K on the left. Squares in `highlight` (the last
    move) are drawn in brackets.
    """
    return grid_board_text(lambda sq: cell_content(cells[sq], me, notation), me != 0, 5, highlight)


def revealed_cells(state: StrategoState) -> list[CellData]:
    """Observation-style cells with every rank shown: for the end of the game only."""
    cells: list[CellData] = []
    for sq in range(SIZE * SIZE):
        piece = state.piece_at(sq)
        if piece is None:
            cells.append("lake" if sq in LAKES else None)
        else:
            owner, rank, moved, _ = piece
            cells.append({"owner": owner, "rank": rank.name.lower(), "moved": moved, "revealed": True})
    return cells


def describe_move(
    event: Mapping[str, Any], me: int, before: Sequence[CellData], notation: RankNotation = "classic"
) -> str:
    """One line saying what a move did, from `me`'s point of view.

    `before` is `me`'s view of the board before the move, to tell what was known then.
    >>> describe_move({"player": 0, "from": "E4", "to": "E5"}, 0, [None] * 100)
    'You moved E4-E5.'
    """
    mover = int(event["player"])
    src, dst = str(event["from"]), str(event["to"])
    mine = mover == me
    enemy = PLAYER_NAMES[1 - me]
    src_cell = before[parse_square(src)]
    dst_cell = before[parse_square(dst)]
    src_rank = src_cell.get("rank") if isinstance(src_cell, dict) else None
    dst_rank = dst_cell.get("rank") if isinstance(dst_cell, dict) else None
    attacker = event.get("attacker")
    defender = event.get("defender")
    if defender is None:  # a plain move
        if mine:
            what = f" your {rank_words(src_rank, notation)}" if src_rank else ""
            return f"You moved{what} {src}-{dst}."
        if attacker and not src_rank:
            return f"{enemy.capitalize()} moved {src}-{dst}: that piece is {with_article(attacker, notation)}."
        known = f" its {rank_words(src_rank, notation)}" if src_rank else ""
        return f"{enemy.capitalize()} moved{known} {src}-{dst}."
    result = str(event.get("result"))
    att_words = rank_words(str(attacker), notation)
    def_words = rank_words(str(defender), notation)
    if mine:
        head = f"Your {att_words} attacked {enemy}'s "
        if dst_rank:
            head += f"{def_words} on {dst}"
        else:
            head += f"unknown piece on {dst}: it was {with_article(str(defender), notation)}"
        tail = {
            "attacker_won": "you captured it",
            "defender_won": f"your {Rank[str(attacker).upper()].name.lower()} is lost",
            "both_lost": "both pieces are lost",
        }[result]
    else:
        if src_rank:
            head = f"{enemy.capitalize()}'s {att_words} from {src} attacked your {def_words} on {dst}"
        else:
            head = (
                f"{enemy.capitalize()}'s unknown piece from {src} attacked your {def_words} on {dst}: "
                f"it was {with_article(str(attacker), notation)}"
            )
        tail = {
            "attacker_won": f"your {Rank[str(defender).upper()].name.lower()} is lost",
            "defender_won": f"{enemy} lost it",
            "both_lost": "both pieces are lost",
        }[result]
    return f"{head} — {tail}."


def roster_words(variant: Variant, notation: RankNotation) -> str:
    parts = []
    for rank, n in variant.roster:
        name = rank.name.lower()
        symbol = "" if rank in (Rank.BOMB, Rank.FLAG) else f" ({rank.symbol(notation)})"
        parts.append(f"{n} {name}{'s' if n != 1 else ''}{symbol}")
    return ", ".join(parts)


def strength_words(notation: RankNotation) -> str:
    """Which number is the stronger in `notation`: classic counts down from the marshal (1), modern up to it (10)."""
    if notation == "modern":
        return "the higher number (10 = marshal, the strongest; 2 = scout, the weakest)"
    return "the lower number (1 = marshal, the strongest; 9 = scout, the weakest)"


def help_text(notation: RankNotation) -> str:
    """The help of the move prompt, true for `notation`: one paragraph a line (the terminal wraps them)."""
    ranks = [r for r in sorted(Rank, key=lambda r: -int(r)) if r not in (Rank.BOMB, Rank.FLAG)]
    table = ", ".join(f"{r.symbol(notation)} {r.name.lower()}" for r in ranks) + ", B bomb, F flag"
    return "\n".join(
        [
            "Moves: the square a piece stands on, then the square it goes to: B4-B5 (also 'B4 B5' or 'b4b5'; "
            "'B4xB5' for an attack, but the x is optional). Files are A-K (there is no J), rows 1-10: see the "
            "edges of the board.",
            "Pieces step one square up, down, left or right; scouts run any distance in a straight line; bombs "
            "and the flag never move; no piece enters a lake (~~~).",
            f"Moving onto an enemy piece attacks it: the stronger rank wins, which is {strength_words(notation)}; "
            "equal ranks both fall, the spy beats the marshal only when it attacks, and only a miner defuses a "
            "bomb.",
            "Take the enemy flag, or leave the enemy no move, to win. A piece may not shuttle between the same two "
            "squares too many times in a row (two-squares rule).",
            f"Ranks, strongest first: {table}.",
            f"Board: {LEGEND}",
            "  In colour, your pieces whose rank the enemy has seen are underlined.",
            COMMANDS_HELP,
        ]
    )


def setup_help(variant: Variant, notation: RankNotation) -> str:
    samples = SAMPLES.get(variant.name, {})
    example = next(iter(samples.values()), "")
    lines = [
        f"Set up your army for {variant.title}:",
        f"  {roster_words(variant, notation)}.",
        "A setup string is 4 rows separated by '/', the front row (nearest the enemy) first, each row 10 squares "
        "left to right as you see the board from your own chair: 1-9, S, B, F, or '.' for an empty square. Setup "
        "strings always use the classic ranks: 1 = marshal ... 9 = scout"
        + ("." if notation == "classic" else ", whatever the notation of the board (here 10 = marshal)."),
    ]
    if example:
        lines.append(f"  Example: {example}")
    names = ", ".join(samples) if samples else "none"
    lines.append(f"Or type random, sample or sample:NAME (samples for {variant.name}: {names}).")
    return "\n".join(lines)


# --- the game session -------------------------------------------------------------------------


class TerminalGame(GridTerminalGame):
    """One Stratego game at the terminal (`GridTerminalGame` plays the turns): the board, the notation,
    the setups."""

    side_styles = SIDE_TEXT_STYLES
    setup_prompt = SETUP_PROMPT
    state: StrategoState

    def __init__(
        self,
        console: Console,
        game: StrategoGame,
        human: int,
        agent: Agent | None,
        setup: str,
        seed: int | None,
        notation: RankNotation,
        save: Path | None,
        read: Callable[[], str] | None = None,
    ) -> None:
        super().__init__(console, game, human, agent, setup, seed, save, read)
        self.game: StrategoGame = game
        self.notation: RankNotation = notation

    @property
    def variant(self) -> Variant:
        return self.game.variant

    def opponent_words(self) -> str:
        """'the computer 'search', Strong (Elo 1376)': a level shows its label and measured rating."""
        words = super().opponent_words()
        if self.agent is None:
            return words
        from fogofwar.games.stratego.agents.levels import level_named

        try:
            level = level_named(self.agent.name)
        except KeyError:
            return words
        return f"{words}, {level.title()}"

    # -- the whole game
    def title(self) -> str:
        return f"Stratego: {self.variant.title}"

    def intro(self) -> str:
        if self.hotseat:
            return super().intro()
        return (
            f"You play {self.me} ({'you move first' if self.human == 0 else 'red moves first'}) "
            f"against {self.opponent_words()}.{self.seed_text}"
        )

    # -- setup
    def resolve_setup(self, spec: str) -> dict[int, Rank]:
        """A placement for the person's seat from 'random', 'sample[:NAME]' or a setup string."""
        text = spec.strip()
        word = text.lower()
        if word == "random":
            if self.variant.composition == "at_most":  # classicfree: the computer may have set up here first
                free = [sq for sq in SETUP_SQUARES[self.human] if self.state.piece_at(sq) is None]
                pieces = [rank for rank, n in self.variant.roster for _ in range(n)]
                self.setup_rng.shuffle(pieces)
                pieces.sort(key=lambda rank: rank is not Rank.FLAG)  # the flag first, so that it always fits
                squares = self.setup_rng.sample(free, min(len(free), len(pieces)))
                return dict(zip(squares, pieces, strict=False))
            return random_setup(self.variant, self.human, self.setup_rng)
        if word == "sample" or word.startswith("sample:"):
            name = text.partition(":")[2].strip() or None
            return sample_setup(self.variant, self.human, name)
        return parse_setup(text, self.variant, self.human)

    def setup_help(self) -> str:
        return setup_help(self.variant, self.notation)

    def setup_words(self, placement: Mapping[int, Any]) -> str:
        """A placement as the setup string the person could type."""
        return format_setup(placement, self.variant, self.human)

    def human_turn(self) -> None:
        self.show_position()
        legal = self.state.legal_actions()
        step = SIZE if self.human == 0 else -SIZE  # one square towards the enemy, for the example
        forward = [a for a in legal if a % 100 - a // 100 == step]
        example = self.state.action_to_string((forward or legal)[0])
        self.read_move(MOVE_PROMPT.format(example=example))

    def help_text(self) -> str:
        return help_text(self.notation)

    def parse_move(self, line: str) -> int:
        return self.state.string_to_action(line, self.notation)

    def describe(self, event: Mapping[str, Any], before: Sequence[CellData]) -> str:
        """What the last move did, in words, from the person's side."""
        return describe_move(event, self.human, before, self.notation)

    # -- showing things
    def _highlight(self, data: Mapping[str, Any]) -> frozenset[int]:
        last = data.get("last_move")
        if not last:
            return frozenset()
        return frozenset((parse_square(last["from"]), parse_square(last["to"])))

    def show_position(self) -> None:
        data = self.state.observation(self.human).data
        self.console.print()
        self.console.print(board_text(data["board"], self.human, self.notation, self._highlight(data)))
        self.say(LEGEND, style="dim")
        self.show_captured(data["captured"])
        turn = "your turn" if data["to_move"] == self.human else f"{self.them}'s turn"
        self.tell(f"Move {int(data['move_count']) + 1}: {turn} ({self.me}).", style="bold")

    def show_captured(self, captured: Sequence[Sequence[str]]) -> None:
        for owner in (self.human, self.computer):
            lost = sorted(captured[owner], key=lambda name: -int(Rank[name.upper()]))
            who = f"{PLAYER_NAMES[owner].capitalize()}{' (you)' if owner == self.human else ''}"
            symbols = " ".join(rank_symbol(name, self.notation) for name in lost) or "nothing"
            self.say(f"{who} lost: {symbols}")
        left: dict[Rank, int] = dict(self.variant.roster)
        for name in captured[self.computer]:
            left[Rank[name.upper()]] -= 1
        pieces = " ".join(r.symbol(self.notation) for r, n in left.items() for _ in range(n))
        self.say(f"{self.them.capitalize()} still has: {pieces}")

    def show_moves(self) -> None:
        by_piece: dict[int, list[int]] = {}
        for action in self.state.legal_actions():
            by_piece.setdefault(action // 100, []).append(action)
        board = self.state.observation(self.human).data["board"]
        self.say(f"Your legal moves ({len(self.state.legal_actions())}):")
        for src, actions in sorted(by_piece.items()):
            cell = board[src]
            what = rank_words(cell["rank"], self.notation) if isinstance(cell, dict) and cell["rank"] else "piece"
            moves = " ".join(self.state.action_to_string(a) for a in actions)
            self.say(f"  {square_name(src)} {what}: {moves}")

    def show_final_board(self, data: Mapping[str, Any]) -> None:
        """Every piece, both sides' revealed, and what each side lost."""
        cells = revealed_cells(self.state)
        self.console.print(board_text(cells, self.human, self.notation, self._highlight(data)))
        self.show_captured(data["captured"])

    def seat_name(self, seat: int) -> str:
        """A seat's name in the game's words (red/blue; LOTR: evil/good)."""
        return PLAYER_NAMES[seat]


def run_terminal_game(
    variant: str = "classic",
    opponent: str = "random",
    color: str = "red",
    setup: str = "ask",
    seed: int | None = None,
    notation: str = "classic",
    two_squares: int = DEFAULT_TWO_SQUARES,
    save: Path | None = None,
    console: Console | None = None,
    read: Callable[[], str] | None = None,
    hotseat: bool = False,
) -> int:
    """Play one game at the terminal; return the exit code (see the module docstring).

    `read()` reads one line of input after the prompt has been printed (default: `input`,
    which raises EOFError when the input ends). `hotseat`: two people at this keyboard, no computer
    (`opponent` and `color` are not used). Stratego LOTR has its own (`fogofwar.games.lotr.ui.console`).
    """
    console = console or Console()
    side = color.strip().lower()
    sides = {"red": 0, "r": 0, "blue": 1, "b": 1}
    try:
        if side not in sides:
            raise GameError(f"unknown color {color!r}: choose red (moves first) or blue")
        if notation not in ("classic", "modern"):
            raise GameError(f"unknown notation {notation!r}: choose classic (1 = marshal) or modern (10 = marshal)")
        game = StrategoGame(variant, two_squares=two_squares)
        agent = None if hotseat else make_agent(opponent)
    except (GameError, ValueError) as exc:
        return refuse(console, str(exc))
    human = 0 if hotseat else sides[side]  # hot-seat: red sets up and moves first
    note: RankNotation = "modern" if notation == "modern" else "classic"
    session = TerminalGame(console, game, human, agent, setup, seed, note, save, read)
    return session.run_checked(setup)


def play_in_terminal(settings: PlaySettings) -> int:
    """`fogofwar play stratego`: the registry's terminal for Stratego (its own options: notation, two_squares)."""
    own = own_extras(settings, "Stratego", {"notation": "classic", "two_squares": DEFAULT_TWO_SQUARES})
    return run_terminal_game(
        variant=settings.variant or "classic",
        opponent=settings.opponent or "search",
        color=settings.color or "red",
        setup=settings.setup,
        seed=settings.seed,
        notation=own["notation"],
        two_squares=own["two_squares"],
        save=settings.save,
        console=settings.console,
        read=settings.read,
        hotseat=settings.hotseat,
    )
