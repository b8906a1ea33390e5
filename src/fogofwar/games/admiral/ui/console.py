"""Admiral in the terminal (`fogofwar play admiral`): a person against a computer agent, or two people
taking turns at one keyboard (`--hotseat`).

Everything a seat is shown comes from `state.observation(seat)`: its own units always, the enemy's once
the deployment is over (the face-down cards stay hidden until then), every die roll, and the opponent's
attack orders only once both have committed. Dice (chance nodes) are rolled by the program from the seed
and printed. In hot-seat mode a "pass the keyboard" screen stands between the two seats whenever the
screen shows something the other seat may not know.

`--solo` plays the solo mode: the person against "Admiral Stratego" (the agent `stratego`) under the solo
rules at the computer's seat (`AdmiralGame(solo_seat=...)`, docs/rules/admiral-solo.md); after each of its
decisions the program prints the reason the agent gives (and the rule it follows, a SOLO-... id, once the
person asks for rule ids with `rules`).

A decision is typed in the engine's notation (`move:Fletcher>C3/movement`, `Fletcher@C1`, `pass`, ...) or
picked by number from `list`. Exit codes of `run_admiral_terminal_game`: 0 the game was played to its end
(a resignation included), 1 abandoned (`quit`, end of input) or the record could not be saved, 2 bad
options, 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from rich.columns import Columns
from rich.console import Console
from rich.table import Table
from rich.text import Text

from fogofwar.core.agents import Agent, agent_game_options, make_agent, take_explanations
from fogofwar.core.console_session import Abandon, ConsoleSession, PlaySettings, own_extras, refuse
from fogofwar.core.match import decide, forfeit, roll
from fogofwar.core.protocol import CHANCE, GameError, IllegalActionError, NotationError, Termination
from fogofwar.core.randomness import play_streams
from fogofwar.games.admiral.data_model import BOARD_SIZE, Ruleset, UnitCard
from fogofwar.games.admiral.observation import AdmiralView, CellView, UnitView
from fogofwar.games.admiral.rules import PLAYER_NAMES, AdmiralGame, AdmiralState
from fogofwar.games.admiral.state_model import Phase

SIDE_STYLES = ("bold white on red3", "bold white on blue3")
SIDE_TEXT_STYLES = ("bold red", "bold blue")
TERRAIN_MARKS: Mapping[str, tuple[str, str]] = {
    "island": ("#####", "bold green"),
    "shallows": (":::::", "cyan"),
    "fog_bank": ("~~~~~", "white"),
    "sandbank": (".....", "yellow"),
}
EMPTY = ("  .  ", "dim")
FILES = "ABCDEFGH"
LEGEND = (
    "Was = a unit (first letters of its name; lower case ~ = submerged), + = a submarine below, * = smoke; "
    "##### island  ::::: shallows  ~~~~~ fog bank  ..... sandbank"
)
PROMPT = "{who}: your decision (notation, a number from 'list', or: list, board, help, resign, quit): "
SEAT_WORDS = {"south": 0, "s": 0, "red": 0, "north": 1, "n": 1, "blue": 1}

ObsData = AdmiralView


_Abandon = Abandon  # the name this module raises


# --- drawing ---------------------------------------------------------------------------------------------


def short_names(names: Sequence[str]) -> dict[str, str]:
    """Three-character marks for unit names, unique within `names`: 'Washington' -> 'Was'.

    >>> short_names(["Fletcher", "Fleming", "I-19"])
    {'Fletcher': 'Fle', 'Fleming': 'Fl2', 'I-19': 'I19'}
    """
    out: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        mark = "".join(ch for ch in name if ch.isalnum())[:3]
        n = 2
        while mark in used:
            mark = f"{mark[:2]}{n}" if n < 10 else f"{mark[0]}{n}"
            n += 1
        used.add(mark)
        out[name] = mark
    return out


def cell_content(cell: CellView, marks: Mapping[str, str]) -> tuple[str, str]:
    """The five characters drawn for one square, and their style."""
    units = cell["units"]
    smoke = "*" if cell["smoke"] else " "
    if units:
        surface = [u for u in units if not u["submerged"]]
        shown = surface[0] if surface else units[0]
        mark = marks.get(shown["name"], shown["class"])
        if shown["submerged"]:
            mark = mark.lower() + "~"
        elif len(units) > 1:
            mark += "+"
        else:
            mark += " "
        return f"{mark}{smoke}".rjust(5), SIDE_STYLES[shown["owner"]]
    terrain = cell["terrain"]
    if terrain:
        text, style = TERRAIN_MARKS.get(terrain, ("?????", "magenta"))
        return (text[:4] + "*" if smoke == "*" else text), style
    return ("  .* " if smoke == "*" else EMPTY[0]), EMPTY[1]


def board_text(cells: Sequence[CellView], viewer: int, marks: Mapping[str, str]) -> Text:
    """The 8x8 board from `viewer`'s chair: South (seat 0) sees row 1 at the bottom and file A on the left,
    North the board turned round."""
    rows = range(BOARD_SIZE - 1, -1, -1) if viewer == 0 else range(BOARD_SIZE)
    cols = list(range(BOARD_SIZE)) if viewer == 0 else list(range(BOARD_SIZE - 1, -1, -1))
    files = "   " + "".join(f"   {FILES[c]}  " for c in cols)
    text = Text(files + "\n", style="bold")
    for row in rows:
        text.append(f"{row + 1:>2} ", style="bold")
        for col in cols:
            content, style = cell_content(cells[row * BOARD_SIZE + col], marks)
            text.append(" ")
            text.append(content, style=style)
        text.append(f"  {row + 1}\n", style="bold")
    text.append(files, style="bold")
    return text


def _batteries(card: UnitCard, submerged: bool) -> str:
    side = card.side(submerged) if card.is_submarine else card.front
    return " ".join(f"{b.name} {b.coefficient}/r{b.range}" + ("x2" if b.slots == 2 else "") for b in side.batteries)


def cards_table(data: ObsData, ruleset: Ruleset, marks: Mapping[str, str], viewer: int) -> Table:
    """Every unit `viewer` may see: structure (now/max), armour, batteries (coefficient/range), torpedoes
    loaded, critical markers, squadrons aboard; the viewer's fleet first."""
    table = Table(title="Cards in play", title_justify="left", show_edge=False, pad_edge=False, box=None)
    for heading in ("side", "unit", "class", "where", "struct", "arm", "batteries", "torp", "criticals", "air"):
        table.add_column(heading, no_wrap=heading not in ("batteries", "criticals"))
    on_board: dict[tuple[int, str], tuple[str, UnitView]] = {}
    for sq, cell in enumerate(data["board"]):
        for u in cell["units"]:
            row, col = divmod(sq, BOARD_SIZE)
            on_board[(u["owner"], u["name"])] = (f"{FILES[col]}{row + 1}", u)
    for p in (viewer, 1 - viewer):
        fleet = data["fleets"][p]
        style = SIDE_TEXT_STYLES[p]
        names: list[tuple[str, str]] = [(name, where) for (o, name), (where, _) in on_board.items() if o == p]
        for listed, label in ((fleet["reserve"], "reserve"), (fleet["to_place"], "to place"), (fleet["sunk"], "sunk")):
            names += [(n, label) for n in listed or []]
        if not names and p != viewer:
            table.add_row(Text(PLAYER_NAMES[p], style=style), "(face down)", "", "", "", "", "", "", "", "")
            continue
        for name, where in names:
            card = ruleset.unit(name)
            unit = on_board[(p, name)][1] if (p, name) in on_board else None
            submerged = unit["submerged"] if unit is not None else False
            structure = unit["structure"] if unit is not None else (0 if where == "sunk" else card.structure)
            torpedoes = unit["torpedoes"] if unit is not None else card.torpedo_mounts
            crits = ", ".join(str(ch) for ch, _ in unit["criticals"]) if unit is not None else ""
            squadrons = unit["squadrons"] if unit is not None else None
            air = " ".join(f"{k[0].upper()}{v}" for k, v in squadrons.items() if v) if squadrons else ""
            armour = card.side(submerged).armour if card.is_submarine else card.armour
            table.add_row(
                Text(PLAYER_NAMES[p], style=style),
                f"{marks.get(name, '?')} {name}",
                card.unit_class,
                where + (" (sub)" if submerged else ""),
                f"{structure}/{card.structure}",
                str(armour),
                _batteries(card, submerged),
                f"{torpedoes}/{card.torpedo_mounts}" if card.torpedo_mounts else "-",
                crits or "-",
                air or "-",
            )
    return table


