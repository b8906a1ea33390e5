"""Property tests of the Stratego engine: random play, material, hidden information, serialization, undo, records.

The key test is `test_observations_hide_what_the_rules_hide`: it follows every piece from the
public move events alone (`public_history()`), independently of the engine's own bookkeeping,
and checks at every step that no observation shows an enemy rank that no battle and no long
scout move has shown (STR-INFO-*), and that nothing of a setup shows to the other seat. It also
replays each game with the never-revealed enemy ranks shuffled: the observer's view must not change.

Hypothesis draws the seeds; games are kept short (move caps) so the file runs in about 20 s on one core.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogofwar.core import IllegalActionError, Observation, RecordError, Termination
from fogofwar.core.records import GameRecord
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import PLACE_BASE, MoveEvent, StrategoGame, StrategoState
from fogofwar.games.stratego.setup import random_setup
from fogofwar.grid.board import LAKES, NUM_SQUARES, SIZE

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
RANK_NAMES = [r.name.lower() for r in Rank]
SIDE_LETTER = ("r", "b")
HIDDEN_MARKS = ("?", "!")  # an unknown enemy piece, and an unknown one that has moved


# --- playing ------------------------------------------------------------------------------------


def set_up(state: StrategoState, rng: random.Random) -> None:
    """Both armies at once, each a uniformly random legal setup."""
    for player in (0, 1):
        state.apply_setup(player, random_setup(state.game.variant, player, rng))


def choose(state: StrategoState, rng: random.Random, aggression: float = 0.0) -> int:
    """A random legal action; with probability `aggression` an attack if there is one (more battles, more reveals)."""
    legal = state.legal_actions()
    if aggression and rng.random() < aggression:
        attacks = [a for a in legal if a < PLACE_BASE and state.piece_at(a % 100) is not None]
        if attacks:
            return rng.choice(attacks)
    return rng.choice(legal)


def new_game_state(variant: str, cap: int, seed: int, by_actions: bool) -> tuple[StrategoState, random.Random]:
    """A state at the start of play; `by_actions` sets up through random placement actions one by one."""
    state = StrategoGame(variant, max_moves=cap).new_initial_state()
    rng = random.Random(seed)
    if by_actions:
        while state.phase == "setup":
            state.apply(choose(state, rng))
    else:
        set_up(state, rng)
    return state, rng


def army_size(state: StrategoState) -> int:
    return state.game.variant.army_size


def army(state: StrategoState, owner: int) -> dict[int, Rank]:
    """{square: rank} of `owner`'s pieces on the board."""
    out = {}
    for sq in range(NUM_SQUARES):
        piece = state.piece_at(sq)
        if piece is not None and piece[0] == owner:
            out[sq] = piece[1]
    return out


def board_counts(state: StrategoState) -> list[int]:
    counts = [0, 0]
    for sq in range(NUM_SQUARES):
        piece = state.piece_at(sq)
        if piece is not None:
            counts[piece[0]] += 1
    return counts


# --- hidden information --------------------------------------------------------------------------------


@dataclass
class Known:
    owner: int
    origin: int  # the square the piece started on: its identity
    rank: Rank | None  # None until a battle or a scout's long move has shown it


