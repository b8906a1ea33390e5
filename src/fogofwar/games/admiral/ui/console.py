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

A decision is typed in the engine's notation (`move:Fletcher>C3/movement`, `Fletcher@C1`, `pass`, ...),
picked by number from `list`, or one of the words the prompt offers (`pass`, `done`, `commit`, `decline`,
whatever their notation in the phase: `pass` is `air:pass` in the air phase). Everything shown is in words
(`AdmiralWords`: "Helena's main battery", "torpedo bombers", "Helena on D3"); `list` groups the legal
actions by unit and by kind. Exit codes of `run_admiral_terminal_game`: 0 the game was played to its end
(a resignation included), 1 abandoned (`quit`, end of input) or the record could not be saved, 2 bad
options, 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from fogofwar.core.agents import Agent, agent_game_options, make_agent, take_explanations
from fogofwar.core.console_session import Abandon, ConsoleSession, PlaySettings, own_extras, refuse, wrap_text
from fogofwar.core.match import decide, forfeit, roll
from fogofwar.core.protocol import CHANCE, GameError, IllegalActionError, NotationError, Termination
from fogofwar.core.randomness import play_streams
from fogofwar.games.admiral.data_model import BOARD_SIZE, UNIT_CLASSES, Ruleset, Symbol, UnitCard
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
HELP = "\n".join(
    [
        "Type the number of an action from 'list', or a word the prompt offers (pass, done, commit, decline), "
        "or the action in the engine's notation:",
        "  Fletcher@C1 (deploy), move:Fletcher>C3/movement, repair:Fletcher/movement,artillery, "
        "fire:Washington.main>Yamato/artillery, torpedo:Fletcher>Yukikaze/torpedo, first:South, enter:done, "
        "critical:movement, air:pass (docs/rules/admiral.md has the rules).",
        "Commands: list (the legal actions, numbered, by unit and by kind; 'list Fletcher' or 'list repair' "
        "shows those, 'list all' every one), board, help, rules (show the rule ids in the messages from now on; "
        "'rules off' hides them), why (the last refusal with its rule ids), resign, quit (leave the game "
        "unfinished). Dice are rolled by the program.",
        "Classes: BB battleship, CA heavy cruiser, CL light cruiser, DD destroyer, CV aircraft carrier, SS submarine.",
    ]
)
PROMPT = "{who}: your decision ({words}a number from 'list', or: list, board, help, resign, quit): "
SEAT_WORDS = {"south": 0, "s": 0, "red": 0, "north": 1, "n": 1, "blue": 1}

ObsData = AdmiralView


_Abandon = Abandon  # the name this module raises


# --- words: what the engine's identifiers mean, for the player ----------------------------------------------

SYMBOL_WORDS: Mapping[str, str] = {"anti_aircraft": "anti-aircraft", "depth_charge": "depth charge"}
PHASE_WORDS: Mapping[str, str] = {
    "deploy": "deploy a unit on your edge rows",
    "reserve": "bring a unit in from the reserve",
    "choose_first": "choose who acts first",
    "submarines": "place your submarine, submerged, in your half of the board",
    "movement": "move or repair a unit (or launch fighters from a carrier)",
    "reaction": "answer the enemy's repair",
    "attack": "give your units their attack orders (artillery, torpedoes, depth charges, special features)",
    "criticals": "choose where the critical marker goes",
    "launch": "launch squadrons: fighters to protect a ship, squadrons to attack later",
    "air": "an air attack by one of your carriers",
    "strike": "the squadrons of the air attack and their targets",
    "air_react": "special features against the air attack",
    "aa_pick": "the attacking squadron the anti-aircraft hit destroys",
    "escort_pick": "the attack squadron your next protecting fighter takes on",
}
"""What a person decides in each phase, in words (the bare words that also work are added: pass, done, ...)."""
PHASE_TITLES: Mapping[str, str] = {
    "choose_first": "first player",
    "submarines": "submarine",
    "air": "air attack",
    "air_react": "air reaction",
    "aa_pick": "anti-aircraft",
    "escort_pick": "escort",
    "criticals": "critical marker",
}
"""The phases' names in the turn line, where the engine's name is not a word."""
SHORT_WORDS = ("pass", "done", "commit", "decline")
"""Words the prompt offers that play an action whatever its notation (`pass` is `air:pass` in the air phase)."""
LIST_LINES = 40
"""A list of legal actions longer than this many lines is shown as an overview (`list NAME` shows the numbers)."""


