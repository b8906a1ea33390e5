"""The strong Stratego player: determinized selective search over a belief about the hidden pieces.

Why this method: full information-set MCTS needs many thousands of playouts a move to
beat a sound heuristic, which plain Python cannot afford at a second a move. Stratego's
tactics are short (a capture, a recapture, a piece walking into a bomb), while its strategy
is about where the hidden pieces are. So the agent spends its budget on the belief:
it samples many complete guesses of the enemy ranks from `BeliefTracker` (real-game setup
statistics, moves seen, ranks revealed), and in each guess plays every legal move against
a model of the opponent's reply, then our recapture.

The opponent does not know our hidden ranks either, so its reply is chosen by what it can
see (our revealed ranks, which of our pieces moved, what is left of our army), while the
result is judged with the guessed true ranks: an enemy general that would attack an unknown
piece of ours attacks it in every guess, and finds a bomb or a marshal when there is one.

Values are win chances, not raw material: the material lead, relative to all material in
play, maps to a win chance through a logistic curve, and taking the flag is a win. So the flag
is worth what the game is worth, and a long shot at a possible flag with a general costs what
losing the general costs (with a discount for valuable pieces: a cheaper piece could take the
same shot a little later).
Quiet moves follow a sense of direction: toward what a piece expects to beat, toward likely
flags for cheap pieces, and out to meet enemy pieces that come near our own flag.
Deterministic for a given seed and budget.

Spec: `search` (24 guesses a move), `search:guesses=48`, `search:time=0.5` (seconds a
move, as a cap on the guesses; time makes play depend on the machine's speed).

Stratego LOTR registers a `search` of its own (`fogofwar.games.lotr.agents.search`, which takes
`search:guesses=N` too): the name plays either game (`core.agents.GameAgent`).
"""

from __future__ import annotations

import functools
import math
import random
import time
import tomllib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from fogofwar.core.protocol import Game, GameError, Observation
from fogofwar.games.stratego.agents.belief import BeliefTracker
from fogofwar.games.stratego.agents.belief_model import learned_weights
from fogofwar.games.stratego.agents.heuristic import HeuristicAgent, attack_value
from fogofwar.games.stratego.agents.knowledge import (
    BOMB,
    FLAG,
    MARSHAL,
    MINER,
    RANK_OF_NAME,
    SCOUT,
    SPY,
    VALUE,
    Knowledge,
)
from fogofwar.games.stratego.agents.setups import book_setup, human_like_setup
from fogofwar.games.stratego.observation import StrategoView, stratego_view
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import PLACE_BASE, StrategoGame, battle
from fogofwar.games.stratego.variants import Variant, get_variant
from fogofwar.grid.board import LAKES, NEIGHBOURS, RAYS, SEGMENTS, SIZE, distance

if TYPE_CHECKING:  # the module itself is imported where it is used: it loads the policy net's numba tables
    from fogofwar.games.stratego.agents.reply_model import Replies

_VAL = [VALUE[r] for r in sorted(VALUE)]  # material value by rank (0..11)
_MOVED, _UNMOVED = 12, 13  # kinds of our pieces as the opponent sees them; 0..11: a revealed rank
_MIRRORED = 14  # kinds from here on: one of our hidden pieces as the opponent's modelled belief has it (`mirror`)
_TIE = 0.5  # opponent captures this close in appeal are equally likely
_Reply = tuple[float, float, float]  # an enemy reply's (our loss, enemy loss, chance our flag falls)
_EXACT_FLOOR = 0.002  # `exact`: ranks the belief gives less than this are left out of an attack's value


QUIET = -1
"""The battle result of a move to an empty square, beside `battle_result`'s (the key of `reply_model`'s chances)."""


def battle_result(attacker: int, defender: int) -> int:
    """0: the attacker wins and moves in; 1: the defender stays; 2: both die."""
    win, survive = battle(attacker, defender)
    if win and not survive:
        return 0
    return 1 if survive else 2


_RESULT = [[battle_result(a, d) for d in range(12)] for a in range(12)]


def seen_kinds(know: Knowledge) -> tuple[list[int], Counter[int]]:
    """How the opponent sees each of our pieces, by square (its revealed rank, else _MOVED or _UNMOVED; 0 where we
    have none), and how many of each rank of ours it has seen."""
    kinds = [0] * 100
    revealed: Counter[int] = Counter()
    for sq, c in enumerate(know.cells):
        if c is not None and c.owner == know.player:
            assert c.rank is not None
            if c.revealed:
                kinds[sq] = c.rank
                revealed[c.rank] += 1
            else:
                kinds[sq] = _MOVED if c.moved else _UNMOVED
    return kinds, revealed


def _path_lengths() -> list[list[int]]:
    """Steps between any two squares around the lakes on an empty board (99 for lakes)."""
    table = []
    for start in range(100):
        dist = [99] * 100
        if start not in LAKES:
            dist[start] = 0
            frontier = [start]
            while frontier:
                nxt = []
                for sq in frontier:
                    for n in NEIGHBOURS[sq]:
                        if dist[n] == 99:
                            dist[n] = dist[sq] + 1
                            nxt.append(n)
                frontier = nxt
        table.append(dist)
    return table


PATH_LENGTHS = _path_lengths()


@dataclass
class _Context:
    """What one decision needs in every guess: tables indexed by rank, and our pieces as seen."""

    base: list[int]  # +(rank+1) our piece, -(rank+1) a known enemy piece, 0 empty or unknown
    kinds: list[int]  # our pieces as the opponent sees them: a revealed rank, _MOVED or _UNMOVED
    ours: list[list[tuple[float, float]]]  # ours[a][d]: (our loss, enemy loss) when our a attacks their d
    theirs: list[list[tuple[float, float]]]  # theirs[a][d]: the same when their a attacks our d
    perceived: list[list[float]]  # perceived[enemy rank][kind]: how good that capture looks to it
    flag_share: list[float]  # by our rank: what share of the game taking the flag with it is worth
    own: float  # our material
    enemy: float  # the enemy's material
    sharpness: float
    mobile: list[int]  # squares of enemy pieces that may move
    flag_near: frozenset[int]  # squares next to our flag
    flag: int  # our flag's square, -1 if none
    own_val: list[float]  # material value of our pieces by rank
    enemy_val: list[float]  # material value of enemy pieces by rank

    def win(self, own_loss: float = 0.0, enemy_loss: float = 0.0) -> float:
        # At least nothing left: `spy_guard` may count a loss above all the material a side has.
        return _win_chance(max(0.0, self.own - own_loss), max(0.0, self.enemy - enemy_loss), self.sharpness)