class PublicTracker:
    """Every piece as the public sees it, followed from the move events alone."""

    def __init__(self, state: StrategoState) -> None:
        assert state.phase == "play" and state.move_count == 0
        # At the start of play every piece's square and owner show, and no rank does.
        self.pieces: dict[int, Known] = {}
        for sq in range(NUM_SQUARES):
            piece = state.piece_at(sq)
            if piece is not None:
                self.pieces[sq] = Known(piece[0], sq, None)
        self.captured: tuple[list[Rank], list[Rank]] = ([], [])
        self.ever_revealed: set[int] = set()  # origins of the pieces whose rank has shown
        self.public: set[tuple[tuple[str, Any], ...]] = set()  # the move events, as the JSON anyone may see
        self.seen = 0

    def follow(self, state: StrategoState) -> None:
        events = state.public_history()
        assert len(events) == state.move_count
        for ev in events[self.seen :]:
            self._apply(ev)
            self.public.add(event_key(ev.to_json()))
        self.seen = len(events)

    def _reveal(self, piece: Known, rank: int) -> None:
        assert piece.rank in (None, Rank(rank)), f"a revealed piece changed rank: {piece} -> {Rank(rank)}"
        piece.rank = Rank(rank)
        self.ever_revealed.add(piece.origin)

    def _apply(self, ev: MoveEvent) -> None:
        mover = self.pieces.pop(ev.src)
        assert mover.owner == ev.player, f"{ev}: the mover is not the player's piece"
        long_move = abs(ev.dst - ev.src) not in (1, SIZE)
        if ev.defender is None:
            # A plain move shows a rank only when it is a scout's move of more than one square.
            assert (ev.attacker is not None) == long_move, f"{ev}: a plain move shows a rank it should not"
            assert ev.attacker in (None, Rank.SCOUT)
            if ev.attacker is not None:
                self._reveal(mover, ev.attacker)
            assert ev.dst not in self.pieces, f"{ev}: a plain move onto an occupied square"
            self.pieces[ev.dst] = mover
            return
        assert ev.attacker is not None, f"{ev}: a battle shows both ranks"
        defender = self.pieces.pop(ev.dst)
        assert defender.owner != ev.player, f"{ev}: a battle against an own piece"
        self._reveal(mover, ev.attacker)
        self._reveal(defender, ev.defender)
        assert not (ev.attacker_survived and ev.defender_survived)
        if ev.attacker_survived:
            self.pieces[ev.dst] = mover
        else:
            self.captured[mover.owner].append(Rank(ev.attacker))
        if ev.defender_survived:
            self.pieces[ev.dst] = defender
        else:
            self.captured[defender.owner].append(Rank(ev.defender))

    def revealed_enemies(self, player: int) -> int:
        return sum(1 for k in self.pieces.values() if k.owner != player and k.rank is not None)


def text_grid(text: str) -> dict[int, tuple[str, str]]:
    """The pieces of the text drawing, {square: (side letter, mark)}: rows 10..1, then the file letters."""
    lines = text.splitlines()
    out: dict[int, tuple[str, str]] = {}
    for i in range(SIZE):
        tokens = lines[i].split()
        row = SIZE - 1 - i
        assert tokens[0] == str(row + 1), f"unexpected text board line {lines[i]!r}"
        cells = tokens[1:]
        assert len(cells) == SIZE, f"unexpected text board line {lines[i]!r}"
        for col, token in enumerate(cells):
            if token in ("~~", "."):
                continue
            out[row * SIZE + col] = (token[0], token[1:])
    return out


def event_key(data: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(data.items()))


def rank_names(data: Any, public: set[tuple[tuple[str, Any], ...]]) -> Counter[str]:
    """Rank names anywhere in `data` (values and keys), except inside copies of public move events."""
    out: Counter[str] = Counter()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if "from" in item and public and event_key(item) in public:
                continue
            for key, value in item.items():
                if key in RANK_NAMES:
                    out[key] += 1
                if isinstance(value, dict | list):
                    stack.append(value)
                elif isinstance(value, str) and value in RANK_NAMES:
                    out[value] += 1
        elif isinstance(item, list):
            for value in item:
                if isinstance(value, dict | list):
                    stack.append(value)
                elif isinstance(value, str) and value in RANK_NAMES:
                    out[value] += 1
        elif isinstance(item, str) and item in RANK_NAMES:
            out[item] += 1
    return out


