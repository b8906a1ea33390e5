"""The setup book's prior (`book_prior`): read a book setup from a few shown pieces, keep the squares' prior for an
army unlike any book setup, and remember the setup squares of the pieces taken in battle."""

from __future__ import annotations

import math
import random

from fogofwar.games.stratego.agents.belief import BeliefTracker
from fogofwar.games.stratego.agents.book_prior import setup_book_prior
from fogofwar.games.stratego.agents.knowledge import Knowledge
from fogofwar.games.stratego.agents.setups import book_setups, human_like_setup, prior_by_square
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import StrategoGame
from fogofwar.games.stratego.setup import parse_setup, random_setup, setup_squares
from fogofwar.games.stratego.variants import get_variant

CLASSIC = get_variant("classic")


def _log_loss(book_setup: bool, seed: int, plies: int = 240) -> tuple[float, float, BeliefTracker, dict[int, int]]:
    """Red watches blue's army, set up from the book or piece by piece from the squares' statistics, both moving
    at random (an attack every other move where one is legal), with the plain belief and the one with the book
    (0.1): the mean log-loss of blue's hidden pieces' true ranks over red's turns, the book's tracker and blue's
    setup by square."""
    rng = random.Random(seed)
    game = StrategoGame("classic", max_moves=0)
    state = game.new_initial_state()
    state.apply_setup(0, human_like_setup(CLASSIC, 0, rng))
    blue = (
        parse_setup(book_setups("classic")[seed * 37 % len(book_setups("classic"))], CLASSIC, 1)
        if book_setup
        else human_like_setup(CLASSIC, 1, rng)
    )
    state.apply_setup(1, blue)
    plain, book = BeliefTracker(), BeliefTracker()
    book.book_weight = 0.1
    loss = [0.0, 0.0]
    count = 0
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.current_player() == 0:
            data = state.observation(0).data
            know = Knowledge.from_observation(data)
            for i, tracker in enumerate((plain, book)):
                tracker.update(data)
                for sq, row in tracker.marginals(know).items():
                    piece = state.piece_at(sq)
                    assert piece is not None
                    loss[i] -= math.log(row[int(piece[1])])
            count += len(know.unknown_enemy_squares())
        moves = state.legal_actions()
        attacks = [m for m in moves if state.piece_at(m % 100) is not None]  # (reference ids: from x 100 + to)
        state.apply(rng.choice(attacks if attacks and rng.random() < 0.5 else moves))
    return loss[0] / count, loss[1] / count, book, {sq: int(r) for sq, r in blue.items()}


def test_the_book_reads_an_army_set_up_from_the_book() -> None:
    for seed in range(2):
        plain, book, _, _ = _log_loss(True, seed)
        assert book < plain - 0.3, (seed, plain, book)


def test_the_book_costs_little_on_an_army_unlike_any_book_setup() -> None:
    for seed in range(2):
        plain, book, _, _ = _log_loss(False, seed)
        assert book < plain + 0.05, (seed, plain, book)


def test_pieces_taken_in_battle_are_remembered_by_their_setup_square() -> None:
    _, _, tracker, blue = _log_loss(False, 3)
    assert len(tracker.fallen) >= 5
    assert all(blue[start] == rank for start, rank in tracker.fallen.items())


def test_a_book_setup_is_found_from_its_shown_pieces_and_an_unlike_army_keeps_the_squares() -> None:
    book = setup_book_prior("classic", 1)
    squares = prior_by_square(CLASSIC, 1)
    assert book is not None and squares is not None
    order = setup_squares(1)
    setup = parse_setup(book_setups("classic")[5], CLASSIC, 1)
    shown = {sq: int(setup[sq]) for sq in order[:10]}  # its front row shown
    hidden = order[10:]
    rows = book.prior(squares, shown, (), hidden, weight=0.1, noise=0.1)
    assert sum(rows[sq][int(setup[sq])] for sq in hidden) / len(hidden) > 0.8
    unlike = random_setup(CLASSIC, 1, random.Random(5))
    shown = {sq: int(unlike[sq]) for sq in order[:10]}
    rows = book.prior(squares, shown, (), hidden, weight=0.1, noise=0.1)
    assert max(abs(rows[sq][r] - p) for sq in hidden for r, p in squares[sq].items()) < 0.05
    flag = rows[order[-1]].get(int(Rank.FLAG), 0.0)
    assert abs(sum(rows[order[-1]].values()) - 1.0) < 1e-9 and flag > 0.0


def test_barrage_setups_leave_squares_empty_and_the_book_reads_them() -> None:
    barrage = get_variant("barrage")
    book = setup_book_prior("barrage", 0)
    squares = prior_by_square(barrage, 0)
    assert book is not None and squares is not None
    setup = parse_setup(book_setups("barrage")[3], barrage, 0)
    placed = sorted(setup)
    shown = {sq: int(setup[sq]) for sq in placed[:4]}
    hidden = placed[4:]
    plain = sum(squares[sq][int(setup[sq])] for sq in hidden)
    rows = book.prior(squares, shown, (), hidden, weight=0.1, noise=0.1)
    assert all(abs(sum(row.values()) - 1.0) < 1e-9 for row in rows.values())
    assert sum(rows[sq][int(setup[sq])] for sq in hidden) > plain + 0.5
    rows = book.prior(squares, {}, (), placed, weight=0.1, noise=0.1)  # nothing shown but where pieces stand
    assert sum(rows[sq][int(setup[sq])] for sq in placed) > sum(squares[sq][int(setup[sq])] for sq in placed) + 0.5
