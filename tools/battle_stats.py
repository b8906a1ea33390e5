"""How the battles of a series went, from one player's side: where its pieces were lost.

Reads the game records an arena or strength run writes (`OUT/games/*.json`) and prints these tables:

* every battle by who attacked, what the attacker knew of the defender (revealed, moved but unknown, never
  moved), and the result: where a Stratego agent leaks material (for instance revealed pieces left next to
  stronger ones);
* `--trades`: the player's attacks by what it knew of the defender and how strong its attacker was, with the
  material each side lost in the battle and what the player lost to a recapture on that square at once
  (material values of `fogofwar train material`): which kinds of attack pay;
* `--calibration`: for the player's attacks on pieces never seen to move, the belief's P(bomb) and P(flag) of
  the piece attacked (its `BeliefTracker` replayed along the game) against how often it was one;
* `--fates`: the games by result and ending, what took the player's marshal against the result (a bomb, the
  spy, a trade), and its pieces lost attacking bombs, by rank;
* `--replies`: the opponent's turns with a capture of the player's pieces on hand, how often it made one, and
  how well two models of its reply foretold that (Brier scores): the search's own (it captures whenever a
  capture looks good by the material it expects from what it sees of our piece, `SearchAgent._perceived_scores`)
  and the learned move policy run on the opponent's own observation (what `search:reply=1` weighs).

    .venv/bin/python tools/battle_stats.py artifacts/strength/demon1 --player search --trades --calibration --fates
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from fogofwar.core.records import GameRecord
from fogofwar.core.registry import make_game
from fogofwar.games.stratego.agents.belief import BeliefTracker
from fogofwar.games.stratego.agents.knowledge import RANK_OF_NAME, Knowledge
from fogofwar.games.stratego.agents.policy_model import shipped_policy
from fogofwar.games.stratego.agents.search import _TIE, SearchAgent, _fitted_values, seen_kinds
from fogofwar.games.stratego.observation import stratego_view
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import StrategoState, battle

Piece = tuple[int, int, bool, bool]  # owner, rank, moved, revealed


def _games(path: Path, player: str) -> Iterator[tuple[GameRecord, int]]:
    """The records in `path/games` that `player` played, with its seat."""
    for f in sorted((path / "games").glob("*.json")):
        rec = GameRecord.load(f)
        if player in rec.players:
            yield rec, rec.players.index(player)


class _Move(NamedTuple):
    mover: int
    dst: int
    attacker: Piece | None
    defender: Piece | None  # None: a move to an empty square
    after: Piece | None  # what stands on `dst` after the move (None: both died)


def _moves(rec: GameRecord) -> Iterator[_Move]:
    """The record's moves (not its placements) replayed, each with the pieces it met."""
    state = make_game(rec.game, **rec.options).new_initial_state()
    assert isinstance(state, StrategoState)
    for action in rec.actions:
        mover = state.current_player()
        if mover < 0 or action >= 10000:  # a chance node or a placement
            state.apply(action)
            continue
        src, dst = divmod(action, 100)
        attacker, defender = state.piece_at(src), state.piece_at(dst)
        state.apply(action)
        yield _Move(mover, dst, attacker, defender, state.piece_at(dst))


def _knowledge(defender: Piece) -> str:
    _owner, _rank, moved, revealed = defender
    return "revealed" if revealed else "moved, unknown" if moved else "unmoved, unknown"


def battles(path: Path, player: str) -> tuple[Counter[tuple[str, str, str]], int]:
    """(battle counts by (who, knowledge of the defender, result), the number of games read)."""
    counts: Counter[tuple[str, str, str]] = Counter()
    games = 0
    for rec, me in _games(path, player):
        games += 1
        for m in _moves(rec):
            attacker, defender, after = m.attacker, m.defender, m.after
            if attacker is None or defender is None:
                continue
            result = "win" if after and after[0] == attacker[0] else ("both die" if after is None else "lose")
            who = "we attack" if attacker[0] == me else "they attack"
            counts[(who, _knowledge(defender), result)] += 1
    return counts, games


def trades(path: Path, player: str) -> tuple[dict[tuple[str, str], list[float]], int]:
    """By (knowledge of the defender, attacker class): [attacks, our loss, their loss, our loss to a recapture
    on the square at the enemy's next move], summed over the games; and the number of games."""
    value = _fitted_values()
    out: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    games = 0
    for rec, me in _games(path, player):
        games += 1
        pending: tuple[tuple[str, str], int] | None = None  # our attack that won, and its square
        for m in _moves(rec):
            mover, dst, attacker, defender, after = m.mover, m.dst, m.attacker, m.defender, m.after
            if mover != me:
                recaptured = after is not None and after[0] != me
                if pending is not None and defender is not None and dst == pending[1] and recaptured:
                    out[pending[0]][3] += value[defender[1]]
                pending = None
                continue
            if attacker is None or defender is None or defender[1] == Rank.FLAG:
                continue
            kind = "scout" if attacker[1] == Rank.SCOUT else "miner" if attacker[1] == Rank.MINER else (
                "up to major" if attacker[1] <= Rank.MAJOR else "colonel and up"
            )  # fmt: skip
            key = (_knowledge(defender), kind)
            row = out[key]
            row[0] += 1
            won = after is not None and after[0] == me
            row[1] += 0.0 if won else value[attacker[1]]
            row[2] += value[defender[1]] if (after is None or won) else 0.0
            if won:
                pending = (key, dst)
    return out, games