def check_play_observation(state: StrategoState, tracker: PublicTracker, player: int) -> Observation:
    """Own pieces fully; enemy pieces with square, owner and moved mark, and a rank only once it has shown."""
    obs = state.observation(player)
    assert obs.player == player
    cells = obs.data["board"]
    grid = text_grid(obs.text)
    expected: Counter[str] = Counter()
    for sq in range(NUM_SQUARES):
        cell = cells[sq]
        if sq in LAKES:
            assert cell == "lake"
            continue
        known = tracker.pieces.get(sq)
        actual = state.piece_at(sq)
        assert (known is None) == (actual is None), f"the public piece list disagrees with the board on {sq}"
        if known is None:
            assert cell is None
            assert sq not in grid
            continue
        assert actual is not None and actual[0] == known.owner
        assert isinstance(cell, dict) and cell["owner"] == known.owner
        assert cell["revealed"] == (known.rank is not None)
        side, mark = grid[sq]
        assert side == SIDE_LETTER[known.owner]
        if known.owner == player:
            assert cell["rank"] == actual[1].name.lower()
            assert mark == actual[1].symbol()
            expected[actual[1].name.lower()] += 1
        elif known.rank is None:
            assert cell["rank"] is None, f"seat {player} sees the unrevealed {actual[1].name} on {sq}"
            assert mark in HIDDEN_MARKS, f"seat {player}'s text shows the unrevealed {actual[1].name} on {sq}"
        else:
            assert known.rank == actual[1]
            assert cell["rank"] == known.rank.name.lower()
            assert mark == known.rank.symbol()
            expected[known.rank.name.lower()] += 1
    assert len(grid) == len(tracker.pieces)
    shown = sum(1 for side, mark in grid.values() if side != SIDE_LETTER[player] and mark not in HIDDEN_MARKS)
    assert shown == tracker.revealed_enemies(player)
    # Every rank name anywhere else in the data is accounted for: captured pieces, own pieces to place,
    # and copies of public move events (last move, recent moves) are all it may show.
    for owner in (0, 1):
        expected.update(r.name.lower() for r in tracker.captured[owner])
    expected.update(r.name.lower() for r in state.pieces_to_place(player))
    counts = rank_names(obs.data, tracker.public)
    assert +counts == +expected, (
        f"seat {player}: rank names shown but neither public nor own: {dict(counts - expected)}; "
        f"missing: {dict(expected - counts)}"
    )
    return obs


def check_setup_observation(state: StrategoState, player: int) -> None:
    """During the setup nothing of the other army shows: no square, no owner, no rank."""
    obs = state.observation(player)
    cells = obs.data["board"]
    grid = text_grid(obs.text)
    expected: Counter[str] = Counter()
    for sq in range(NUM_SQUARES):
        actual = state.piece_at(sq)
        if actual is None or actual[0] != player:
            assert cells[sq] in (None, "lake"), f"seat {player} sees a piece of the other setup on {sq}"
            assert sq not in grid
        else:
            assert cells[sq]["rank"] == actual[1].name.lower()
            expected[actual[1].name.lower()] += 1
    assert all(side == SIDE_LETTER[player] for side, _ in grid.values())
    expected.update(r.name.lower() for r in state.pieces_to_place(player))
    assert +rank_names(obs.data, set()) == +expected


def place_piece_by_piece(state: StrategoState, rng: random.Random) -> None:
    """The setup through random placement actions, checking both seats' observations at every step.

    Besides the cell checks, the seat that is not placing must see exactly the same observation
    before and after every placement of the other side: nothing of it shows.
    """
    watcher_view: dict[int, Any] = {}
    while state.phase == "setup":
        placing = state.current_player()
        watcher = 1 - placing
        check_setup_observation(state, 0)
        check_setup_observation(state, 1)
        view = state.observation(watcher)
        assert watcher_view.setdefault(placing, view) == view, f"seat {watcher} saw a placement of seat {placing}"
        state.apply(choose(state, rng))