def dice_text(data: ObsData, viewer: int) -> Text:
    """Each fleet's action dice: unused faces plain, spent ones struck through with their purpose."""
    text = Text()
    for p in (viewer, 1 - viewer):
        dice = data["fleets"][p]["dice"]
        text.append(f"{PLAYER_NAMES[p]} dice: ", style=SIDE_TEXT_STYLES[p])
        if not dice:
            text.append("none rolled", style="dim")
        for d in dice:
            face = d["face"]
            if d.get("unit"):  # solo mode: the unit the die is assigned to and what it is spent as (SOLO-TAB)
                face += f" {d['unit']}" + (f"={d['as']}" if d.get("as") else "")
            if d["used"] is None:
                text.append(f"[{face}] ")
            else:
                text.append(f"[{face}: {d['used']}] ", style="dim strike")
        text.append("\n")
    text.rstrip()
    return text


def _public(data: ObsData) -> dict[str, object]:
    return {k: v for k, v in data.items() if k != "player"}


# --- the session -----------------------------------------------------------------------------------------


class AdmiralTerminal(ConsoleSession):
    """One game of Admiral at the terminal: `humans` are the seats typed at the keyboard, `agent` plays
    the other seat (None in hot-seat mode)."""

    def __init__(
        self,
        console: Console,
        game: AdmiralGame,
        humans: Sequence[int],
        agent: Agent | None,
        seed: int | None,
        save: Path | None = None,
        read: Callable[[], str] | None = None,
    ) -> None:
        super().__init__(console, seed, save, read)
        self.game = game
        self.state: AdmiralState = game.new_initial_state()
        self.humans = tuple(humans)
        self.agent = agent
        self.agent_rng, self.chance_rng = play_streams(seed, "agent", "chance")
        names = [n for f in game.fleets for n in f.names]
        self.marks = short_names(names)
        self.viewer: int | None = None
        """The seat whose view is on the screen (hot-seat mode)."""
        self._rolls: list[str] = []
        self._roll_phase = ""
        self._reported = 0

    def who(self, seat: int) -> str:
        if self.hotseat:
            return PLAYER_NAMES[seat]
        return f"{PLAYER_NAMES[seat]} (you)" if seat in self.humans else f"{PLAYER_NAMES[seat]} (computer)"

    # -- the whole game
    def run(self) -> int:
        opponents = "two players at one keyboard" if self.hotseat else f"you against the computer '{self.agent_name}'"
        if self.solo:
            opponents = f"you against Admiral Stratego (the computer '{self.agent_name}')"
        self.console.rule("Admiral")
        fleets = " vs ".join(f"{PLAYER_NAMES[p]}: {f.faction}" for p, f in enumerate(self.game.fleets))
        cap = f", turn cap {self.game.max_turns}" if self.game.max_turns else ""
        self.say(f"{opponents}; {fleets}; layout {self.game.options['layout']}{cap}.{self.seed_text}")
        if self.solo:
            self.say(
                f"Solo mode: you play {PLAYER_NAMES[self.humans[0]]} against Admiral Stratego. You deploy first, "
                "from your right-hand corner along your edge row; Stratego's cards are dealt from a shuffled "
                "deck; Stratego always wins the initiative and moves second; its units act slowest first, each "
                "with an Admiral die and one die rolled when it acts (docs/rules/admiral-solo.md). Its reasons "
                "are shown after each of its decisions; 'rules' adds the ids of the solo rules they follow."
            )
        elif not self.hotseat:
            self.say(f"You play {PLAYER_NAMES[self.humans[0]]}; South deploys first.")
        return self.play_through(self.turns)

    def turns(self) -> None:
        if self.agent is not None:
            self.agent.start(self.game, 1 - self.humans[0], self.agent_rng)
        while not self.state.is_terminal():
            seat = self.state.current_player()
            if seat == CHANCE:
                self.chance_turn()
            elif seat in self.humans:
                self.flush_rolls()
                self.human_turn(seat)
            else:
                self.flush_rolls()
                self.computer_turn(seat)
            self.show_report()
        self.flush_rolls()

    @property
    def solo(self) -> bool:
        """Solo mode: the computer's seat plays the solo rules (SOLO-...)."""
        return self.game.solo_seat is not None and self.game.solo_seat not in self.humans

    @property
    def agent_name(self) -> str:
        return self.agent.name if self.agent is not None else "human"

    # -- the three kinds of decision
    def chance_turn(self) -> None:
        action = roll(self.state, self.chance_rng)
        phase = self.state.phase
        if phase != self._roll_phase:
            self.flush_rolls()
            self._roll_phase = phase
        text = self.state.action_to_string(action).removeprefix("roll:")
        if phase == "solo_roll":
            solo = self.state.view(0)["solo"]
            acting = solo["acting"] if solo is not None else None
            text = f"{text} for {acting}"
        self._rolls.append(text)
        self.state.apply(action)
        if phase == "solo_roll":
            self.flush_rolls()

    def flush_rolls(self) -> None:
        if self._rolls:
            what = {
                "initiative": "initiative",
                "action_dice": "action dice",
                "air_roll": "air combat",
                "solo_roll": "Admiral Stratego's die (SOLO-DICE-2)",
                "deploy": "Admiral Stratego's deck (SOLO-SET-2)",
            }
            label = what.get(self._roll_phase, self._roll_phase)
            head = f"{label} deals" if self._roll_phase == "deploy" else f"Dice rolled ({label})"
            self.say(f"{head}: {', '.join(self._rolls)}", style="magenta")
            if self._roll_phase == "initiative":
                init = self.state.view(0)["initiative"]
                rolls = "; ".join(f"{PLAYER_NAMES[p]} {', '.join(r) or '-'}" for p, r in enumerate(init["rolls"]))
                winner = init["winner"]
                won = f": {PLAYER_NAMES[winner]} wins the initiative" if winner is not None else ""
                self.say(f"Initiative: {rolls}{won}", style="magenta")
        self._rolls = []
        self._roll_phase = ""

    def computer_turn(self, seat: int) -> None:
        assert self.agent is not None
        decision = decide(self.agent, self.state, seat, f"the computer ({self.agent.name})")
        if isinstance(decision, str):
            forfeit(self.state, seat, decision)
            return
        self.play(seat, decision)
        self.show_explanations(seat)

    def show_explanations(self, seat: int) -> None:
        """The agent's reasons for what it just did (`core.agents.take_explanations`), with the rule's id once
        the person asked for rule ids (`rules`)."""
        for e in take_explanations(self.agent):
            rule = f" [{e.rule}]" if self.rule_ids else ""
            self.tell(f"  why{rule}: {e.text}", style=SIDE_TEXT_STYLES[seat])

    def human_turn(self, seat: int) -> None:
        self.pass_keyboard(seat)
        self.show_position(seat)
        prompt = PROMPT.format(who=self.who(seat))
        while True:
            line = self.ask(prompt)
            word = line.lower()
            if not line:
                continue
            legal = self.state.legal_actions()
            if word in ("help", "?", "h"):
                self.show_help()
            elif word in ("list", "l", "moves") or word.startswith("list "):
                self.show_list(legal, line.partition(" ")[2].strip())
            elif word in ("board", "b"):
                self.show_position(seat)
            elif word == "resign":
                self.state.end_by(Termination.RESIGNATION, 1 - seat, f"{PLAYER_NAMES[seat]} resigned")
                return
            elif word in ("quit", "exit"):
                raise _Abandon("you quit")
            elif self.session_command(word):
                continue
            elif line.isdigit():
                n = int(line)
                if not 1 <= n <= len(legal):
                    self.error(f"No action numbered {n}: there are {len(legal)} (type list to see them).")
                    continue
                self.play(seat, legal[n - 1])
                return
            else:
                try:
                    action = self.state.string_to_action(line)
                except (NotationError, IllegalActionError) as exc:
                    self.error(f"Not playable: {exc}")
                    continue
                self.play(seat, action)
                return

    def play(self, seat: int, action: int) -> None:
        text = self.state.action_to_string(action)
        hidden = self.state.phase in (Phase.DEPLOY, Phase.ATTACK) and (self.hotseat or seat not in self.humans)
        self.state.apply(action)
        if hidden and seat not in self.humans:
            what = "deploys a unit" if text and "@" in text and ":" not in text else "makes a secret decision"
            self.tell(f"{PLAYER_NAMES[seat]} {what}.", style=SIDE_TEXT_STYLES[seat])
        else:
            self.tell(f"{self.who(seat)}: {text}", style=SIDE_TEXT_STYLES[seat])

    # -- hot seat
    def pass_keyboard(self, seat: int) -> None:
        """Hot-seat: before `seat` decides, hide the other seat's secrets if they may be on the screen."""
        if not self.hotseat:
            self.viewer = seat
            return
        previous = self.viewer
        self.viewer = seat
        if previous is None or previous == seat:
            return
        mine = _public(self.state.view(previous))
        theirs = _public(self.state.view(seat))
        if mine == theirs:
            return  # nothing on the screen that the next seat may not see
        self.pass_screen(PLAYER_NAMES[seat], PLAYER_NAMES[previous])

    # -- showing things
    def show_position(self, seat: int) -> None:
        data = self.state.view(seat)
        self.console.print()
        self.console.print(board_text(data["board"], seat, self.marks))
        self.say(LEGEND, style="dim")
        self.console.print(cards_table(data, self.game.ruleset, self.marks, seat))
        self.console.print(dice_text(data, seat))
        for p in (seat, 1 - seat):
            orders = data["fleets"][p]["orders"]
            if orders:
                self.say(f"{PLAYER_NAMES[p]} orders: {'; '.join(orders)}", style=SIDE_TEXT_STYLES[p])
            elif orders is None:
                self.say(f"{PLAYER_NAMES[p]} orders: secret until both have committed", style="dim")
        for sortie in data["air"]:
            where = f" at {sortie['square']}" if sortie["square"] else ""
            self.say(f"In the air: {PLAYER_NAMES[int(sortie['owner'])]} {sortie['type']} ({sortie['role']}){where}")
        if data["pending_critical"]:
            self.say(f"A critical marker goes on {data['pending_critical']['unit']}.")
        first = data["first_player"]
        first_text = f", {PLAYER_NAMES[first]} acts first" if first is not None else ""
        self.console.print(
            Text(
                f"Turn {data['turn']}, phase {data['phase']}{first_text}: {self.who(seat)} to decide "
                f"({self.state._EXPECTED.get(self.state.phase, self.state.phase)}).",
                style="bold",
            )
        )

    def show_list(self, legal: Sequence[int], needle: str = "") -> None:
        items = [
            f"{i:>3} {self.state.action_to_string(a)}"
            for i, a in enumerate(legal, start=1)
            if needle.lower() in self.state.action_to_string(a).lower()
        ]
        self.say(f"Legal actions ({len(legal)}{', matching ' + repr(needle) if needle else ''}): type a number")
        self.console.print(Columns([Text(item) for item in items], column_first=True, padding=(0, 3)))

    def show_help(self) -> None:
        self.say(
            "\n".join(
                [
                    "Type an action in the engine's notation, or its number from 'list':",
                    "  deploy Fletcher@C1, move:Fletcher>C3/movement, repair:Fletcher/movement,artillery,",
                    "  fire:Washington.main>Yamato/artillery, torpedo:Fletcher>Yukikaze/torpedo, pass, commit,",
                    "  first:South, enter:done, critical:movement (docs/rules/admiral.md has the rules).",
                    "Commands: list (numbered legal actions; 'list Fletcher' filters), board, help, rules (show the",
                    "  rule ids in the messages from now on; 'rules off' hides them), why (the last refusal with its",
                    "  rule ids), resign, quit (leave the game unfinished). Dice are rolled by the program.",
                ]
            )
        )

    def show_report(self) -> None:
        report = self.state.view(0)["report"]
        if len(report) < self._reported:
            self._reported = 0
        for line in report[self._reported :]:
            self.say(f"  {line}", style="yellow")
        self._reported = len(report)

    def seat_name(self, seat: int) -> str:
        return PLAYER_NAMES[seat]

    def at_keyboard(self, seat: int) -> bool:
        return seat in self.humans

    def show_final(self) -> None:
        seat = self.humans[0]
        data = self.state.view(seat)
        self.console.print(board_text(data["board"], seat, self.marks))
        self.console.print(cards_table(data, self.game.ruleset, self.marks, seat))
        self.say(f"{self.state.turn} turns, {len(self.state.history)} actions (dice included).")