def calibration(path: Path, player: str) -> tuple[dict[str, list[float]], int]:
    """By attacker class: [attacks on pieces never seen to move, sum of P(bomb) said, bombs, sum of P(flag)
    said, flags], the belief replayed along each game; and the number of games."""
    out: dict[str, list[float]] = defaultdict(lambda: [0.0] * 5)
    games = 0
    for rec, me in _games(path, player):
        games += 1
        state = make_game(rec.game, **rec.options).new_initial_state()
        assert isinstance(state, StrategoState)
        belief = BeliefTracker()
        for action in rec.actions:
            if state.current_player() == me and action < 10000:
                data = stratego_view(state.observation(me).data)
                belief.update(data)
                src, dst = divmod(action, 100)
                attacker, defender = state.piece_at(src), state.piece_at(dst)
                if attacker is not None and defender is not None and not defender[2] and not defender[3]:
                    said = belief.marginals(Knowledge.from_observation(data)).get(dst, {})
                    kind = Rank(attacker[1]).name.lower()
                    row = out[kind]
                    row[0] += 1
                    row[1] += said.get(Rank.BOMB, 0.0)
                    row[2] += defender[1] == Rank.BOMB
                    row[3] += said.get(Rank.FLAG, 0.0)
                    row[4] += defender[1] == Rank.FLAG
            state.apply(action)
    return out, games


def fates(path: Path, player: str) -> tuple[Counter[tuple[str, str]], Counter[tuple[str, str]], Counter[str], int]:
    """(games by (result, ending), games by (what took our marshal, result), our pieces lost attacking a bomb by
    rank (miners aside), the number of games). Why: the endings say how a series is lost, and in this session's
    series against Demon the marshal's fate told the wins from the losses."""
    endings: Counter[tuple[str, str]] = Counter()
    marshal: Counter[tuple[str, str]] = Counter()
    bombs: Counter[str] = Counter()
    games = 0
    for rec, me in _games(path, player):
        games += 1
        taker = "lives"
        for m in _moves(rec):
            mover, attacker, defender, after = m.mover, m.attacker, m.defender, m.after
            if attacker is None or defender is None:
                continue
            if mover == me and defender[1] == Rank.BOMB and attacker[1] != Rank.MINER and after != attacker:
                bombs[Rank(attacker[1]).name.lower()] += 1
            if defender[0] == me and defender[1] == Rank.MARSHAL and (after is None or after[0] != me):
                taker = "their marshal attacked (both died)" if after is None else Rank(attacker[1]).name.lower()
            elif mover == me and attacker[1] == Rank.MARSHAL and (after is None or after[0] != me):
                taker = "we attacked their marshal (both died)" if after is None else Rank(defender[1]).name.lower()
        if rec.outcome is None:
            continue  # an unfinished game
        winner = rec.outcome.winner
        result = "win" if winner == me else "loss" if winner is not None and winner >= 0 else "draw"
        ending = str(rec.metadata.get("ending") or rec.outcome.termination.value)
        endings[(result, ending)] += 1
        marshal[(taker, result)] += 1
    return endings, marshal, bombs, games


class Reply(NamedTuple):
    """One opponent turn with a capture of ours on hand."""

    captured: bool  # it made a capture
    sure: bool  # one of the captures was of a revealed piece of ours it beats
    policy: float  # the move policy's P(some capture), from the opponent's observation
    model: bool  # the search's model: some capture looks good to it


def replies(path: Path, player: str) -> tuple[list[Reply], int]:
    """The opponent's turns with a capture of the player's pieces on hand (see the module docstring), and the
    number of games."""
    net = shipped_policy()
    if net is None:
        raise SystemExit("battle_stats: --replies needs the shipped move policy")
    search = SearchAgent()
    out: list[Reply] = []
    games = 0
    for rec, me in _games(path, player):
        games += 1
        state = make_game(rec.game, **rec.options).new_initial_state()
        assert isinstance(state, StrategoState)
        for action in rec.actions:
            if state.is_terminal():
                break
            if state.current_player() != me and action < 10000:
                legal = [a for a in state.legal_actions() if a < 10000]
                caps = [a for a in legal if (p := state.piece_at(a % 100)) is not None and p[0] == me]
                if caps:
                    out.append(_reply(search, net, state, me, legal, caps, action))
            state.apply(action)
    return out, games