def hidden_swap(state: StrategoState, tracker: PublicTracker, owner: int, rng: random.Random) -> dict[int, Rank]:
    """`owner`'s army at the start of play with the ranks of never-revealed pieces shuffled (movable among
    movable, bomb and flag among themselves), as {square: rank}: the other seat must not tell it apart."""
    placement = army(state, owner)
    for movable in (True, False):
        squares = [sq for sq, r in placement.items() if r.movable == movable and sq not in tracker.ever_revealed]
        ranks = [placement[sq] for sq in squares]
        rng.shuffle(ranks)
        placement.update(zip(squares, ranks, strict=True))
    return placement


def _observation_games(variant: str, seeds: range, cap: int) -> tuple[int, int]:
    """Play random games, checking both seats' observations at every step.

    Each game is then played again with the never-revealed ranks of one side shuffled: at every
    step, the other seat's observation must be exactly the same. Returns (reveals, swapped pieces).
    """
    reveals = swapped = 0
    for seed in seeds:
        game = StrategoGame(variant, max_moves=cap)
        state = game.new_initial_state()
        rng = random.Random(seed)
        if variant == "barrage" or seed % 10 == 0:
            place_piece_by_piece(state, rng)
        else:
            set_up(state, rng)
        start = state.clone()
        tracker = PublicTracker(state)
        aggression = (0.0, 0.3, 0.7)[seed % 3]
        views: list[Any] = []
        observer = seed % 2
        while True:
            tracker.follow(state)
            seen = [check_play_observation(state, tracker, p) for p in (0, 1)]
            views.append(seen[observer])
            if state.is_terminal():
                break
            state.apply(choose(state, rng, aggression))
        reveals += tracker.revealed_enemies(0) + tracker.revealed_enemies(1)

        # The same game with the hidden ranks of the observer's opponent shuffled.
        hidden = 1 - observer
        placements = {p: army(start, p) for p in (0, 1)}
        placements[hidden] = hidden_swap(start, tracker, hidden, rng)
        swapped += sum(rank != placements[hidden][sq] for sq, rank in army(start, hidden).items())
        other = game.new_initial_state()
        for p in (0, 1):
            other.apply_setup(p, placements[p])
        moves = list(state.history)[len(state.history) - state.move_count :]
        assert other.observation(observer) == views[0], f"seed {seed}: seat {observer} tells the shuffled setup apart"
        for i, action in enumerate(moves, 1):
            try:
                other.apply(action)
            except IllegalActionError:
                break  # the more-squares rule compares ranks: a shuffle may (rarely) change what it allows
            assert other.observation(observer) == views[i], (
                f"seed {seed}: seat {observer} tells the shuffled hidden ranks apart after move {i}"
            )
    return reveals, swapped


@pytest.mark.parametrize(
    ("variant", "chunk", "games", "cap"),
    [("barrage", i, 40, 70) for i in range(5)] + [("classic", i, 20, 60) for i in range(5)],
)
def test_observations_hide_what_the_rules_hide(variant: str, chunk: int, games: int, cap: int) -> None:
    """THE hidden-information test: 300 random games (200 barrage, 100 classic), both seats, every step,
    barrage setups and one classic setup in ten placed piece by piece."""
    reveals, swapped = _observation_games(variant, range(chunk * 1000, chunk * 1000 + games), cap)
    assert reveals > 0, "no piece was ever revealed: the test would prove nothing"
    assert swapped > 0, "no hidden rank was ever shuffled: the test would prove nothing"


