"""A rule-based player for Stratego LOTR (all three games), using only its observation.

It plays like the classic heuristic (`fogofwar.games.stratego.agents.heuristic`), but on characters rather than
ranks, so that it knows the powers and Game 3's Ring:

- what an unknown enemy piece may be comes from the enemy army minus the characters already seen
  (on the board or captured); a piece that has moved is no Fortress and no Flag, and unmoved pieces
  weigh more for those (they can only hide there);
- an attack (also a Knight's run, a Swift Steed ending on an enemy, a Repeat Attack) scores its
  expected material over what the target may be, so known weaker pieces get taken, known stronger
  ones left alone, the 3s go for suspected Fortresses and nobody walks into a likely Fortress;
- a quiet move scores the danger it escapes or walks into, and how much closer it brings the piece
  to something it expects to beat (unmoved unknown pieces may be the Flag, which pulls the army on);
- the powers (Games 2 and 3) score what they expect to capture: Detect Enemy and the Longbow are
  attacks without risk, Rage trades the Berserker for what stands around it, the Dwarven Axe weighs
  the blows against Gimli's life, Fly and Swift Steed are moves that escape or reach a target; every
  power gives the piece away, which costs a little;
- Game 3: Frodo walks to Mount Doom while no Nazgul or Witch-king may be next to him; Evil keeps its
  hunters near the gates of Mount Doom and counts the Good pieces near them as likely Frodo.

Setups put the Flag on the back row between Fortresses, the strongest pieces in the middle rows, the
archers and the Knights in front, the 3s behind; in Game 3 Frodo starts on the file of the gate of
Mount Doom and a Nazgul guards it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fogofwar.core.protocol import Game, Observation
from fogofwar.games.lotr.observation import LotrView, lotr_view
from fogofwar.games.lotr.powers import POWER_BASE, STOP, decode
from fogofwar.games.lotr.roster import EVIL, FLAG, FORTRESS, GOOD, KNIGHT, MINER, SPY, TOP, Kind
from fogofwar.games.lotr.rules import PLACE_BASE, LotrGame, power_hit
from fogofwar.grid.board import NUM_SQUARES, SIZE, distance

RANK_VALUE = {FLAG: 1000.0, SPY: 30.0, 2: 8.0, 3: 20.0, 4: 15.0, 5: 25.0, 6: 40.0, 7: 65.0, 8: 100.0, 9: 170.0}
RANK_VALUE.update({10: 260.0, 11: 330.0, FORTRESS: 12.0})
"""Rough material values by printed rank (the classic heuristic's scale)."""
POWER_VALUE = {
    "fly": 30.0,
    "sense_enemy": 25.0,
    "long_bow": 12.0,
    "dwarf_axe": 10.0,
    "swift_steed": 5.0,
    "repeat_attack": 5.0,
    "rage": 5.0,
    "invisibility": 0.0,
}
"""What a power adds to a piece's value in Games 2 and 3."""
FRODO_VALUE = 250.0
"""Game 3: the Ring-bearer, while he carries the Ring (his capture raises Evil, his arrival ruins it)."""
HUNTER_BONUS = 25.0
DOOM_BONUS = 5000.0
"""Frodo stepping onto Mount Doom: the Ring is destroyed, Evil loses ranks 4-8 and every Fortress."""
DOOM_STEP = 30.0
"""Game 3: what each step of Frodo's towards Mount Doom is worth."""
FRODO_NEAR_GATE = 4.0
"""Game 3, Evil's view: how much more likely an unknown Good piece near a gate of Mount Doom is Frodo."""
REVEAL_COST = 0.04
"""Part of a piece's value lost when it is shown to the enemy for the first time."""
HUNTERS = ("witch_king", "nazgul")

_Cell = tuple[int, int, bool, bool]
"""(owner, kind index or -1 if unknown, moved, revealed)."""


class LotrHeuristicAgent:
    """Scores every legal action of a Stratego LOTR position (see the module docstring)."""

    name = "heuristic"

    def __init__(self, noise: float = 0.3) -> None:
        self._noise = noise
        self._rng = random.Random(0)
        self._player = 0
        self._game: LotrGame | None = None
        self._setup: list[int] = []
        self._last: dict[int, int] = {}
        self._tracked: list[str] = []
        """Enemy characters seen captured in the moves, for the modes that do not list them."""
        self._seen: list[dict[str, Any]] = []

    # --- set-up of the agent ----------------------------------------------------------------------
    def start(self, game: Game, player: int, rng: random.Random) -> None:
        if not isinstance(game, LotrGame):
            raise TypeError(f"the LOTR heuristic plays Stratego LOTR, not {game.name}")
        self._game = game
        self._rng = rng
        self._player = player
        self._setup = []
        self._last = {}
        self._tracked = []
        self._seen = []
        g = game
        self._mode = g.mode
        self._detect_flag = g.detect_flag
        self._kinds: tuple[tuple[Kind, ...], tuple[Kind, ...]] = (g.army(EVIL).kinds, g.army(GOOD).kinds)
        self._index = tuple({k.key: i for i, k in enumerate(ks)} for ks in self._kinds)
        self._neighbours = g.neighbours
        self._rays = g.rays
        self._doom = g.doom
        self._gates = g.doom_gates
        ring = g.mode == "ring"
        good = self._kinds[GOOD]
        self._bearer = next((i for i, k in enumerate(good) if "invisibility" in k.powers), -1) if ring else -1
        self._hunters = (
            frozenset(i for i, k in enumerate(self._kinds[EVIL]) if k.key in HUNTERS) if ring else frozenset()
        )
        self._powers = tuple(
            tuple(
                frozenset(p for p in k.powers if p != "invisibility") if g.mode != "classic" else frozenset()
                for k in ks
            )
            for ks in self._kinds
        )
        self._clash_tab = [
            [
                [[self._clash(side, a, d, raised) for d in range(len(self._kinds[1 - side]))] for a in range(len(ks))]
                for side, ks in enumerate(self._kinds)
            ]
            for raised in (False, True)
        ]
        self._doom_dist = self._doom_distances(g) if ring else []

    def _doom_distances(self, g: LotrGame) -> list[int]:
        """Steps from each square to Mount Doom over squares off the Forbidden Zones (pieces ignored)."""
        far = 99
        dist = [far] * NUM_SQUARES
        dist[self._doom] = 0
        frontier = [self._doom]
        while frontier:
            nxt = []
            for sq in frontier:
                for n in g.neighbours[sq]:
                    if dist[n] == far:
                        dist[n] = dist[sq] + 1
                        nxt.append(n)
            frontier = nxt
        return dist

    # --- the rules, as the agent knows them ------------------------------------------------------
    def _rank(self, side: int, kind: int) -> int:
        return self._kinds[side][kind].rank

    def _strength(self, side: int, kind: int, raised: bool) -> int:
        r = self._kinds[side][kind].rank
        return r + 1 if raised and side == EVIL and KNIGHT <= r <= TOP else r

    def _clash(self, side: int, a: int, d: int, raised: bool) -> tuple[bool, bool]:
        """(attacker survives, defender survives) when `side`'s kind a attacks the other side's kind d."""
        ar, dr = self._rank(side, a), self._rank(1 - side, d)
        if dr == FLAG:
            alive = (True, False)
        elif dr == FORTRESS:
            alive = (True, False) if ar == MINER else (False, True)
        elif ar == SPY:
            alive = (True, False) if dr == TOP else ((False, False) if dr == SPY else (False, True))
        elif dr == SPY:
            alive = (True, False)
        else:
            sa, sd = self._strength(side, a, raised), self._strength(1 - side, d, raised)
            alive = (False, False) if sa == sd else (sa > sd, sa < sd)
        if self._bearer >= 0:  # Frodo's Invisibility: only the hunters capture him
            if side == GOOD and a == self._bearer and d not in self._hunters:
                alive = (True, alive[1])
            if side == EVIL and d == self._bearer and a not in self._hunters:
                alive = (alive[0], True)
        return alive

    def _hit(self, power: str, side: int, a: int, t: int, raised: bool) -> str:
        """What a power of `side`'s kind a does to the other side's kind t (as the engine settles it)."""
        tside = 1 - side
        tkind = self._kinds[tside][t]
        if tside == GOOD and t == self._bearer and a not in self._hunters:
            return "immune"
        return power_hit(
            power,
            tkind.rank,
            "rage" in tkind.powers,
            self._strength(side, a, raised),
            self._strength(tside, t, raised),
            self._detect_flag,
        )

    def _value(self, side: int, kind: int) -> float:
        k = self._kinds[side][kind]
        v = RANK_VALUE[k.rank] + sum(POWER_VALUE.get(p, 0.0) for p in self._powers[side][kind])
        if self._bearer >= 0 and self._ring == "carried":
            if side == GOOD and kind == self._bearer:
                v = FRODO_VALUE
            elif side == EVIL and kind in self._hunters:
                v += HUNTER_BONUS
        return v

    # --- acting -----------------------------------------------------------------------------------
    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        if self._game is None:
            raise RuntimeError("start() must be called before act()")
        data = lotr_view(observation.data)
        if data["phase"] == "setup":
            return self._setup_action(legal_actions)
        self._read(data)
        return self._choose(legal_actions)

    def _choose(self, legal_actions: Sequence[int], bonus: Mapping[int, float] | None = None) -> int:
        """The action of the best score (plus `bonus`, e.g. a look-ahead's, and a little noise) in the
        position `_read` last read; the piece's trip is remembered (no straight way back next move)."""
        best, best_score = legal_actions[0], float("-inf")
        for action in legal_actions:
            score = self._score(action) + self._rng.random() * self._noise
            if bonus is not None:
                score += bonus.get(action, 0.0)
            if score > best_score:
                best, best_score = action, score
        if best < PLACE_BASE:
            src, dst = divmod(best, 100)
            self._last = {dst: src}
        else:
            pa = decode(best)
            self._last = {pa.dst: pa.src} if pa is not None and pa.dst >= 0 else {}
        return best

    # --- what the observation says ----------------------------------------------------------------
    def _read(self, data: LotrView) -> None:
        me = self._player
        enemy = 1 - me
        self._me, self._enemy = me, enemy
        ring = data.get("ring")
        self._ring = str(ring["status"]) if ring else ""
        self._raised = self._ring == "taken"
        cells: list[_Cell | None] = []
        self._zone = [False] * NUM_SQUARES
        for sq, raw in enumerate(data["board"]):
            if raw is None or raw == "zone":
                self._zone[sq] = raw == "zone"
                cells.append(None)
                continue
            owner = int(raw["owner"])
            key = raw.get("kind")
            kind = self._index[owner][key] if key is not None else -1
            cells.append((owner, kind, bool(raw["moved"]), bool(raw["revealed"])))
        self._cells = cells
        self._track(data)
        captured = data["captured"][enemy]
        lost = list(captured) if captured is not None else self._tracked
        pool = [k.count for k in self._kinds[enemy]]
        for key in lost:
            i = self._index[enemy].get(key)
            if i is not None:
                pool[i] -= 1
        for c in cells:
            if c is not None and c[0] == enemy and c[1] >= 0:
                pool[c[1]] -= 1
        if self._ring == "destroyed" and enemy == EVIL:  # LOTR-DOOM-3: all of these left the board
            for i, k in enumerate(self._kinds[EVIL]):
                if 4 <= k.rank <= 8 or k.rank == FORTRESS:
                    pool[i] = 0
        if self._ring == "taken" and enemy == GOOD and self._bearer >= 0:
            pool[self._bearer] = 0
        self._pool = [max(n, 0) for n in pool]
        unknown = [sq for sq, c in enumerate(cells) if c is not None and c[0] == enemy and c[1] < 0]
        unmoved = sum(1 for sq in unknown if (c := cells[sq]) is not None and not c[2])
        self._boost = len(unknown) / max(unmoved, 1)
        self._dists: dict[int, dict[int, float]] = {}
        self._dist_cache: dict[tuple[bool, bool], dict[int, float]] = {}
        self._ev_cache: dict[tuple[int, int], tuple[float, float]] = {}
        self._pot_cache: dict[tuple[int, int], float] = {}
        self._targets = [sq for sq, c in enumerate(cells) if c is not None and c[0] == enemy and self._open(sq)]
        self._hunting = self._bearer >= 0 and self._ring == "carried"
        self._frodo = -1
        if self._hunting and me == GOOD:
            bearer = (GOOD, self._bearer)
            self._frodo = next((sq for sq, c in enumerate(cells) if c is not None and c[:2] == bearer), -1)

    def _open(self, sq: int) -> bool:
        """Whether some side of the enemy piece on `sq` is not walled off by known Fortresses or Flags."""
        cells, enemy, kinds = self._cells, self._enemy, self._kinds[self._enemy]
        for n in self._neighbours[sq]:
            c = cells[n]
            if c is None or c[0] != enemy or c[1] < 0 or kinds[c[1]].movable:
                return True
        return False

    def _track(self, data: LotrView) -> None:
        """Note the enemy pieces the last moves captured (for the modes whose observation hides them)."""
        cur = [ev for ev in data.get("recent_moves") or [] if isinstance(ev, dict)]
        prev = self._seen
        k = min(len(cur), len(prev))
        while k > 0 and cur[:k] != prev[-k:]:
            k -= 1
        self._seen = cur
        enemy = self._enemy
        for ev in cur[k:]:
            mover = int(ev.get("player", -1))
            result = ev.get("result")
            if result is not None:
                if mover == enemy and result in ("defender_won", "both_lost") and ev.get("attacker"):
                    self._tracked.append(str(ev["attacker"]))
                if mover != enemy and result in ("attacker_won", "both_lost") and ev.get("defender"):
                    self._tracked.append(str(ev["defender"]))
            for hit in ev.get("targets") or []:
                if mover != enemy and hit.get("result") in ("captured", "both_lost"):
                    self._tracked.append(str(hit["defender"]))
            if ev.get("targets") and mover == enemy and ev.get("attacker_survived") is False and ev.get("attacker"):
                self._tracked.append(str(ev["attacker"]))

    def _dist(self, sq: int) -> dict[int, float]:
        """P(kind) of the enemy piece on `sq`."""
        d = self._dists.get(sq)
        if d is not None:
            return d
        c = self._cells[sq]
        assert c is not None
        if c[1] >= 0:
            d = {c[1]: 1.0}
        else:
            near = self._enemy == GOOD and self._hunting and any(distance(sq, g) <= 2 for g in self._gates)
            key = (c[2], near)
            d = self._dist_cache.get(key)
            if d is None:
                d = self._unknown_dist(c[2], near)
                self._dist_cache[key] = d
        self._dists[sq] = d
        return d

    def _unknown_dist(self, moved: bool, near_gate: bool) -> dict[int, float]:
        enemy = self._enemy
        weights: dict[int, float] = {}
        for i, n in enumerate(self._pool):
            if not n:
                continue
            rank = self._kinds[enemy][i].rank
            w = float(n)
            if rank in (FLAG, FORTRESS):
                if moved:
                    continue
                w *= self._boost
            if near_gate and i == self._bearer:
                w *= FRODO_NEAR_GATE
            weights[i] = w
        total = sum(weights.values())
        if total <= 0:  # the pool ran dry (an unnoticed capture): anything that moves
            movable = [i for i, k in enumerate(self._kinds[enemy]) if k.movable]
            return {i: 1.0 / len(movable) for i in movable}
        return {i: w / total for i, w in weights.items()}

    # --- evaluation pieces ------------------------------------------------------------------------
    def _attack_ev(self, kind: int, sq: int) -> tuple[float, float]:
        """(expected material gain, probability of winning) of my `kind` attacking the piece on `sq`."""
        dist = self._dist(sq)
        key = (kind, id(dist))
        got = self._ev_cache.get(key)
        if got is not None:
            return got
        me, enemy = self._me, self._enemy
        table = self._clash_tab[self._raised][me][kind]
        mine = self._value(me, kind)
        ev = win = 0.0
        for d, p in dist.items():
            a_alive, d_alive = table[d]
            if not d_alive:
                ev += p * self._value(enemy, d)
            if not a_alive:
                ev -= p * mine
            elif not d_alive:
                win += p
        self._ev_cache[key] = (ev, win)
        return ev, win

    def _threat(self, kind: int, sq: int) -> float:
        """Probability that the enemy piece on `sq`, attacking, captures my `kind`."""
        enemy = self._enemy
        p_take = 0.0
        for d, p in self._dist(sq).items():
            if not self._kinds[enemy][d].movable:
                continue
            if not self._clash_tab[self._raised][enemy][d][kind][1]:
                p_take += p
        return p_take

    def _danger(self, kind: int, sq: int, exclude: int = -1) -> float:
        """The value of my `kind` on `sq` times the worst chance an enemy next to it takes it."""
        worst = 0.0
        cells, enemy = self._cells, self._enemy
        for n in self._neighbours[sq]:
            c = cells[n]
            if n == exclude or c is None or c[0] != enemy:
                continue
            worst = max(worst, self._threat(kind, n))
        return worst * self._value(self._me, kind)

    def _potential(self, kind: int, sq: int) -> float:
        key = (kind, sq)
        got = self._pot_cache.get(key)
        if got is None:
            got = 0.0
            for t in self._targets:
                gain = self._attack_ev(kind, t)[0]
                if gain > 0:
                    got = max(got, gain / (1.0 + distance(sq, t)))
            self._pot_cache[key] = got
        return got

    def _reveal_cost(self, src: int) -> float:
        c = self._cells[src]
        assert c is not None
        if c[3]:
            return 0.0
        return REVEAL_COST * self._value(self._me, c[1]) + 0.5

    # --- scoring ----------------------------------------------------------------------------------
    def _score(self, action: int) -> float:
        if action == STOP:
            return 0.0
        if action < PLACE_BASE:
            src, dst = divmod(action, 100)
            c = self._cells[src]
            if c is None or c[0] != self._me:  # never move an enemy piece, even if the engine offers it
                return float("-inf")
            return self._score_move(src, dst, shown=distance(src, dst) > 1)
        if action < POWER_BASE:  # pragma: no cover - placements only happen in the setup
            return 0.0
        pa = decode(action)
        if pa is None:  # pragma: no cover - legal ids always decode
            return float("-inf")
        src = pa.src
        c = self._cells[src]
        assert c is not None
        kind = c[1]
        if pa.power == "fly":
            return self._score_move(src, pa.dst, shown=True) - 2.0
        if pa.power == "swift_steed":
            return self._score_move(src, pa.dst, shown=True) - 1.0
        if pa.power in ("sense_enemy", "long_bow"):
            return self._score_ranged(pa.power, src, kind, pa.targets[0])
        enemy = self._enemy
        if pa.power == "rage":
            targets = [t for t in self._around(pa.dst) if (tc := self._cells[t]) is not None and tc[0] == enemy]
        else:
            targets = list(pa.targets)
        return self._score_strike(pa.power, src, pa.dst, kind, targets)

    def _around(self, sq: int) -> list[int]:
        r, c = divmod(sq, SIZE)
        return [
            rr * SIZE + cc
            for rr in (r - 1, r, r + 1)
            for cc in (c - 1, c, c + 1)
            if (rr, cc) != (r, c) and 0 <= rr < SIZE and 0 <= cc < SIZE
        ]

    def _score_move(self, src: int, dst: int, shown: bool) -> float:
        cells = self._cells
        c = cells[src]
        assert c is not None
        kind = c[1]
        if self._hunting and dst == self._doom:
            return DOOM_BONUS if self._me == GOOD else float("-inf")
        cost = self._reveal_cost(src) if shown else 0.0
        target = cells[dst]
        if target is not None and target[0] == self._enemy:  # an attack
            ev, win = self._attack_ev(kind, dst)
            score = ev - max(self._reveal_cost(src) - 0.5, 0.0)  # a battle shows the attacker
            if target[1] < 0:
                score += 2.0  # what it learns is worth something
            score -= win * 0.8 * self._danger(kind, dst, exclude=dst)
            score += win * self._danger(kind, src, exclude=dst)  # a won attack also leaves a threatened square
            if self._hunting and self._me == GOOD and kind == self._bearer:
                score += win * DOOM_STEP * (self._doom_dist[src] - self._doom_dist[dst])
            return score
        score = self._danger(kind, src) - 0.9 * self._danger(kind, dst, exclude=src) - cost
        score += 3.0 * (self._potential(kind, dst) - self._potential(kind, src))
        if self._last.get(src) == dst:
            score -= 1.5
        if self._hunting:
            score += self._ring_shaping(kind, src, dst)
        return score

    def _ring_shaping(self, kind: int, src: int, dst: int) -> float:
        """Game 3: Frodo walks to Mount Doom; Evil's hunters stay near its gates."""
        if self._me == GOOD:
            if kind == self._bearer:
                return DOOM_STEP * (self._doom_dist[src] - self._doom_dist[dst])
            if self._frodo_path_blocked(src):
                return 3.0  # make way for Frodo
            return 0.0
        if kind in self._hunters:
            before = min(distance(src, g) for g in self._gates)
            after = min(distance(dst, g) for g in self._gates)
            return 1.0 * (min(before, 3) - min(after, 3))
        return 0.0

    def _frodo_path_blocked(self, sq: int) -> bool:
        """Whether my piece on `sq` stands on a square that would take Frodo closer to Mount Doom."""
        f = self._frodo
        return f >= 0 and sq in self._neighbours[f] and self._doom_dist[sq] < self._doom_dist[f]

    def _score_ranged(self, power: str, src: int, kind: int, t: int) -> float:
        """Detect Enemy or the Longbow: risk-free; the target is taken if weaker, else shown."""
        me, enemy = self._me, self._enemy
        ev = 0.0
        survive = 0.0
        for d, p in self._dist(t).items():
            result = self._hit(power, me, kind, d, self._raised)
            if result == "captured":
                ev += p * self._value(enemy, d)
            else:
                survive += p
        tc = self._cells[t]
        assert tc is not None
        info = 3.0 * survive if tc[1] < 0 else 0.0
        return ev + info - self._reveal_cost(src) - 1.0

    def _score_strike(self, power: str, src: int, dst: int, kind: int, targets: list[int]) -> float:
        """Rage (the Berserker always falls) or the Dwarven Axe (Gimli falls to a blow he does not win)."""
        me, enemy = self._me, self._enemy
        ev = 0.0
        p_alive = 1.0
        for t in targets:
            p_ok = 0.0
            for d, p in self._dist(t).items():
                result = self._hit(power, me, kind, d, self._raised)
                if result in ("captured", "both_lost"):
                    ev += p * self._value(enemy, d)
                if result in ("captured", "immune"):
                    p_ok += p  # the Axe's only immune target is the Flag, which spares Gimli
            p_alive *= p_ok
        mine = self._value(me, kind)
        if power == "rage":
            return ev - mine - 1.0
        score = ev - (1.0 - p_alive) * mine - self._reveal_cost(src)
        score -= p_alive * 0.9 * self._danger(kind, dst, exclude=src)
        return score - 1.0

    # --- setup ------------------------------------------------------------------------------------
    def _setup_action(self, legal: Sequence[int]) -> int:
        if not self._setup:
            placement = lotr_setup(self._game, self._player, self._rng)  # type: ignore[arg-type]
            self._setup = [PLACE_BASE + kind * 100 + sq for sq, kind in sorted(placement.items())]
        legal_set = set(legal)
        while self._setup:
            a = self._setup.pop(0)
            if a in legal_set:
                return a
        return self._rng.choice(list(legal))


# Where each printed rank likes to stand: weights of the lines 0 (back row) .. 3 (front row).
_LINE_WEIGHTS = {
    TOP: (0.0, 2.0, 3.0, 1.0),
    9: (0.0, 2.0, 3.0, 1.0),
    8: (0.2, 2.0, 3.0, 2.0),
    7: (1.0, 2.0, 2.0, 2.0),
    6: (0.3, 1.0, 2.0, 3.0),
    5: (1.0, 2.0, 2.0, 2.0),
    4: (1.0, 2.0, 2.0, 2.0),
    MINER: (3.0, 2.0, 1.0, 0.5),
    KNIGHT: (1.0, 1.0, 2.0, 3.0),
    SPY: (1.0, 3.0, 2.0, 0.1),
}
_FLAG_FILES = (4.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 4.0)
"""The Flag prefers a corner of the back row: fewer neighbours to guard."""


def lotr_setup(game: LotrGame, player: int, rng: random.Random) -> dict[int, int]:
    """A sensible setup {square: kind index}: the Flag on the back row with Fortresses on its free
    sides, the other Fortresses in the rows behind the front, strong pieces in the middle rows,
    archers and Knights in front, 3s behind; in Game 3, Frodo on the file of the gate of Mount Doom
    (Good) and a Nazgul guarding that gate (Evil)."""
    kinds = game.army(player).kinds
    area = game.board.setup_squares(player)
    back = min(area) // SIZE if player == EVIL else max(area) // SIZE

    def line(sq: int) -> int:
        return abs(sq // SIZE - back)

    free = set(area)
    placement: dict[int, int] = {}

    def put(sq: int, kind: int) -> None:
        free.discard(sq)
        placement[sq] = kind

    left = [k.count for k in kinds]

    def take(key_or_rank: str | int) -> int:
        for i, k in enumerate(kinds):
            if left[i] and (k.key == key_or_rank or k.rank == key_or_rank):
                left[i] -= 1
                return i
        raise ValueError(f"no {key_or_rank!r} left")  # pragma: no cover - the roster has them

    if game.mode == "ring":
        gate = next(g for g in game.doom_gates if g not in game.board.setup_squares(1 - player) and g not in area)
        col = gate % SIZE
        front = [sq for sq in area if line(sq) == 3 and sq % SIZE == col]
        if front:
            put(front[0], take("frodo" if player == GOOD else "nazgul"))
    flag_sq = rng.choices([sq for sq in area if line(sq) == 0], weights=list(_FLAG_FILES))[0]
    if flag_sq not in free:  # pragma: no cover - the back row is empty so far
        flag_sq = next(sq for sq in free if line(sq) == 0)
    put(flag_sq, take(FLAG))
    fortress = kinds_index(kinds, FORTRESS)
    walls: list[int] = []
    for _ in range(100):  # the Fortresses must leave no pocket where a piece could never move out
        walls = [n for n in game.neighbours[flag_sq] if n in free][: left[fortress]]
        while len(walls) < left[fortress]:
            options = sorted(sq for sq in free if line(sq) in (0, 1, 2) and sq not in walls)
            weights = [1.0 if line(sq) == 0 else 2.0 for sq in options]
            walls.append(rng.choices(options, weights=weights)[0])
        if not _pockets(game, [sq for sq in area if sq not in walls and sq != flag_sq], line):
            break
    for sq in walls:
        put(sq, take(FORTRESS))
    order = sorted((i for i in range(len(kinds)) if left[i]), key=lambda i: -kinds[i].rank)
    for i in order:
        rank = kinds[i].rank
        weights_by_line = _LINE_WEIGHTS.get(rank, (1.0, 1.0, 1.0, 1.0))
        if game.mode != "classic" and "long_bow" in kinds[i].powers:
            weights_by_line = (0.2, 1.0, 2.0, 4.0)  # archers shoot from the front
        while left[i]:
            options = sorted(free)
            weights = [weights_by_line[line(sq)] + 0.01 for sq in options]
            put(rng.choices(options, weights=weights)[0], i)
            left[i] -= 1
    return placement


def _pockets(game: LotrGame, open_squares: Sequence[int], line: Callable[[int], int]) -> bool:
    """Whether some of `open_squares` (the home squares left for movable pieces) cannot be reached
    from the front row through other open squares: a piece placed there could never move."""
    opened = set(open_squares)
    seen = {sq for sq in opened if line(sq) == 3}
    frontier = list(seen)
    while frontier:
        sq = frontier.pop()
        for n in game.neighbours[sq]:
            if n in opened and n not in seen:
                seen.add(n)
                frontier.append(n)
    return len(seen) != len(opened)


def kinds_index(kinds: Sequence[Kind], rank: int) -> int:
    """The index of the first character of this printed rank."""
    return next(i for i, k in enumerate(kinds) if k.rank == rank)