class SearchAgent(HeuristicAgent):
    name = "search"

    def __init__(self, guesses: int = 24, seconds: float | None = None) -> None:
        super().__init__(noise=0.05)
        self.guesses = guesses
        self.seconds = seconds
        self._belief = BeliefTracker()
        self._mirror = BeliefTracker()  # the opponent's belief about our pieces, as we model it (`mirror`)
        self._active = False
        self._limit = 0
        self._streak: tuple[int, int, int, int, int] | None = None  # our two-squares streak, as the rules keep it
        self._positions: Counter[int] = Counter()  # positions after our quiet moves, to avoid going round in circles
        # Weights (tuning knobs, also settable through the spec).
        self.paranoia = 0.4  # weight of the opponent's truly best capture against the modelled one
        self.sharpness = 8.0  # win chance = logistic(sharpness * material lead / material in play)
        self.flag_lure = 2.0  # how much a possible flag draws cheap pieces (share of the game at stake)
        self.flag_guard = 2.0  # how much an enemy piece next to our flag draws defenders (same)
        self.share_power = 2.0  # a valuable piece takes a shot at the flag for (cheapest / its value) ** this
        self.drive = 1.0  # weight of the potential toward targets
        self.shuffle = 3.0  # points against moving one piece back and forth, by (moves in a row - 2) squared
        self.repeat = 0.005  # win chance given up to avoid a position we made before, per time
        self.home_guard = 0.6  # how much guards watching every way into our flag are worth (share of the game)
        self.guard_top = 10  # the strongest rank that stands guard by the flag
        self.breach = 0.5  # chance our flag falls when an enemy piece we cannot take stands next to it
        self.guard_decay = 1.0  # how fast the danger to our flag falls with distance (power)
        self.marshal_value = 260.0  # material value of a marshal
        self.spy_value = 60.0  # our spy's worth while the enemy marshal lives
        self.plan_room = 0.5  # strategy adds at most this share of what is left to win (or takes of what is left)
        self.learned = 0.0  # 1: the belief's learned part (belief_model) on; off, it lost to Demon: docs/strength.md
        self.behaviour = 2.0  # how much an enemy piece's quiet move next to (or away from) ours says of its rank
        self.depth = 0  # plies of the compiled look-ahead (deep_kernel); 0: the one-reply look-ahead below
        self.nodes = 400_000  # node budget a move of the compiled look-ahead (it deepens while the budget lasts)
        self.quiescence = 6  # capture plies after the compiled look-ahead's full-width plies
        self.bold = 7  # in the compiled look-ahead, our pieces above this rank never attack a piece never seen to move
        self.blend = 1.0  # share of the compiled look-ahead in the tactics; the rest is the one-reply look-ahead's
        self.reveal = 0.0  # weight of the material each side still hides (compiled look-ahead only)
        self.spy_fear = 4.0  # the spy is this much likelier near our revealed marshal (compiled look-ahead only)
        self.prior = 0.0  # weight of log P(move) of the learned move policy (policy_model) in a move's score; 0: off
        self.prior_floor = 1e-3  # the policy's probabilities are taken as at least this (a bound on the penalty)
        self.belief_net = 0.0  # share of the belief net's (belief_net) P(rank) in the marginals; 0: off, 1: the net's
        self.material = 0.0  # share of the material values fitted to games (data/material.toml); 0: the hand-set
        self.value = 0.0  # weight of the value net's (value_model) win chance after the move in its score; 0: off
        self.mirror = 0.0  # 1: the opponent is modelled as reading our hidden pieces as our belief reads its own
        self.flag_doubt = 1.0  # P(flag) of a piece never seen to move is taken this many times (then renormalised)
        self.bomb_doubt = 1.0  # the same for P(bomb): the pieces we choose to attack are bombs more often than said
        self.dominance = 0.0  # material added to a side's strongest rank while nothing of the other side outranks it
        self.shy_top = 0.0  # one-reply search: our pieces above this rank never attack a piece never seen to move
        self.decoy = 0.0  # 1: set up a bombed decoy with the flag elsewhere on the back row (`decoy_setup`)
        self.spy_guard = 0.0  # material added to our marshal's loss when the enemy spy takes it (docs/strength.md)
        self.exact = 0.0  # 1: an attack on a hidden piece is valued over all its ranks, not the guessed one
        self.conceal = 0.0  # share of a piece's value lost when a battle shows its rank to the other side
        self.reply = 0.0  # share of the policy net's P(reply), from the opponent's view, in its reply (reply_model)
        self.reply_sure = 0.0  # with `reply`: a capture the opponent sees it wins is taken at least this likely
        self.model = 0.0  # with depth: the opponent's first reply by the policy's chances, this share (rest: the worst)
        self.book = 0.0  # K >= 1: set up with the safest of K setups drawn from the setup book (setups that won games)
        self._replies: Replies = {}  # this move's P(reply) by (our move, battle result), with `reply` or `model`

    def start(self, game: Game, player: int, rng: random.Random) -> None:
        super().start(game, player, rng)
        self._belief = BeliefTracker()
        self._belief.behaviour_factor = self.behaviour
        self._mirror = BeliefTracker()
        self._mirror.behaviour_factor = self.behaviour
        if self.learned:
            self._belief.weights = learned_weights()
        self._active = isinstance(game, StrategoGame)
        self._limit = game.two_squares if isinstance(game, StrategoGame) else 0
        self._streak = None
        self._positions = Counter()

    # --- setup -----------------------------------------------------------------------------------
    def _setup_action(self, data: StrategoView, legal: Sequence[int]) -> int:
        if not self._setup:
            variant = get_variant(str(data["variant"]))
            if self.book >= 1:
                placement = safest_book_setup(variant, self._player, self._rng, int(self.book))
            else:
                make = decoy_setup if self.decoy else guarded_setup
                placement = make(variant, self._player, self._rng)
            self._setup = [PLACE_BASE + int(r) * 100 + sq for sq, r in sorted(placement.items())]
        return super()._setup_action(data, legal)

    # --- the move --------------------------------------------------------------------------------
    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        data = stratego_view(observation.data)
        if data["phase"] == "setup" or not self._active:
            return super().act(observation, legal_actions)
        self._belief.update(data)
        know = Knowledge.from_observation(data)
        if self._streak is not None:
            cell = know.cells[self._streak[0]]
            if cell is None or cell.owner != know.player:
                self._streak = None  # the piece died in its battle
        marginals = self._doubted(know, self._corrected(data, know, self._belief.marginals(know)))
        captured_mine = Counter(RANK_OF_NAME[n] for n in data["captured"][know.player])
        captured_enemy = Counter(RANK_OF_NAME[n] for n in data["captured"][know.enemy])
        ctx = self._context(know, captured_mine, captured_enemy, self._mirrored(data) if self.mirror else None)
        self._replies = self._reply_chances(data, know, marginals, legal_actions)
        if self.depth > 0:
            tactics = self._deep_tactics(know, marginals, ctx, legal_actions)
            if self.blend < 1.0:
                shallow = self._tactics(know, marginals, ctx, legal_actions)
                b = self.blend
                tactics = {a: b * v + (1.0 - b) * shallow[a] for a, v in tactics.items()}
        else:
            tactics = self._tactics(know, marginals, ctx, legal_actions)
        strategic = self._strategic(know, marginals, ctx, legal_actions)
        board_key = tuple(-1 if c is None else c.owner * 16 + (15 if c.rank is None else c.rank) for c in know.cells)
        keys: dict[int, int] = {}
        if self.depth > 0:
            candidates = self._bold_filter(know, legal_actions, self.bold)
        elif self.shy_top:
            candidates = self._bold_filter(know, legal_actions, self.shy_top)
        else:
            candidates = legal_actions
        best, best_score = candidates[0], float("-inf")
        w0 = ctx.win()
        prior = self._policy_prior(data, candidates)
        values = self._afterstate_values(data, marginals, candidates)
        for action in candidates:
            # Strategy pays off later, if the game goes on (not in the lines where the move loses
            # the flag at once), and never takes the win chance past what is left to win or lose:
            # it saturates softly at half the way to a sure win (or loss).
            tactic = tactics[action]
            plan = strategic[action] * min(1.0, tactic / w0)
            room = self.plan_room * ((1.0 - tactic) if plan > 0 else tactic)
            plan = math.copysign(room * (1.0 - math.exp(-abs(plan) / room)), plan) if room > 0 else 0.0
            score = tactic + plan + self._rng.random() * 1e-9
            if prior:
                score += self.prior * math.log(max(self.prior_floor, prior.get(action, 0.0)))
            if values:
                score += self.value * values.get(action, 0.0)
            src, dst = divmod(action, 100)
            if know.cells[dst] is None:
                keys[action] = key = hash((board_key, src, dst))
                score -= self.repeat * self._positions[key]
            if score > best_score:
                best, best_score = action, score
        if best in keys:
            self._positions[keys[best]] += 1
        src, dst = divmod(best, 100)
        self._last = {dst: src}
        self._streak = (dst, *_extend_streak(self._streak, src, dst))
        return best

    def _policy_prior(self, data: StrategoView, candidates: Sequence[int]) -> dict[int, float]:
        """P(move) of the learned policy over the candidates, or {} when `prior` is 0 (or no net ships)."""
        if self.prior <= 0:
            return {}
        from fogofwar.games.stratego.agents.policy_model import shipped_policy

        net = shipped_policy()
        if net is None:
            return {}
        return net.move_probabilities(data, candidates)

    def _reply_chances(
        self, data: StrategoView, know: Knowledge, marginals: dict[int, dict[int, float]], legal: Sequence[int]
    ) -> Replies:
        """The policy net's P(reply) after each of our moves from the opponent's view (`reply_model`), or {} when
        neither `reply` nor the compiled look-ahead's `model` is on (or no net ships)."""
        if self.reply <= 0 and not (self.depth > 0 and self.model > 0):
            return {}
        from fogofwar.games.stratego.agents.policy_model import shipped_policy
        from fogofwar.games.stratego.agents.reply_model import reply_chances

        net = shipped_policy()
        if net is None:
            return {}
        return reply_chances(net, know, marginals, data["recent_moves"], legal)

    def _afterstate_values(
        self, data: StrategoView, marginals: dict[int, dict[int, float]], candidates: Sequence[int]
    ) -> dict[int, float]:
        """The value net's win chance after each candidate move, or {} when `value` is 0 (or no net ships)."""
        if self.value <= 0:
            return {}
        from fogofwar.games.stratego.agents.value_model import shipped_value
        from fogofwar.games.stratego.sim.planes import planes_from_observation

        net = shipped_value()
        if net is None:
            return {}
        planes = planes_from_observation(data, get_variant(str(data["variant"])))
        return net.move_values(planes, int(data["player"]), [a for a in candidates if a < 10000], marginals)

    def _corrected(
        self, data: StrategoView, know: Knowledge, marginals: dict[int, dict[int, float]]
    ) -> dict[int, dict[int, float]]:
        """The belief's marginals, mixed with the belief net's correction of them by the share `belief_net`."""
        if self.belief_net <= 0:
            return marginals
        from fogofwar.games.stratego.agents.belief_net import shipped_belief_net

        net = shipped_belief_net()
        if net is None:
            return marginals
        better = net.marginals(data, self._belief, know, marginals)
        w = min(1.0, self.belief_net)
        return {sq: {r: (1.0 - w) * p + w * better[sq][r] for r, p in row.items()} for sq, row in marginals.items()}

    def _bold_filter(self, know: Knowledge, legal_actions: Sequence[int], top: float) -> Sequence[int]:
        """The legal moves but our pieces above rank `top` attacking a piece never seen to move (a bomb
        there costs too much), unless nothing else is left: the rule the kernel keeps below the root (`bold`),
        and at the root of the one-reply search with `shy_top`."""
        shy = _shy_squares(know)
        out = []
        for action in legal_actions:
            src, dst = divmod(action, 100)
            mover = know.cells[src]
            if dst in shy and mover is not None and mover.rank is not None and mover.rank > top:
                continue
            out.append(action)
        return out or legal_actions

    def _doubted(self, know: Knowledge, marginals: dict[int, dict[int, float]]) -> dict[int, dict[int, float]]:
        """The marginals with P(flag) and P(bomb) of pieces never seen to move scaled by `flag_doubt` and
        `bomb_doubt`. Why: the search attacks the unmoved pieces that look least like bombs and most like the
        flag, so among those it picks the belief errs one way (docs/strength.md has the figures)."""
        if self.flag_doubt == 1.0 and self.bomb_doubt == 1.0:
            return marginals
        out = {}
        for sq, row in marginals.items():
            cell = know.cells[sq]
            if cell is not None and not cell.moved:
                scale = {FLAG: self.flag_doubt, BOMB: self.bomb_doubt}
                row = _normalised({r: p * scale.get(r, 1.0) for r, p in row.items()}) or row
            out[sq] = row
        return out

    def _mirrored(self, data: StrategoView) -> dict[int, dict[int, float]]:
        """What the opponent may believe of each of our hidden pieces: our own belief tracker run on the
        observation the opponent has of us (`mirrored_view`)."""
        view = mirrored_view(data)
        self._mirror.update(view)
        return self._mirror.marginals(Knowledge.from_observation(view))

    def _context(
        self,
        know: Knowledge,
        captured_mine: Counter[int],
        captured_enemy: Counter[int],
        mirrored: dict[int, dict[int, float]] | None = None,
    ) -> _Context:
        me, enemy = know.player, know.enemy
        roster = {int(r): n for r, n in know.variant.roster}
        enemy_left = {r: n - captured_enemy.get(r, 0) for r, n in roster.items()}
        own_left = {r: n - captured_mine.get(r, 0) for r, n in roster.items()}
        own_val = self._material_values()
        enemy_val = list(own_val)
        own_val[MARSHAL] = enemy_val[MARSHAL] = self.marshal_value
        if self.dominance > 0:
            # The strongest piece on the board roams free; losing it hands that freedom to the other side.
            own_top = max((r for r, n in own_left.items() if n > 0 and r not in (FLAG, BOMB)), default=-1)
            enemy_top = max((r for r, n in enemy_left.items() if n > 0 and r not in (FLAG, BOMB)), default=-1)
            if own_top >= enemy_top >= 0:
                own_val[own_top] += self.dominance
            if enemy_top >= own_top >= 0:
                enemy_val[enemy_top] += self.dominance
        if enemy_left.get(MARSHAL, 0) > 0:
            own_val[SPY] = max(own_val[SPY], self.spy_value)
        if own_left.get(MARSHAL, 0) > 0:
            enemy_val[SPY] = max(enemy_val[SPY], self.spy_value)
        ours = [[(0.0, 0.0)] * 12 for _ in range(12)]
        theirs = [[(0.0, 0.0)] * 12 for _ in range(12)]
        for a in range(12):
            for d in range(12):
                res = _RESULT[a][d]
                ours[a][d] = (own_val[a] if res else 0.0, enemy_val[d] if res != 1 else 0.0)
                theirs[a][d] = (own_val[d] if res != 1 else 0.0, enemy_val[a] if res else 0.0)
        if self.spy_guard > 0:
            # Many small risks add up: a marshal that takes each 5-15% chance of the spy over a game loses it
            # in a third of the games (docs/strength.md), so the spy's capture costs more than the material.
            theirs[SPY][MARSHAL] = (own_val[MARSHAL] + self.spy_guard, 0.0)

        base = [0] * 100
        kinds, own_revealed = seen_kinds(know)
        own_material = 0.0
        cheapest = float("inf")
        for sq, c in enumerate(know.cells):
            if c is None:
                continue
            if c.owner == me:
                assert c.rank is not None
                base[sq] = c.rank + 1
                if c.rank != FLAG:
                    own_material += own_val[c.rank]
                if c.rank not in (FLAG, BOMB, SPY):
                    cheapest = min(cheapest, own_val[c.rank])
            elif c.rank is not None:
                base[sq] = -(c.rank + 1)
        enemy_material = sum(enemy_val[r] * n for r, n in enemy_left.items() if r != FLAG)
        floor = max(30.0, cheapest if cheapest < float("inf") else 30.0)
        flag_share = [min(1.0, floor / max(own_val[r], 1.0)) ** self.share_power for r in range(12)]
        mobile = [
            sq for sq, c in enumerate(know.cells) if c is not None and c.owner == enemy and c.rank not in (FLAG, BOMB)
        ]
        flag = know.own_flag()
        perceived = self._perceived_scores(know, captured_mine, own_revealed, kinds)
        if mirrored:
            # Each hidden piece of ours gets two columns: as the opponent's belief has it, and the same once
            # it has moved (no bomb, no flag).
            for sq, dist in sorted(mirrored.items()):
                if kinds[sq] < _MOVED:
                    continue
                moved = _normalised({r: p for r, p in dist.items() if r not in (BOMB, FLAG)})
                kinds[sq] = _MIRRORED + 2 * ((len(perceived[0]) - _MIRRORED) // 2)
                for ry in range(12):
                    perceived[ry].append(attack_value(ry, dist) + 2.0 if dist else -1.0)
                    perceived[ry].append(attack_value(ry, moved) + 2.0 if moved else -1.0)
        return _Context(
            base=base,
            kinds=kinds,
            ours=ours,
            theirs=theirs,
            perceived=perceived,
            flag_share=flag_share,
            own=own_material,
            enemy=enemy_material,
            sharpness=self.sharpness,
            mobile=mobile,
            flag_near=frozenset(NEIGHBOURS[flag]) if flag is not None else frozenset(),
            flag=flag if flag is not None else -1,
            own_val=own_val,
            enemy_val=enemy_val,
        )

    def _material_values(self) -> list[float]:
        """Material value by rank: the hand-set table, or a share `material` of the one fitted to games."""
        if self.material <= 0:
            return list(_VAL)
        fitted = _fitted_values()
        w = min(1.0, self.material)
        return [(1.0 - w) * a + w * b for a, b in zip(_VAL, fitted, strict=True)]

    # --- tactics: many guesses, a short look ahead in each --------------------------------------------
    def _tactics(
        self,
        know: Knowledge,
        marginals: dict[int, dict[int, float]],
        ctx: _Context,
        legal_actions: Sequence[int],
    ) -> dict[int, float]:
        totals = dict.fromkeys(legal_actions, 0.0)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        # `exact`: an attack on a hidden piece is valued over every rank the belief gives it, in each guess.
        hidden_targets: dict[int, list[tuple[int, float]]] = {}
        if self.exact:
            hidden = set(know.unknown_enemy_squares()) & marginals.keys()
            for action in legal_actions:
                dst = action % 100
                if dst in hidden:
                    hidden_targets[action] = [(r, p) for r, p in marginals[dst].items() if p >= _EXACT_FLOOR]
        done = 0
        for _ in range(max(1, self.guesses)):
            if deadline is not None and done and time.perf_counter() > deadline:
                break
            board = self._world(know, marginals, ctx)
            mobile = [sq for sq in ctx.mobile if board[sq] not in (-1 - FLAG, -1 - BOMB)]
            for action in legal_actions:
                ranks = hidden_targets.get(action)
                if ranks:
                    totals[action] += self._play_out_over(board, ctx, mobile, action, ranks)
                else:
                    totals[action] += self._play_out(board, ctx, mobile, action)
            done += 1
        return {a: t / done for a, t in totals.items()}

    def _play_out_over(
        self, board: list[int], ctx: _Context, mobile: list[int], action: int, ranks: list[tuple[int, float]]
    ) -> float:
        """`_play_out` of an attack on a hidden piece, averaged over the ranks the belief gives it (`exact`).

        Why: with a few dozen guesses the share of bombs a piece gets is noisy, and the search picks the attack whose
        guesses came out best: the pieces it attacked were bombs more often than the belief said."""
        dst = action % 100
        guessed = board[dst]
        others = [sq for sq in mobile if sq != dst]
        total = weight = 0.0
        for r, p in ranks:
            board[dst] = -(r + 1)
            total += p * self._play_out(board, ctx, others if r in (FLAG, BOMB) else [*others, dst], action)
            weight += p
        board[dst] = guessed
        return total / weight  # `ranks` is never empty (`_tactics`), each of its chances at least _EXACT_FLOOR

    def _play_out(self, board: list[int], ctx: _Context, mobile: list[int], action: int) -> float:
        """Win chance after `action`, the modelled enemy reply and our recapture, in one guessed world."""
        src, dst = divmod(action, 100)
        mover, target = board[src], board[dst]
        rank = mover - 1
        own_loss = enemy_loss = 0.0
        board[src] = 0
        outcome = QUIET
        if target < 0:
            t_rank = -target - 1
            if t_rank == FLAG:
                board[src] = mover
                w0 = ctx.win()
                return w0 + ctx.flag_share[rank] * (1.0 - w0)
            own_loss, enemy_loss = ctx.ours[rank][t_rank]
            result = outcome = _RESULT[rank][t_rank]
            if result == 0:
                board[dst] = mover
                if self.conceal and ctx.kinds[src] >= _MOVED:  # the battle shows our hidden piece to the enemy
                    own_loss += self.conceal * ctx.own_val[rank]
            elif result == 2:
                board[dst] = 0
            elif self.conceal and ctx.base[dst] == 0:  # their hidden piece won: now we know it
                enemy_loss += self.conceal * ctx.enemy_val[t_rank]
            moved_kind = rank
        else:
            board[dst] = mover
            kind = ctx.kinds[src]
            if kind < _MOVED:
                moved_kind = kind
            elif distance(src, dst) > 1:
                moved_kind = rank  # only a scout goes further than one square: it shows its rank
            else:
                moved_kind = _MOVED if kind < _MIRRORED else kind | 1
        lanes = _flag_lanes(board, ctx.flag) if ctx.flag >= 0 and self.breach > 0 else {}
        reply = self._replies.get((action, outcome)) if self._replies else None
        chosen, worst, weighed = self._enemy_reply(board, ctx, mobile, dst, moved_kind, lanes, reply)
        board[src], board[dst] = mover, target
        w_model = 0.0
        for o, e, risk in chosen:
            w_model += (1.0 - risk) * ctx.win(own_loss + o, enemy_loss + e)
        w_model /= len(chosen)
        if reply is not None:
            # The opponent's reply as the policy net sees it from its side: each capture (or step next to our
            # flag) by its chance, and no loss in the rest of the replies.
            w_net = rest = 0.0
            scale = 1.0 / max(1.0, sum(chance for chance, _ in weighed))  # it makes one reply
            for chance, (o, e, risk) in weighed:
                w_net += scale * chance * (1.0 - risk) * ctx.win(own_loss + o, enemy_loss + e)
                rest += scale * chance
            w_net += max(0.0, 1.0 - rest) * ctx.win(own_loss, enemy_loss)
            w_model = (1.0 - self.reply) * w_model + self.reply * w_net
        o, e, risk = worst
        w_worst = (1.0 - risk) * ctx.win(own_loss + o, enemy_loss + e)
        p = self.paranoia
        return (1.0 - p) * w_model + p * w_worst

    def _enemy_reply(
        self,
        board: list[int],
        ctx: _Context,
        mobile: list[int],
        moved_to: int,
        moved_kind: int,
        lanes: dict[int, list[int]],
        reply: dict[int, float] | None = None,
    ) -> tuple[list[_Reply], _Reply, list[tuple[float, _Reply]]]:
        """(modelled, worst, weighed) results of the enemy's reply as (our loss, enemy loss, chance our flag falls).

        The modelled replies are the captures that look best to the opponent (ties all count).
        A capture next to our flag that we cannot answer, or a step next to it, puts the flag at risk.
        `weighed`: with `reply` (P of each enemy move, `reply_model`), every capture and step next to our flag
        with its chance."""
        best_ps = 0.0
        chosen: list[_Reply] = []
        weighed: list[tuple[float, _Reply]] = []
        worst = (0.0, 0.0, 0.0)
        worst_net = 0.0
        kinds, perceived, theirs = ctx.kinds, ctx.perceived, ctx.theirs
        flag_near = ctx.flag_near
        breach = self.breach
        for y in mobile:
            code = board[y]
            if code >= 0:
                continue  # captured by our move
            ry = -code - 1
            if ry == SCOUT:
                targets = []
                for ray in RAYS[y]:
                    for n in ray:
                        c = board[n]
                        if c:
                            if c > 0:
                                targets.append(n)
                            break
                        if n in flag_near and breach > 0 and not _can_remove(board, y, n, code):
                            value = (0.0, 0.0, breach)
                            if -breach * 2000.0 < worst_net:
                                worst, worst_net = value, -breach * 2000.0
                            if best_ps < 1.0:
                                best_ps, chosen = 1.0, [value]
                            if reply:
                                weighed.append((reply.get(y * 100 + n, 0.0), value))
                        elif n in lanes and -breach * 2000.0 < worst_net and not _can_answer(board, y, n, lanes[n]):
                            # A scout lining up on our flag: next move it strikes unless we block or take it.
                            worst, worst_net = (0.0, 0.0, breach), -breach * 2000.0
            else:
                targets = []
                for n in NEIGHBOURS[y]:
                    c = board[n]
                    if c > 0:
                        targets.append(n)
                    elif c == 0 and n in flag_near and breach > 0 and not _can_remove(board, y, n, code):
                        # A step next to our flag that we cannot answer at once puts the flag at risk.
                        value = (0.0, 0.0, breach)
                        if -breach * 2000.0 < worst_net:
                            worst, worst_net = value, -breach * 2000.0
                        if best_ps < 1.0:
                            best_ps, chosen = 1.0, [value]
                        if reply:
                            weighed.append((reply.get(y * 100 + n, 0.0), value))
            for n in targets:
                rx = board[n] - 1
                ps = perceived[ry][moved_kind if n == moved_to else kinds[n]]
                if rx == FLAG:
                    value = (0.0, 0.0, 1.0)
                else:
                    o, e = theirs[ry][rx]
                    risk = 0.0
                    if _RESULT[ry][rx] == 0:
                        back = self._recapture(board, ctx, y, n, code)
                        if back is not None:
                            o, e = o + back[0], e + back[1]
                        elif n in flag_near and not _can_remove(board, y, n, code):
                            risk = breach
                    value = (o, e, risk)
                if reply:
                    chance = reply.get(y * 100 + n, 0.0)
                    kind = moved_kind if n == moved_to else kinds[n]
                    if kind < _MOVED and _RESULT[ry][rx] == 0:  # it sees our piece and knows it wins
                        chance = max(chance, self.reply_sure)
                    weighed.append((chance, value))
                net = value[1] - value[0] - value[2] * 2000.0
                if net < worst_net:
                    worst, worst_net = value, net
                if ps > best_ps + _TIE:
                    best_ps, chosen = ps, [value]
                elif ps >= best_ps - _TIE and ps > 0:
                    chosen.append(value)
                    best_ps = max(best_ps, ps)
        if not chosen:
            return [(0.0, 0.0, 0.0)], worst, weighed
        return chosen, worst, weighed

    @staticmethod
    def _recapture(board: list[int], ctx: _Context, frm: int, at: int, code: int) -> tuple[float, float] | None:
        """Our best capture of the enemy piece that just took ours on `at` (it came from `frm`)."""
        ry = -code - 1
        saved_frm, saved_at = board[frm], board[at]
        board[frm], board[at] = 0, code
        best: tuple[float, float] | None = None
        best_net = 0.0
        ours = ctx.ours
        for n in NEIGHBOURS[at]:
            c = board[n]
            if c > 0 and c != FLAG + 1 and c != BOMB + 1:
                v = ours[c - 1][ry]
                if v[1] - v[0] > best_net:
                    best, best_net = v, v[1] - v[0]
        if _our_scout_in_line(board, at):
            v = ours[SCOUT][ry]
            if v[1] - v[0] > best_net:
                best, best_net = v, v[1] - v[0]
        board[frm], board[at] = saved_frm, saved_at
        return best

    def _deep_tactics(
        self,
        know: Knowledge,
        marginals: dict[int, dict[int, float]],
        ctx: _Context,
        legal_actions: Sequence[int],
    ) -> dict[int, float]:
        """Win chance of each move by the compiled alpha-beta in sampled worlds (`deep_kernel`), deepened
        one ply at a time while the node budget lasts; the deepest search that finished counts.

        The kernel (and numba) is imported here, not at the top: only `search:depth=N` needs it, and every
        front end that lists the agents imports this module."""
        from fogofwar.games.stratego.agents.deep_kernel import modelled_root_values

        marginals = self._fear_the_spy(know, marginals)
        worlds = np.array([self._world(know, marginals, ctx) for _ in range(max(1, self.guesses))], np.int64)
        shy = np.zeros(100, np.int64)
        shy[list(_shy_squares(know))] = 1
        hid = np.zeros(100, np.int64)
        for sq, c in enumerate(know.cells):
            if c is not None:
                hid[sq] = c.rank is None if c.owner == know.enemy else not c.revealed
        roots = np.array(legal_actions, np.int64)
        own_val = np.array(ctx.own_val, np.float64)
        enemy_val = np.array(ctx.enemy_val, np.float64)
        replies, first = self._reply_table(legal_actions)
        best: np.ndarray | None = None
        left = int(self.nodes)
        for depth in range(first, int(self.depth) + 1):
            out, used, aborted = modelled_root_values(
                worlds,
                shy,
                hid,
                roots,
                own_val,
                enemy_val,
                ctx.sharpness,
                WIN_MARGIN,
                depth,
                int(self.quiescence),
                left,
                int(self.bold),
                float(self.reveal),
                replies,
                1.0 - min(1.0, float(self.model)),
            )
            if aborted:
                break
            best = out
            left -= int(used)
            if left <= 0:
                break
        if best is None:
            return self._tactics(know, marginals, ctx, legal_actions)
        means = best.mean(axis=0)
        return {a: float(means[i]) for i, a in enumerate(legal_actions)}

    def _reply_table(self, roots: Sequence[int]) -> tuple[npt.NDArray[np.float64], int]:
        """(table, first depth) for the compiled look-ahead: with `model` on, table[i, k, c] is the policy's chance
        (`reply_model`) of the opponent's compact move c after root i when its battle ended k (3: no battle), and
        the search starts two plies deep (the modelled reply needs one ply after it); otherwise an empty table."""
        if not (self.model > 0 and self._replies):
            return np.zeros((0, 4, 1)), 1
        from fogofwar.games.stratego.sim.tables import COMPACT_OF_MOVE, NUM_COMPACT_ACTIONS  # loads numba: lazily

        table = np.zeros((len(roots), 4, NUM_COMPACT_ACTIONS))
        for i, action in enumerate(roots):
            for k, outcome in enumerate((0, 1, 2, QUIET)):
                for reply, chance in self._replies.get((action, outcome), {}).items():
                    c = int(COMPACT_OF_MOVE[reply])
                    if c >= 0:
                        table[i, k, c] = chance
        return table, 2

    def _world(self, know: Knowledge, marginals: dict[int, dict[int, float]], ctx: _Context) -> list[int]:
        """One sampled world: `ctx.base` (our pieces, the enemy's known ones) with a guess of every hidden rank."""
        board = ctx.base.copy()
        for sq, r in self._belief.sample(know, marginals, self._rng).items():
            board[sq] = -(r + 1)
        return board

    def _fear_the_spy(self, know: Knowledge, marginals: dict[int, dict[int, float]]) -> dict[int, dict[int, float]]:
        """Marginals with the spy `spy_fear` times likelier next to (or two steps from) our revealed marshal.

        Demon of Ignorance took our revealed marshal with its unmoved spy in 8 of 20 games: an opponent that
        knows where our marshal is keeps its spy where the marshal is going, which setup statistics miss."""
        if self.spy_fear == 1.0 or know.unknown_pool.get(SPY, 0) <= 0:
            return marginals
        marshals = [
            sq
            for sq, c in enumerate(know.cells)
            if c is not None and c.owner == know.player and c.rank == MARSHAL and c.revealed
        ]
        if not marshals:
            return marginals
        out = dict(marginals)
        for sq, row in marginals.items():
            if SPY in row and min(PATH_LENGTHS[m][sq] for m in marshals) <= 2:
                new = dict(row)
                new[SPY] *= self.spy_fear
                total = sum(new.values())
                out[sq] = {r: p / total for r, p in new.items()}
        return out

    # --- what the opponent sees of us ---------------------------------------------------------------
    def _perceived_scores(
        self, know: Knowledge, captured_mine: Counter[int], own_revealed: Counter[int], kinds: list[int]
    ) -> list[list[float]]:
        """perceived[enemy rank][kind]: how good attacking one of our pieces looks to the opponent.

        The opponent is taken to weigh a capture by its expected material result over what our
        piece may be, from what it has seen (a revealed rank; a moved piece is no bomb or flag)."""
        pool: Counter[int] = Counter({int(r): n for r, n in know.variant.roster})
        pool.subtract(captured_mine)
        pool.subtract(own_revealed)
        own = know.own_squares()
        unknown = sum(1 for sq in own if kinds[sq] >= _MOVED)
        unmoved = sum(1 for sq in own if kinds[sq] == _UNMOVED)
        boost = unknown / max(unmoved, 1)
        moved = {r: float(n) for r, n in pool.items() if n > 0 and r not in (BOMB, FLAG)}
        still = {r: float(n) * (boost if r in (BOMB, FLAG) else 1.0) for r, n in pool.items() if n > 0}
        dists = [_normalised(moved), _normalised(still)]
        table = []
        for ry in range(12):
            row = [attack_value(ry, {k: 1.0}) for k in range(12)]
            row += [attack_value(ry, d) + 2.0 if d else -1.0 for d in dists]
            table.append(row)
        return table

    # --- strategy: where quiet moves lead -------------------------------------------------------------
    def _strategic(
        self,
        know: Knowledge,
        marginals: dict[int, dict[int, float]],
        ctx: _Context,
        legal_actions: Sequence[int],
    ) -> dict[int, float]:
        """Win chance for where a move takes a piece: nearer to what it can beat (material, by the
        slope of the win chance), nearer to a likely flag (cheap pieces), out to meet enemy pieces
        that come near our flag; not straight back, not back and forth into the two-squares rule."""
        w0 = ctx.win()
        slope = (ctx.win(enemy_loss=10.0) - w0) / 10.0  # win chance per point of enemy material taken
        dists = {
            sq: marginals.get(sq) or know.rank_distribution(sq)
            for sq, c in enumerate(know.cells)
            if c is not None and c.owner == know.enemy
        }
        still = {sq for sq in dists if not know.cells[sq].moved}  # type: ignore[union-attr]
        # A piece walled in by known bombs is out of reach of all but miners.
        walled = {sq for sq in still if all(_is_known(know, n, know.enemy, BOMB) for n in NEIGHBOURS[sq])}
        threats = self._flag_threats(know, dists)
        # Small armies race for the flags (each piece counts for more in attack than in defence);
        # big ones can afford to hold the home front. Found by play against the heuristic.
        tempo = math.sqrt(40.0 / max(know.variant.army_size, 1))
        lure = self.flag_lure * tempo * (1.0 - w0)
        guard = self.flag_guard / tempo * w0
        # Home guards: for each square next to our flag, how soon one of our fighting pieces could
        # take an enemy piece that gets there (0: it stands next to that square already).
        guards = [
            sq
            for sq, c in enumerate(know.cells)
            if c is not None and c.owner == know.player and c.rank is not None and 4 <= c.rank <= self.guard_top
        ]
        cover: dict[int, list[tuple[int, int]]] = {}
        if self.home_guard > 0:
            for n in ctx.flag_near:
                cover[n] = sorted((max(0, PATH_LENGTHS[g][n] - 1), g) for g in guards)[:2] or [(99, -1)]
        appeal: dict[int, list[tuple[int, float, bool]]] = {}
        potentials: dict[tuple[int, int], float] = {}
        out: dict[int, float] = {}
        for action in legal_actions:
            src, dst = divmod(action, 100)
            cell = know.cells[src]
            assert cell is not None and cell.rank is not None
            piece = cell.rank
            if piece not in appeal:
                share = ctx.flag_share[piece]
                row = []
                for sq, dist in dists.items():
                    if sq in walled and piece != MINER:
                        continue
                    v = slope * self._appeal(piece, dist, ctx) + lure * share * dist.get(FLAG, 0.0)
                    if sq in threats:
                        v += guard * threats[sq] * _win_probability(piece, dist)
                    if v > 0:
                        row.append((sq, v, sq in still))
                appeal[piece] = row
            score = 0.0
            target = know.cells[dst]
            if target is None:
                gain = _potential(piece, dst, appeal[piece], potentials) - _potential(
                    piece, src, appeal[piece], potentials
                )
                score += self.drive * gain
                if self._last.get(src) == dst:
                    score -= 1.5 * slope
                if piece == SCOUT and distance(src, dst) > 1:
                    score -= 1.0 * slope  # a long move gives the scout away
                if cover and src in guards:
                    change = 0.0
                    for n, best in cover.items():
                        rest = best[0][0] if best[0][1] != src else (best[1][0] if len(best) > 1 else 99)
                        after = min(rest, max(0, PATH_LENGTHS[dst][n] - 1))
                        change += _COVER[min(after, 3)] - _COVER[min(best[0][0], 3)]
                    score += self.home_guard * w0 * change / len(cover)
                if self._limit and self._streak is not None and self._streak[0] == src:
                    count = _extend_streak(self._streak, src, dst)[3]
                    if count >= 3:
                        # Back and forth: the two-squares rule will soon pin the piece (and draws loom).
                        score -= self.shuffle * (count - 2) ** 2 * slope
            else:
                if target.rank is None:
                    score += 1.0 * slope  # what it learns is worth something
                score += guard * threats.get(dst, 0.0) * _win_probability(piece, dists[dst])
            out[action] = score
        return out

    def _appeal(self, piece: int, dist: dict[int, float], ctx: _Context) -> float:
        """Material `piece` expects from attacking an enemy piece of rank distribution `dist`
        (the flag aside: it is worth the game, not material)."""
        total = 0.0
        ours = ctx.ours[piece]
        for rank, p in dist.items():
            if rank != FLAG:
                total += p * (ours[rank][1] - ours[rank][0])
        return total

    def _flag_threats(self, know: Knowledge, dists: dict[int, dict[int, float]]) -> dict[int, float]:
        """Danger to our flag from each enemy piece: more the nearer it is, by a way it can take."""
        flag = know.own_flag()
        if flag is None or self.flag_guard <= 0:
            return {}
        ways = flag_ways(know, flag)
        lanes = _scout_ways(know, flag)
        out: dict[int, float] = {}
        for sq, dist in dists.items():
            t = 0.0
            for r, p in dist.items():
                if r in (FLAG, BOMB):
                    continue
                d = ways[1 if r == MINER else 0][sq]
                if r == SCOUT:
                    d = min(d, lanes.get(sq, 99))
                if d < 99:
                    t += p / d**self.guard_decay
            if t > 0:
                out[sq] = t
        return out


_COVER = (1.0, 0.5, 0.25, 0.0)
"""How well a square next to our flag is watched, by the moves our nearest guard needs to strike it."""

_DECAY = [0.75 ** max(d - 1, 0) for d in range(100)]
"""How much of a target's value a piece `d` steps away holds: all of it next to it, less each step."""


def _potential(
    piece: int, sq: int, appeal: list[tuple[int, float, bool]], cache: dict[tuple[int, int], float]
) -> float:
    """The best appeal within reach of `sq`, shrinking with distance. A piece that moves can step
    away, so next to it is no better than two squares off (being next to it on its turn is worse)."""
    key = (piece, sq)
    if key not in cache:
        best = 0.0
        path = PATH_LENGTHS[sq]
        for tsq, v, still in appeal:
            d = path[tsq]
            if not still and d < 2:
                d = 2
            x = v * _DECAY[d]
            if x > best:
                best = x
        cache[key] = best
    return cache[key]


def mirrored_view(data: StrategoView) -> StrategoView:
    """The opponent's observation of us as far as our own view holds it: our hidden ranks blanked, the seat turned
    (its own hidden pieces stay hidden: a belief about our pieces does not need them). A belief tracker run on it
    models what the opponent may believe of our army."""
    me = int(data["player"])
    board: list[Any] = []
    for cell in data["board"]:
        if isinstance(cell, dict) and cell["owner"] == me and not cell["revealed"]:
            cell = {**cell, "rank": None}
        board.append(cell)
    return cast(StrategoView, {**data, "player": 1 - me, "board": board})


def guarded_setup(variant: Variant, player: int, rng: random.Random, candidates: int = 200) -> dict[int, Rank]:
    """The safest of many human-like setups: the flag far back, in a corner, behind bombs, no way to it
    left open (a few milliseconds for all of them, once a game)."""
    best: dict[int, Rank] = {}
    best_score = float("-inf")
    for _ in range(candidates):
        placement = human_like_setup(variant, player, rng)
        score = _setup_safety(placement, player)
        if score > best_score:
            best, best_score = placement, score
    return best


def safest_book_setup(variant: Variant, player: int, rng: random.Random, candidates: int) -> dict[int, Rank]:
    """The safest (as `guarded_setup` judges) of `candidates` setups drawn from the setup book (setups that won
    Gravon games, whole); the guarded setup when the book has none for the variant."""
    drawn = [book_setup(variant, player, rng) for _ in range(max(1, candidates))]
    book = [p for p in drawn if p is not None]
    if not book:
        return guarded_setup(variant, player, rng)
    return max(book, key=lambda p: _setup_safety(p, player))


_DECOY_COST = {Rank.SERGEANT: 0.0, Rank.LIEUTENANT: 0.0, Rank.SCOUT: 0.0, Rank.CAPTAIN: 0.5, Rank.MINER: 2.0}
"""Pieces that may stand in the bombed ring in the flag's place, and what giving each to it costs (a miner is
wanted in the game)."""


def decoy_setup(variant: Variant, player: int, rng: random.Random, candidates: int = 200) -> dict[int, Rank]:
    """The guarded setup with a low piece in the flag's bombed ring and the flag on the back row elsewhere,
    next to no bomb and among pieces that stop scouts. Programs (and people) read a bomb ring on the back row
    as the flag: their miners go there, and the flag is not there."""
    placement = guarded_setup(variant, player, rng, candidates)
    flags = [sq for sq, r in placement.items() if r == Rank.FLAG]
    if len(flags) != 1 or variant.count(Rank.BOMB) < 3:
        return placement
    flag = flags[0]
    back_row = flag // SIZE
    options: list[tuple[float, int]] = []
    for sq, r in placement.items():
        if sq // SIZE != back_row or r not in _DECOY_COST or distance(sq, flag) < 3:
            continue
        bombs = sum(placement.get(n) == Rank.BOMB for n in NEIGHBOURS[sq])
        score = 1.0 * (4 - len(NEIGHBOURS[sq])) - 3.0 * bombs - _DECOY_COST[r] + rng.random()
        for n in NEIGHBOURS[sq]:
            if placement.get(n) not in (Rank.SPY, Rank.SCOUT, Rank.BOMB, None):
                score += 1.5
        if bombs < len(NEIGHBOURS[sq]):  # never a ring of its own
            options.append((score, sq))
    if not options:
        return placement
    _, spot = max(options)
    placement[flag], placement[spot] = placement[spot], Rank.FLAG
    return placement


def _setup_safety(placement: dict[int, Rank], player: int) -> float:
    flags = [sq for sq, r in placement.items() if r == Rank.FLAG]
    if len(flags) != 1:
        return 0.0
    flag = flags[0]
    row = flag // SIZE
    depth = row if player == 0 else SIZE - 1 - row  # 0: the back row
    front = flag + (SIZE if player == 0 else -SIZE)
    score = -3.0 * depth + 1.0 * (4 - len(NEIGHBOURS[flag]))
    for n in NEIGHBOURS[flag]:
        r = placement.get(n)
        if r == Rank.BOMB:
            score += 2.5 + (1.0 if n == front else 0.0)
        elif r is not None and r not in (Rank.SPY, Rank.SCOUT):
            score += 1.5  # a piece that stops scouts stands by the flag
        elif r is None:
            score -= 3.0  # an open way in: a scout runs to it and strikes next move (Barrage's empty back row)
    return score


def _shy_squares(know: Knowledge) -> set[int]:
    """Squares of enemy pieces never seen to move or fight (their rank unknown, unmoved): maybe bombs."""
    return {
        sq
        for sq, c in enumerate(know.cells)
        if c is not None and c.owner == know.enemy and c.rank is None and not c.moved
    }


def _flag_lanes(board: list[int], flag: int) -> dict[int, list[int]]:
    """Empty squares in open line with our flag, two or more away: a scout there can strike the flag.
    Each maps to the squares between it and the flag (where a piece of ours would block)."""
    out: dict[int, list[int]] = {}
    for ray in RAYS[flag]:
        for k, sq in enumerate(ray):
            if board[sq]:
                break
            if k:
                out[sq] = list(ray[:k])
    return out


def _our_scout_in_line(board: list[int], at: int) -> bool:
    """Whether one of our scouts stands in open line with `at` (it can run there and strike)."""
    for ray in RAYS[at]:
        for n in ray:
            c = board[n]
            if c:
                if c == SCOUT + 1:
                    return True
                break
    return False


def _can_remove(board: list[int], frm: int, at: int, code: int) -> bool:
    """Whether one of our pieces can strike down the enemy piece that moved from `frm` to `at`
    (a trade will do: next to our flag, what counts is that it goes)."""
    ry = -code - 1
    saved_frm, saved_at = board[frm], board[at]
    board[frm], board[at] = 0, code
    try:
        for n in NEIGHBOURS[at]:
            c = board[n]
            if c > 0 and c - 1 not in (FLAG, BOMB) and _RESULT[c - 1][ry] != 1:
                return True
        return ry != BOMB and _RESULT[SCOUT][ry] != 1 and _our_scout_in_line(board, at)
    finally:
        board[frm], board[at] = saved_frm, saved_at


def _can_answer(board: list[int], frm: int, at: int, between: list[int]) -> bool:
    """Whether we can take an enemy scout that moved from `frm` to `at`, or block its line to our flag."""
    saved_frm, saved_at = board[frm], board[at]
    board[frm], board[at] = 0, saved_frm
    try:
        for n in NEIGHBOURS[at]:
            c = board[n]
            if c > 0 and c - 1 not in (FLAG, BOMB, SPY):
                return True
        if _our_scout_in_line(board, at):
            return True
        for b in between:
            for n in NEIGHBOURS[b]:
                c = board[n]
                if c > 0 and c - 1 not in (FLAG, BOMB):
                    return True
        return False
    finally:
        board[frm], board[at] = saved_frm, saved_at


def _is_known(know: Knowledge, sq: int, owner: int, rank: int) -> bool:
    c = know.cells[sq]
    return c is not None and c.owner == owner and c.rank == rank


def _extend_streak(streak: tuple[int, int, int, int, int] | None, src: int, dst: int) -> tuple[int, int, int, int]:
    """(line, first, last, moves in a row) of a two-squares streak after moving `src` to `dst`."""
    seg = SEGMENTS[src * 100 + dst]
    if streak is not None:
        last_to, line, lo, hi, count = streak
        if src == last_to and seg[0] == line and seg[1] <= hi and seg[2] >= lo:
            return line, max(lo, seg[1]), min(hi, seg[2]), count + 1
    return seg[0], seg[1], seg[2], 1


def _win_probability(piece: int, dist: dict[int, float]) -> float:
    """Probability that `piece`, attacking, beats an enemy piece of rank distribution `dist`."""
    return sum(p for r, p in dist.items() if _RESULT[piece][r] == 0)


def flag_ways(know: Knowledge, flag: int) -> tuple[list[int], list[int]]:
    """Moves an enemy piece on each square needs to reach our flag: (for most pieces, for miners).

    Our bombs stop all but miners; our other pieces slow the way (they must be beaten first)."""
    out = []
    for miner in (False, True):
        dist = [99] * 100
        dist[flag] = 0
        frontier = [flag]
        while frontier:
            nxt: list[int] = []
            for sq in frontier:
                for n in NEIGHBOURS[sq]:
                    c = know.cells[n]
                    step = 1
                    if c is not None and c.owner == know.player:
                        if c.rank == BOMB and not miner:
                            continue
                        step = 1 if c.rank == BOMB else 2
                    d = dist[sq] + step
                    if d < dist[n]:
                        dist[n] = d
                        nxt.append(n)
            frontier = nxt
        out.append(dist)
    return out[0], out[1]


def _scout_ways(know: Knowledge, flag: int) -> dict[int, int]:
    """Scout moves an enemy piece on each square needs to strike our flag along open lines
    (only squares that do better than 99 are listed)."""
    level = {flag: 0}
    frontier = [flag]
    out: dict[int, int] = {}
    depth = 0
    while frontier and depth < 3:
        depth += 1
        nxt: list[int] = []
        for sq in frontier:
            for ray in RAYS[sq]:
                for n in ray:
                    c = know.cells[n]
                    if c is not None:
                        if c.owner == know.enemy and n not in out:
                            out[n] = depth
                        break
                    if n not in level:
                        level[n] = depth
                        nxt.append(n)
        frontier = nxt
    return out


WIN_MARGIN = 0.05
"""Win chances stay this far from 0 and 1 while the flags stand: a lead in material is no win yet."""


MATERIAL_FILE = "data/material.toml"
"""The material values fitted to who won the Gravon classic games (`fogofwar train material`)."""

VARIANT_MATERIAL_FILES = {"barrage": "data/material_barrage.toml"}
"""Fits of a variant's own games (`fogofwar train material --variant V`): in Barrage, with eight pieces a side, a
capture moves who wins far less than the classic fit's curve says (sharpness 7.4 against 22.8), the miner is worth
more than the general and the spy nearly as much (docs/strength.md, session 70)."""

MARSHAL_STEP_TABLE = "with_marshal_step"
"""The table of a material file that holds the fit with the marshal's step (`material_training`)."""
REVEAL_TABLE = "with_reveal"
"""The table of a material file that holds the fit with the marshal's step and the revealed ranks' steps."""


def material_path(variant: str = "classic") -> Path:
    """Where `fogofwar train material` writes the values of `variant`'s games in a source checkout."""
    return Path(__file__).resolve().parent / VARIANT_MATERIAL_FILES.get(variant, MATERIAL_FILE)


def _material_file(variant: str = "classic") -> dict[str, Any]:
    """The fit of `variant`'s own games where one is shipped, else the classic games' fit."""
    return _read_material(VARIANT_MATERIAL_FILES.get(variant, MATERIAL_FILE))


@functools.cache
def _read_material(name: str) -> dict[str, Any]:
    """A material file of the package, read once however many variants share it."""
    text = resources.files("fogofwar.games.stratego.agents").joinpath(name).read_text("utf-8")
    return tomllib.loads(text)


def _by_rank(values: dict[str, Any]) -> list[float]:
    return [float(values[Rank(r).name.lower()]) for r in range(12)]


def fitted_material(variant: str = "classic") -> tuple[list[float], float]:
    """Material values by rank fitted to who won the Gravon games (`data/material.toml`; another variant's own
    fit with `variant`, `VARIANT_MATERIAL_FILES`), and the sharpness of the win-chance curve fitted with them."""
    data = _material_file(variant)
    return _by_rank(data["values"]), float(data["sharpness"])


def fitted_material_with_marshal_step(variant: str = "classic") -> tuple[list[float], float, float]:
    """The fit that adds the marshal's step to the curve (`material_training`): values by rank, sharpness, step."""
    data = _material_file(variant)[MARSHAL_STEP_TABLE]
    return _by_rank(data["values"]), float(data["sharpness"]), float(data["marshal_step"])


def fitted_material_with_reveal(variant: str = "classic") -> tuple[list[float], float, float, list[float]]:
    """The fit that adds to the marshal's step a step for each revealed piece (`material_training`): values by rank,
    sharpness, the marshal's step, and the revealed ranks' steps by rank."""
    data = _material_file(variant)[REVEAL_TABLE]
    values, sharpness, step = _by_rank(data["values"]), float(data["sharpness"]), float(data["marshal_step"])
    return values, sharpness, step, _by_rank(data["reveal"])


def _fitted_values() -> list[float]:
    """Material values by rank fitted to who won the Gravon games (`data/material.toml`)."""
    return fitted_material()[0]


def _win_chance(own: float, enemy: float, sharpness: float) -> float:
    """Win chance from the material on both sides: a logistic curve of the lead relative to all
    material in play, so the same lead counts for more when little is left."""
    total = own + enemy
    x = sharpness * (own - enemy) / total if total > 0 else 0.0
    return WIN_MARGIN + (1.0 - 2 * WIN_MARGIN) / (1.0 + math.exp(-x))


def _normalised(weights: dict[int, float]) -> dict[int, float]:
    total = sum(weights.values())
    return {r: w / total for r, w in weights.items()} if total > 0 else {}


_TUNABLE = (
    "material",
    "value",
    "mirror",
    "flag_doubt",
    "bomb_doubt",
    "paranoia",
    "sharpness",
    "flag_lure",
    "flag_guard",
    "drive",
    "spy_value",
    "guard_decay",
    "shuffle",
    "breach",
    "home_guard",
    "repeat",
    "share_power",
    "marshal_value",
    "guard_top",
    "behaviour",
    "plan_room",
    "learned",
    "depth",
    "nodes",
    "quiescence",
    "bold",
    "spy_fear",
    "reveal",
    "blend",
    "prior",
    "prior_floor",
    "belief_net",
    "decoy",
    "shy_top",
    "dominance",
    "spy_guard",
    "exact",
    "conceal",
    "reply",
    "reply_sure",
    "book",
    "model",
)


def parse_spec(arg: str) -> SearchAgent:
    kwargs: dict[str, float | int] = {}
    tuning: dict[str, float] = {}
    integers = ("guesses", "guard_top", "depth", "nodes", "quiescence", "bold")
    for part in filter(None, arg.split(",")):
        key, _, value = part.partition("=")
        if key not in ("guesses", "time", *_TUNABLE):
            raise GameError(
                f"search: unknown option {key!r}; use guesses=N, time=SECONDS or one of {', '.join(_TUNABLE)}"
            )
        try:
            number: float = int(value) if key in integers else float(value)
        except ValueError:
            kind = "a whole number" if key in integers else "a number"
            raise GameError(f"search: {key} must be {kind}, not {value!r}") from None
        if not math.isfinite(number) or number < 0 or (key in integers and number > 10**9):
            raise GameError(f"search: {key} must be from 0 to 1e9, not {value!r}")
        if key == "guesses":
            kwargs["guesses"] = int(number)
        elif key == "time":
            kwargs["seconds"] = number
        else:
            tuning[key] = number
    agent = SearchAgent(**kwargs)  # type: ignore[arg-type]
    for key, val in tuning.items():
        setattr(agent, key, val)
    return agent


__all__ = ["PATH_LENGTHS", "SearchAgent", "attack_value", "decoy_setup", "flag_ways", "guarded_setup", "mirrored_view"]