def test_tracker_sees_reveals_by_scout_moves_and_battles() -> None:
    """The tracker (and the observation) follow a long scout move and a battle in a crafted position."""
    game = StrategoGame("barrage")
    pieces = {
        0: (0, Rank.SCOUT),  # A1
        39: (0, Rank.MARSHAL),  # K4
        9: (0, Rank.FLAG),  # K1
        69: (1, Rank.GENERAL),  # K7
        90: (1, Rank.SCOUT),  # A10
        99: (1, Rank.FLAG),  # K10
    }
    state = game.state_from_position(pieces)
    tracker = PublicTracker(state)
    check_play_observation(state, tracker, 1)
    state.apply(state.string_to_action("A1-A4"))  # a long scout move shows the scout
    tracker.follow(state)
    assert tracker.pieces[30].rank is Rank.SCOUT
    assert state.observation(1).data["board"][30]["rank"] == "scout"
    check_play_observation(state, tracker, 1)
    state.apply(state.string_to_action("K7-K6"))  # one step: the general stays hidden
    tracker.follow(state)
    assert state.observation(0).data["board"][59]["rank"] is None
    check_play_observation(state, tracker, 0)
    state.apply(state.string_to_action("K4-K5"))
    state.apply(state.string_to_action("K6xK5"))  # the general attacks the marshal and loses
    tracker.follow(state)
    assert tracker.pieces[49].rank is Rank.MARSHAL and tracker.captured[1] == [Rank.GENERAL]
    for p in (0, 1):
        check_play_observation(state, tracker, p)


# --- play, material ----------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS, variant=st.sampled_from(["classic", "barrage", "duel"]), cap=st.integers(1, 400))
def test_random_play_ends_within_the_cap(seed: int, variant: str, cap: int) -> None:
    state, rng = new_game_state(variant, cap, seed, by_actions=False)
    while not state.is_terminal():
        assert state.move_count < cap
        state.apply(choose(state, rng, aggression=0.2))
    outcome = state.outcome()
    assert outcome is not None
    assert state.move_count <= cap
    if outcome.termination is Termination.MOVE_LIMIT:
        assert state.move_count == cap and outcome.winner is None
    else:
        assert outcome.termination in (Termination.FLAG_CAPTURED, Termination.NO_MOVES, Termination.NO_MOVES_EITHER)
    assert len(state.history) == 2 * army_size(state) + state.move_count


@settings(max_examples=50, deadline=None)
@given(seed=SEEDS, variant=st.sampled_from(["classic", "barrage", "duel"]))
def test_material_is_conserved(seed: int, variant: str) -> None:
    state, rng = new_game_state(variant, 300, seed, by_actions=False)
    size = army_size(state)
    assert board_counts(state) == [size, size]
    while not state.is_terminal():
        before = [len(state.captured(o)) for o in (0, 1)]
        state.apply(choose(state, rng, aggression=0.3))
        ev = state.last_event()
        assert ev is not None
        after = [len(state.captured(o)) for o in (0, 1)]
        counts = board_counts(state)
        for o in (0, 1):
            assert counts[o] + after[o] == size, f"side {o}: {counts[o]} on the board + {after[o]} captured"
        if not ev.is_battle:
            assert after == before, "pieces were captured without a battle"
        else:
            lost = [0, 0]
            lost[ev.player] += not ev.attacker_survived
            lost[1 - ev.player] += not ev.defender_survived
            assert after == [before[0] + lost[0], before[1] + lost[1]]
            assert state.captured(ev.player)[before[ev.player] :] == ([] if ev.attacker_survived else [ev.attacker])
            assert state.captured(1 - ev.player)[before[1 - ev.player] :] == (
                [] if ev.defender_survived else [ev.defender]
            )


# --- serialization, undo, records ---------------------------------------------------------------------