NOTATION = re.compile(r"('[^']*'|\b(?!battery:)[a-z]+:[^\s,;)]+)")
"""What a message quotes as it is written: notation such as 'fire:Washington.main>Yamato/artillery' or 'A1'."""


def face_words(label: str) -> str:
    """A die face in words: 'movement+depth_charge' -> 'movement + depth charge'."""
    return " + ".join(SYMBOL_WORDS.get(s, s.replace("_", " ")) for s in label.split("+"))


def overview(lines: Mapping[str, Sequence[str]], most: int = 12) -> str:
    """The lines of a group of the list in a few words: 'to C2, D2, E3; repair' (the destinations of its moves
    once each, then its other lines; the items of a group without lines)."""
    parts: list[str] = []
    squares: list[str] = []
    for line, items in lines.items():
        if not line:
            parts += [item.partition(" ")[2] for item in items]
            continue
        move = re.match(r"(?:\w+, then )?to ([A-H][1-8])", line)
        if move is None:
            parts.append(line)
        elif move[1] not in squares:
            if not squares:
                parts.append("")  # where the moves go in the order of the lines
            squares.append(move[1])
    if squares:
        shown = squares[:most] + (["..."] if len(squares) > most else [])
        parts[parts.index("")] = "to " + ", ".join(shown)
    return "; ".join(parts[:most] + (["..."] if len(parts) > most else []))


def characteristic_words(what: str, features: Mapping[str, str]) -> str:
    """What a critical marker goes on (`UnitCard.characteristics`), in words: 'battery:main' -> 'main battery',
    'anti_aircraft' -> 'anti-aircraft', a special feature's key -> its name (`features`: key -> name)."""
    if what.startswith("battery:"):
        return f"{what.partition(':')[2]} battery"
    if what == "launch":
        return "launching aircraft"
    return features.get(what) or SYMBOL_WORDS.get(what, what.replace("_", " "))


@dataclass(frozen=True)
class ActionWords:
    """One legal action as `list` shows it and the log tells it."""

    group: str
    """The unit it is about (its name), or the kind of decision ('Air attacks')."""
    line: str
    """The line of its group it goes on ('to G5', 'main battery at Yamato'); '' for the group's own line."""
    item: str
    """What tells it apart on that line ('movement die', 'A1')."""
    sentence: str
    """The action in a sentence, after the deciding side's name ('Helena moves to C3 (movement die)')."""
    word: str = ""
    """The bare word that plays it (pass, done, commit, decline), if any."""