def _reply(
    search: SearchAgent, net: Any, state: StrategoState, me: int, legal: list[int], caps: list[int], action: int
) -> Reply:
    ours = stratego_view(state.observation(me).data)
    know = Knowledge.from_observation(ours)
    kinds, revealed = seen_kinds(know)
    lost = Counter(RANK_OF_NAME[n] for n in ours["captured"][me])
    perceived = search._perceived_scores(know, lost, revealed, kinds)
    looks, sure = 0.0, False
    for a in caps:
        src, dst = divmod(a, 100)
        attacker, defender = state.piece_at(src), state.piece_at(dst)
        assert attacker is not None and defender is not None
        looks = max(looks, perceived[attacker[1]][kinds[dst]])
        win, survive = battle(attacker[1], defender[1])
        sure = sure or (defender[3] and win and not survive)
    theirs = stratego_view(state.observation(1 - me).data)
    chances = net.move_probabilities(theirs, legal)
    return Reply(action in caps, sure, sum(chances[a] for a in caps), looks > _TIE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="an arena or strength output folder (with games/)")
    parser.add_argument("--player", default="search", help="the player's name in the records")
    parser.add_argument("--trades", action="store_true", help="which of the player's attacks paid")
    parser.add_argument("--calibration", action="store_true", help="the belief on the unmoved pieces attacked")
    parser.add_argument("--fates", action="store_true", help="endings, our marshal's fate, our pieces lost to bombs")
    parser.add_argument("--replies", action="store_true", help="the opponent's captures against two models of them")
    args = parser.parse_args()
    counts, games = battles(args.out, args.player)
    print(f"{games} games of {args.player}: battles by who attacked, the defender as the attacker knew it, result")
    for who in ("we attack", "they attack"):
        for known in ("revealed", "moved, unknown", "unmoved, unknown"):
            row = {r: counts[(who, known, r)] for r in ("win", "both die", "lose")}
            total = sum(row.values())
            cells = ", ".join(f"{r} {n}" for r, n in row.items())
            print(f"  {who:11s} {known:17s} {total:5d}  ({cells})")
    if args.trades:
        table, games = trades(args.out, args.player)
        print("\nour attacks, a game on average: count; material we lose, they lose, lose to a recapture at once; net")
        for (known, kind), (n, ours, theirs, back) in sorted(table.items()):
            net = (theirs - ours - back) / max(games, 1)
            print(
                f"  {known:17s} {kind:15s} {n / games:5.2f}  {ours / games:6.1f} {theirs / games:6.1f} "
                f"{back / games:6.1f}  {net:+7.1f}"
            )
    if args.calibration:
        cal, games = calibration(args.out, args.player)
        print("\nour attacks on pieces never seen to move, by attacker: P(bomb) said / true, P(flag) said / true")
        for kind, (n, pb, bombs, pf, flags) in sorted(cal.items(), key=lambda kv: Rank[kv[0].upper()]):
            bomb, flag = f"{pb / n:.3f} / {bombs / n:.3f}", f"{pf / n:.3f} / {flags / n:.3f}"
            print(f"  {kind:11s} {int(n):5d}  bomb {bomb}   flag {flag}")
    if args.fates:
        ends, marshal, lost, games = fates(args.out, args.player)
        print(f"\n{games} games by result and ending:")
        for (result, ending), n in sorted(ends.items()):
            print(f"  {result:5s} {ending:40s} {n:4d}")
        print("our marshal: what took it, and the result")
        for taker in sorted({t for t, _ in marshal}):
            row = {r: marshal[(taker, r)] for r in ("win", "draw", "loss")}
            print(f"  {taker:38s} " + "  ".join(f"{r} {n}" for r, n in row.items()))
        print("our pieces lost attacking a bomb (miners aside), a game: " + (
            ", ".join(f"{rank} {n / games:.2f}" for rank, n in lost.most_common()) or "none"
        ))  # fmt: skip
    if args.replies:
        rows, _ = replies(args.out, args.player)
        print("\nthe opponent's turns with a capture of ours on hand: it captured; P(capture) said and Brier score")
        for label, subset in (
            ("all", rows),
            ("a revealed piece of ours it beats among them", [r for r in rows if r.sure]),
            ("none such", [r for r in rows if not r.sure]),
        ):
            if not subset:
                continue
            n = len(subset)
            made = sum(r.captured for r in subset) / n
            pol = sum(r.policy for r in subset) / n
            mod = sum(r.model for r in subset) / n
            b_pol = sum((r.policy - r.captured) ** 2 for r in subset) / n
            b_mod = sum((r.model - r.captured) ** 2 for r in subset) / n
            print(
                f"  {label:45s} {n:6d} turns: captured {made:.3f}; policy {pol:.3f} (Brier {b_pol:.3f}); "
                f"search's model {mod:.3f} (Brier {b_mod:.3f})"
            )


if __name__ == "__main__":
    main()