def fingerprint(state: StrategoState, with_observations: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "json": state.to_json(),
        "board": [state.piece_at(sq) for sq in range(NUM_SQUARES)],
        "captured": [state.captured(0), state.captured(1)],
        "legal": list(state.legal_actions()),
        "player": state.current_player(),
        "phase": state.phase,
        "outcome": state.outcome(),
        "moves": state.move_count,
        "events": state.public_history(),
        "to_place": [state.pieces_to_place(0), state.pieces_to_place(1)],
    }
    if with_observations:
        out["observations"] = [state.observation(0), state.observation(1)]
    return out


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, variant=st.sampled_from(["classic", "barrage", "duel", "classicfree"]), data=st.data())
def test_serialization_round_trip_at_random_points(seed: int, variant: str, data: st.DataObject) -> None:
    game = StrategoGame(variant, max_moves=300)
    state = game.new_initial_state()
    rng = random.Random(seed)
    if data.draw(st.booleans(), label="whole setups at once"):
        set_up(state, rng)
    stop = data.draw(st.integers(0, 400), label="actions before the check")
    for _ in range(stop):
        if state.is_terminal():
            break
        state.apply(choose(state, rng, aggression=0.3))
    text = json.dumps(state.to_json())
    again = game.state_from_json(json.loads(text))
    assert fingerprint(again, with_observations=True) == fingerprint(state, with_observations=True)
    # Both copies go on identically.
    for _ in range(20):
        if state.is_terminal():
            break
        action = choose(state, rng)
        state.apply(action)
        again.apply(action)
        assert again.legal_actions() == state.legal_actions()
        assert again.observation(0) == state.observation(0) and again.observation(1) == state.observation(1)


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, variant=st.sampled_from(["classic", "barrage", "duel", "classicfree"]), data=st.data())
def test_undo_back_to_the_start(seed: int, variant: str, data: st.DataObject) -> None:
    game = StrategoGame(variant, max_moves=250)
    state = game.new_initial_state()
    rng = random.Random(seed)
    initial = state.to_json()
    # The setup is placed piece by piece (random placement actions) unless the draw skips most of it.
    stop = data.draw(st.integers(0, 350), label="actions before undoing")
    if data.draw(st.booleans(), label="whole setups at once"):
        set_up(state, rng)
        stop += len(state.history)
    while len(state.history) < stop and not state.is_terminal():
        state.apply(choose(state, rng, aggression=0.3))
    # The forward states, action by action, from the start.
    actions = list(state.history)
    state = game.new_initial_state()
    forward = [fingerprint(state, with_observations=True)]
    for action in actions:
        state.apply(action)
        forward.append(fingerprint(state, with_observations=len(forward) % 10 == 0))
    for i in range(len(forward) - 1, 0, -1):
        now = fingerprint(state, with_observations="observations" in forward[i])
        assert now == forward[i], f"after undoing back to action {i} the state differs"
        state.undo()
    assert fingerprint(state, with_observations=True) == forward[0]
    assert state.to_json() == initial
    with pytest.raises(IllegalActionError):
        state.undo()


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, variant=st.sampled_from(["classic", "barrage", "duel"]))
def test_record_replays_the_game(seed: int, variant: str) -> None:
    state, rng = new_game_state(variant, 300, seed, by_actions=seed % 2 == 0)
    while not state.is_terminal():
        state.apply(choose(state, rng, aggression=0.3))
    record = GameRecord.loads(GameRecord.from_state(state, players=["a", "b"], seed=seed).dumps())
    assert record.players == ["a", "b"] and record.metadata == {"seed": seed}
    replayed = record.replay()
    assert isinstance(replayed, StrategoState)
    assert fingerprint(replayed, with_observations=True) == fingerprint(state, with_observations=True)
    # A record whose outcome or notation was changed no longer replays under check.
    outcome = record.outcome
    assert outcome is not None
    wrong = {"termination": "no_moves", "winner": 1 if outcome.winner == 0 else 0}
    with pytest.raises(RecordError, match="the record says"):
        GameRecord.from_json({**record.to_json(), "outcome": wrong}).replay()
    notation = list(record.notation)
    notation[-1] = "A1-A2" if notation[-1] != "A1-A2" else "A2-A3"
    with pytest.raises(RecordError, match="notation"):
        GameRecord.from_json({**record.to_json(), "notation": notation}).replay()
    assert record.replay(check=False).to_json() == state.to_json()