class AdmiralWords:
    """The engine's identifiers in the player's words: units, batteries ('Helena's main battery'), special
    features by their names in special_rules.toml, squadron types by their names in units.toml, die faces;
    and each action of the notation as `ActionWords`. The notation itself is unchanged: what `list` shows
    is for reading, what the person types is the engine's notation, a number or one of `SHORT_WORDS`."""

    def __init__(self, game: AdmiralGame) -> None:
        rs = game.ruleset
        self.units = {name: rs.unit(name) for f in game.fleets for name in f.names}
        self.fleets = tuple(frozenset(f.names) for f in game.fleets)
        self.features = {r.key: r.name for r in rs.special_rules}
        self.aircraft = {key: a.name.lower() for key, a in rs.aircraft.items()}
        batteries = {
            b.name for card in self.units.values() for s in (card.front, card.submerged) if s for b in s.batteries
        }

        def alternatives(words: Sequence[str] | set[str]) -> str:
            return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) or "(?!)"

        names, bats, keys = alternatives(set(self.units)), alternatives(batteries), alternatives(set(self.features))
        symbols = alternatives({s.value for s in Symbol})
        self._dotted = re.compile(rf"(?P<unit>{names})\.(?P<what>{bats}|{keys})\b")
        self._battery = re.compile(rf"\bbattery:(?P<bat>{bats})\b")
        self._placed = re.compile(rf"(?P<unit>{names})@(?P<sq>[A-H][1-8])\b")
        self._face = re.compile(rf"\b(?:{symbols})(?:\+(?:{symbols}))*\b")
        snake = {k for k in (*self.features, *self.aircraft) if "_" in k}  # 'obsolete' stays a word of the text
        self._key = re.compile(rf"\b(?:{alternatives(snake)})\b")

    # -- free text: reports, orders, refusals, the computer's reasons
    def text(self, text: str) -> str:
        """A message with the engine's identifiers in words ('Helena.main > Yamato (artillery+anti_aircraft)'
        -> "Helena's main battery at Yamato (artillery + anti-aircraft)"); notation quoted in it as an example
        to type ('fire:Washington.main>Yamato/artillery', anything 'in quotes') stays as it is."""
        parts = NOTATION.split(text)
        return "".join(part if i % 2 else self._prose(part) for i, part in enumerate(parts))

    def _prose(self, text: str) -> str:
        text = self._dotted.sub(lambda m: f"{m['unit']}'s {self.part(m['what'])}", text)
        text = self._battery.sub(lambda m: f"{m['bat']} battery", text)
        text = self._placed.sub(lambda m: f"{m['unit']} on {m['sq']}", text)
        text = self._key.sub(lambda m: self.features.get(m[0]) or self.aircraft[m[0]], text)
        text = self._face.sub(lambda m: face_words(m[0]), text)
        text = text.replace(" torpedo > ", " torpedoes at ").replace(" depth charges > ", " depth charges on ")
        text = text.replace(" > ", " at ")
        text = re.sub(r"(?<=[a-z])_(?=[a-z])", " ", text)
        return re.sub(r"\b([Aa]) (?=(?:admiral|artillery|anti-aircraft)\b)", r"\1n ", text)

    def part(self, what: str) -> str:
        """A battery or a feature of a unit: 'main' -> 'main battery', 'armoured_fighters' -> 'Armoured Fighters'."""
        return self.features.get(what) or f"{what} battery"

    def characteristic(self, what: str) -> str:
        return characteristic_words(what, self.features)

    def unit_heading(self, name: str, where: str) -> str:
        card = self.units.get(name)
        what = UNIT_CLASSES.get(card.unit_class, card.unit_class) if card is not None else ""
        return f"{name} ({', '.join(x for x in (what, where) if x)})"

    # -- actions
    def action(self, notation: str, player: int, critical_unit: str | None = None) -> ActionWords:
        """`notation` (`AdmiralState.action_to_string`) for the list and the log; `player` decides it."""
        head, _, rest = notation.partition(":")
        if not rest:  # pass, commit, decline, or a deployment (Name@C1)
            return self._simple(notation)
        if head in ("move", "repair", "fire", "torpedo", "dc"):
            body, _, face = rest.rpartition("/")
            return self._unit_action(head, body, face)
        if head == "enter":
            if rest == "done":
                return ActionWords("Or", "", "done: no more units from the reserve", "done with the reserve", "done")
            name, _, sq = rest.rpartition("@")
            return ActionWords(name, "enter from the reserve on", sq, f"{name} enters from the reserve on {sq}")
        if head == "air":
            if rest == "pass":
                return ActionWords("Or", "", "pass: no air attack", "makes no air attack", "pass")
            return ActionWords("Or", "", "done", "done", "done")
        kind = self.aircraft.get(rest.partition(">")[0], rest)
        if head == "first":
            return ActionWords("Who acts first", "", rest, f"chooses {rest} to act first")
        if head == "roll":
            return ActionWords("Dice", "", face_words(rest), f"rolls {face_words(rest)}")
        if head == "activate":
            unit, _, key = rest.rpartition(".")
            feature = self.features.get(key, key)
            if unit in self.fleets[player]:
                return ActionWords(unit, "special feature", feature, f"activates {feature} on {unit}")
            return ActionWords(
                "Red features on enemy units", "", f"{feature} on {unit}", f"activates {feature} on {unit}"
            )
        if head == "critical":
            what = self.characteristic(rest)
            on = f" on {critical_unit}" if critical_unit else ""
            whose = f"{critical_unit}'s " if critical_unit else ""
            return ActionWords(f"The critical marker{on}", "", what, f"puts the critical marker on {whose}{what}")
        if head == "launch":
            return ActionWords("Aircraft", "", f"launch from {rest}", f"launches squadrons from {rest}")
        if head == "protect":
            return ActionWords("A fighter to protect a ship", "", rest, f"sends a fighter to protect {rest}")
        if head == "airborne":
            return ActionWords("A squadron to launch for an attack later", "", kind, f"launches a {kind} squadron")
        if head == "strike":
            return ActionWords("Air attacks", "", f"attack with {rest}'s squadrons", f"{rest}'s squadrons attack")
        if head == "squadron":
            target = rest.partition(">")[2]
            name, _, sq = target.partition("@")
            item = f"{name} from {sq}" if sq else name
            return ActionWords(f"Send a {kind} against", "", item, f"sends a {kind} against {item}")
        if head == "aa":
            return ActionWords(
                "The squadron the anti-aircraft hit destroys", "", kind, f"the anti-aircraft hit destroys a {kind}"
            )
        if head == "intercept":
            return ActionWords(
                "The squadron your next protecting fighter takes on",
                "",
                kind,
                f"the next protecting fighter takes on a {kind}",
            )
        if head == "hold":
            return ActionWords(rest, "", "hold: move 0 squares", f"{rest} holds (moves 0 squares)")
        return ActionWords("Other", "", self.text(notation), self.text(notation))

    def _simple(self, notation: str) -> ActionWords:
        if notation == "pass":
            return ActionWords(
                "Or", "", "pass: decline to move (your movement results are lost)", "passes (declines to move)", "pass"
            )
        if notation == "commit":
            return ActionWords("Or", "", "commit: your attack orders are final", "commits its attack orders", "commit")
        if notation == "decline":
            return ActionWords("Or", "", "decline", "declines", "decline")
        name, _, sq = notation.rpartition("@")
        if not name:
            return ActionWords("Other", "", notation, notation)
        card = self.units.get(name)
        if card is not None and card.is_submarine:
            return ActionWords(name, "submerged on", sq, f"{name} is placed submerged on {sq}")
        return ActionWords(name, "deploy on", sq, f"{name} deploys on {sq}")

    def _unit_action(self, head: str, body: str, face: str) -> ActionWords:
        die = f"{face_words(face)} die"
        if head == "repair":
            name, _, edc = body.partition("+")
            faces = " and ".join(face_words(f) for f in face.split(","))
            line = "repair" + (" with Efficient Damage Control" if edc else "")
            return ActionWords(name, line, f"{faces} dice", f"{name} repairs ({faces} dice)")
        if head == "dc":
            return ActionWords(body, "depth charges", die, f"{body} drops depth charges ({die})")
        source, _, target = body.partition(">")
        if head == "torpedo":
            return ActionWords(
                source, f"torpedoes at {target}", die, f"{source} launches torpedoes at {target} ({die})"
            )
        if head == "fire":
            name, _, battery = source.rpartition(".")
            line = f"{battery} battery at {target}"
            return ActionWords(name, line, die, f"{name}'s {battery} battery fires at {target} ({die})")
        # move: Name[:dive|:surface]>C3[:dive|:surface][:draught|:smoke-v|:smoke-h]
        name, _, before = source.partition(":")
        square, *extras = target.split(":")
        line = f"to {square}"
        told = f"{name} moves to {square}"
        for extra in extras:
            if extra in ("dive", "surface"):
                line += f", then {extra}"
                told += f", then {extra}s"
            else:
                how = {
                    "draught": " across shallows (Shallow Draught)",
                    "smoke-v": " laying smoke, along the column first",
                    "smoke-h": " laying smoke, along the row first",
                }.get(extra, f" ({extra})")
                line += how
                told += how
        if before:
            line = f"{before}, then {line}"
            told = f"{name} {before}s, then moves{told.removeprefix(name + ' moves')}"
        return ActionWords(name, line, die, f"{told} ({die})")


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
    features = {r.key: r.name for r in ruleset.special_rules}
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
            crits = (
                ", ".join(characteristic_words(str(ch), features) for ch, _ in unit["criticals"])
                if unit is not None
                else ""
            )
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