def run_admiral_terminal_game(
    opponent: str = "random",
    color: str = "south",
    seed: int | None = None,
    layout: str = "archipelago",
    max_turns: int | None = None,
    hotseat: bool = False,
    save: Path | None = None,
    console: Console | None = None,
    read: Callable[[], str] | None = None,
    solo: bool = False,
) -> int:
    """Play one game of Admiral at the terminal; return the exit code (see the module docstring).

    `color` is the person's seat: south (deploys first; also red) or north (also blue); ignored with
    `hotseat`. `read()` reads one line after the prompt (default `input`; EOFError ends the game).
    `solo`: the solo mode, against Admiral Stratego (`opponent` must then be stratego, its default here)."""
    console = console or Console()
    try:
        seat = SEAT_WORDS.get(color.strip().lower())
        if seat is None:
            raise GameError(f"unknown seat {color!r}: choose south (deploys first) or north")
        if solo and hotseat:
            raise GameError("--solo is a game against Admiral Stratego: it does not go with --hotseat")
        agent = None if hotseat else make_agent(opponent)
        seats: list[object] = [None, None]
        seats[1 - seat] = agent
        options = agent_game_options(seats, "admiral", {"layout": layout, "max_turns": max_turns})
        if solo and options.get("solo_seat") != 1 - seat:  # only an agent that asks for the solo rules
            raise GameError(f"the solo mode's opponent is Admiral Stratego (stratego), not {opponent!r}")
        game = AdmiralGame(**options)
    except (GameError, ValueError) as exc:
        return refuse(console, str(exc))
    humans = (0, 1) if hotseat else (seat,)
    return AdmiralTerminal(console, game, humans, agent, seed, save, read).run()


__all__ = [
    "play_in_terminal",
    "AdmiralTerminal",
    "board_text",
    "cards_table",
    "dice_text",
    "run_admiral_terminal_game",
    "short_names",
]


def play_in_terminal(settings: PlaySettings) -> int:
    """`fogofwar play admiral`: the registry's terminal for Admiral (its own options: layout, max_turns, solo).
    Admiral has no variant and no setup string: the fleets are deployed at the table."""
    own = own_extras(settings, "Admiral", {"layout": "archipelago", "max_turns": None, "solo": False})
    if settings.variant is not None:
        raise GameError("Admiral has no --variant; its terrain is --layout (open_sea, archipelago, strait)")
    if settings.setup != "ask":
        raise GameError("Admiral takes no --setup: the fleets are deployed at the table, one unit at a time")
    return run_admiral_terminal_game(
        opponent=settings.opponent or ("stratego" if own["solo"] else "random"),
        color=settings.color or "south",
        seed=settings.seed,
        layout=own["layout"],
        max_turns=own["max_turns"],
        hotseat=settings.hotseat,
        save=settings.save,
        console=settings.console,
        read=settings.read,
        solo=own["solo"],
    )