def dice_text(data: ObsData, viewer: int, names: AdmiralWords | None = None, width: int | None = None) -> Text:
    """Each fleet's action dice: unused faces plain, spent ones struck through with their purpose (in words
    with `names`); lines longer than `width` break between two dice, never inside one."""
    said = names.text if names is not None else face_words
    text = Text()
    for p in (viewer, 1 - viewer):
        dice = data["fleets"][p]["dice"]
        head = f"{PLAYER_NAMES[p]} dice: "
        text.append(head, style=SIDE_TEXT_STYLES[p])
        if not dice:
            text.append("none rolled", style="dim")
        column = len(head)
        for d in dice:
            face = face_words(d["face"])
            if d.get("unit"):  # solo mode: the unit the die is assigned to and what it is spent as (SOLO-TAB)
                value = d.get("as")
                face += f" for {d['unit']}" + (
                    {"symbol": " as its symbol", "pending": ", value to come"}.get(value, f" as {face_words(value)}")
                    if value
                    else ""
                )
            cell = f"[{face}]" if d["used"] is None else f"[{face}: {said(d['used'])}]"
            if width is not None and column > len(head) and column + len(cell) > width:
                text.append("\n" + " " * 4)
                column = 4
            text.append(cell, style="" if d["used"] is None else "dim strike")
            text.append(" ")
            column += len(cell) + 1
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
        self.names = AdmiralWords(game)
        """The engine's identifiers in words, for everything shown."""

    def plain_words(self, text: str) -> str:
        return self.names.text(text)

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
        factions = self.game.ruleset.factions
        fleets = " vs ".join(
            f"{PLAYER_NAMES[p]}: {factions.get(f.faction, f.faction)}" for p, f in enumerate(self.game.fleets)
        )
        cap = f", turn cap {self.game.max_turns}" if self.game.max_turns else ""
        layout = str(self.game.options["layout"]).replace("_", " ")
        self.say(f"{opponents}; {fleets}; layout: {layout}{cap}.{self.seed_text}")
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
        while True:
            legal = self.state.legal_actions()
            shortcuts = self.shortcuts(legal, seat)
            offered = "".join(f"{w}, " for w in shortcuts)
            line = self.ask(PROMPT.format(who=self.who(seat), words=offered))
            word = line.lower()
            if not line:
                continue
            if word in ("help", "?", "h"):
                self.show_help()
            elif word in ("list", "l", "moves") or word.startswith("list "):
                self.show_list(legal, seat, line.partition(" ")[2].strip())
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
            elif word in shortcuts:
                self.play(seat, shortcuts[word])
                return
            elif word in SHORT_WORDS:
                self.error(f"Not playable: '{word}' is not one of the choices now ({self.expected(seat)}).")
            else:
                try:
                    action = self.state.string_to_action(line)
                except NotationError as exc:
                    self.error(f"Not playable: {exc}", notation=True)
                    continue
                except IllegalActionError as exc:
                    self.error(f"Not playable: {exc}")
                    continue
                self.play(seat, action)
                return

    def action_words(self, action: int, seat: int, critical_unit: str | None = None) -> ActionWords:
        """`action` in words (`AdmiralWords.action`); `critical_unit`: the unit a critical marker goes on now."""
        return self.names.action(self.state.action_to_string(action), seat, critical_unit)

    def critical_unit(self, seat: int) -> str | None:
        """The unit whose critical marker `seat` places now, if any."""
        if self.state.phase != Phase.CRITICALS:
            return None
        pending = self.state.view(seat)["pending_critical"]
        return pending["unit"] if pending is not None else None

    def shortcuts(self, legal: Sequence[int], seat: int) -> dict[str, int]:
        """The words of `SHORT_WORDS` that play one legal action now, whatever its notation ('pass' is 'air:pass'
        in the air phase, 'done' is 'enter:done' or 'air:done')."""
        found: dict[str, list[int]] = {}
        for action in legal:
            word = self.action_words(action, seat).word
            if word:
                found.setdefault(word, []).append(action)
        return {word: actions[0] for word, actions in found.items() if len(actions) == 1}

    def expected(self, seat: int) -> str:
        """What `seat` decides now, in words, with the words that also play (pass, done, ...)."""
        phase = self.state.phase
        what = PHASE_WORDS.get(phase, phase.replace("_", " "))
        words = list(self.shortcuts(self.state.legal_actions(), seat))
        return what + (f"; or {' or '.join(words)}" if words else "")

    def play(self, seat: int, action: int) -> None:
        text = self.state.action_to_string(action)
        told = self.action_words(action, seat, self.critical_unit(seat)).sentence
        hidden = self.state.phase in (Phase.DEPLOY, Phase.ATTACK) and (self.hotseat or seat not in self.humans)
        self.state.apply(action)
        if hidden and seat not in self.humans:
            what = "deploys a unit" if text and "@" in text and ":" not in text else "makes a secret decision"
            self.tell(f"{PLAYER_NAMES[seat]} {what}.", style=SIDE_TEXT_STYLES[seat])
        else:
            self.tell(f"{self.who(seat)}: {told}", style=SIDE_TEXT_STYLES[seat])

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
        self.console.print(dice_text(data, seat, self.names, self.console.width), soft_wrap=False)
        for p in (seat, 1 - seat):
            orders = data["fleets"][p]["orders"]
            if orders:
                self.say(f"{PLAYER_NAMES[p]} orders: {'; '.join(orders)}", style=SIDE_TEXT_STYLES[p])
            elif orders is None:
                self.say(f"{PLAYER_NAMES[p]} orders: secret until both have committed", style="dim")
        for sortie in data["air"]:
            where = f" at {sortie['square']}" if sortie["square"] else ""
            kind = self.names.aircraft.get(sortie["type"], sortie["type"])
            role = {"cap": f"protecting {sortie['ship']}", "airborne": "waiting to attack"}.get(
                sortie["role"], f"attacking {sortie['ship']}" if sortie["ship"] else sortie["role"]
            )
            owner = PLAYER_NAMES[int(sortie["owner"])]
            self.say(f"In the air: {owner}'s {kind} from {sortie['carrier']}, {role}{where}")
        if data["pending_critical"]:
            self.say(f"A critical marker goes on {data['pending_critical']['unit']}.")
        first = data["first_player"]
        first_text = f", {PLAYER_NAMES[first]} acts first" if first is not None else ""
        phase = PHASE_TITLES.get(str(data["phase"]), str(data["phase"]).replace("_", " "))
        self.tell(
            f"Turn {data['turn']}, {phase} phase{first_text}: {self.who(seat)} to decide: {self.expected(seat)}.",
            style="bold",
        )

    def show_list(self, legal: Sequence[int], seat: int, needle: str = "") -> None:
        """The legal actions, numbered as the prompt takes them, grouped by unit (its moves line by line, by
        destination, then the die each would spend) and by kind ('Air attacks', 'Or: pass'). A list too long
        for the screen is an overview of the groups; `list NAME` shows the numbers of the groups and lines
        that mention NAME ('list Helena', 'list repair'), `list all` every one."""
        where = self.unit_places(seat)
        groups: dict[str, dict[str, list[str]]] = {}
        wanted = needle.lower()
        critical = self.critical_unit(seat)
        for n, action in enumerate(legal, start=1):
            words = self.action_words(action, seat, critical)
            heading = self.names.unit_heading(words.group, where[words.group]) if words.group in where else words.group
            text = f"{heading} {words.line} {words.item} {self.state.action_to_string(action)}".lower()
            if wanted not in ("", "all") and wanted not in text:
                continue
            groups.setdefault(heading, {}).setdefault(words.line, []).append(f"{n} {words.item}")
        count = sum(len(items) for lines in groups.values() for items in lines.values())
        if not groups:
            self.say(f"No legal action mentions {needle!r}; 'list' shows them all.")
            return
        matching = f", {count} mentioning {needle!r}" if wanted not in ("", "all") else ""
        self.say(f"Legal actions ({len(legal)}{matching}): type a number (or the notation, see help).")
        full = self.list_lines(groups)
        if wanted or len(full) <= LIST_LINES:
            for text in full:
                self.console.print(Text(text), soft_wrap=False)
            return
        for heading, lines in groups.items():
            entries = [f"{line}: {item}" if line else item for line, items in lines.items() for item in items]
            if len(entries) == 1:
                self.say(f"{heading}: {entries[0]}")
                continue
            self.say(f"{heading}: {len(entries)} choices ({overview(lines)})")
        example = next((name for name in where if any(h.startswith(f"{name} (") for h in groups)), "all")
        self.say(f"Type 'list' and a name or a word for their numbers (e.g. 'list {example}'), or 'list all'.")

    def list_lines(self, groups: Mapping[str, Mapping[str, Sequence[str]]]) -> list[str]:
        """The lines of a grouped list: a heading for each group, then its lines, each with its numbered items
        side by side (wrapped to the terminal's width)."""
        out: list[str] = []
        width = self.console.width
        for heading, lines in groups.items():
            out.append(f"{heading}:")
            for line, items in lines.items():
                head = f"  {line}: " if line else "  "
                out += wrap_text(head + "   ".join(items), width).split("\n")
        return out

    def unit_places(self, seat: int) -> dict[str, str]:
        """Where each unit `seat` may see is ('C3', 'C3, submerged', 'to place', 'in reserve')."""
        data = self.state.view(seat)
        places: dict[str, str] = {}
        for sq, cell in enumerate(data["board"]):
            for u in cell["units"]:
                row, col = divmod(sq, BOARD_SIZE)
                places[u["name"]] = f"{FILES[col]}{row + 1}" + (", submerged" if u["submerged"] else "")
        for fleet in data["fleets"]:
            for label, names in (("to place", fleet["to_place"]), ("in reserve", fleet["reserve"])):
                for name in names or []:
                    places.setdefault(name, label)
        return places

    def show_help(self) -> None:
        self.console.print(Text(wrap_text(HELP, self.console.width)), soft_wrap=False)

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
