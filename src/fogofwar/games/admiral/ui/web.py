"""The server's adapter for Admiral the Board Game (docs/rules/admiral.md).

What is hidden in Admiral (ADM-GEN-5) and how the server keeps it so:

- The deployment (ADM-SETUP-3): each seat sends its whole deployment as one setup message, as in
  Stratego; the engine's observation shows nothing of the other fleet until both have deployed.
- The attack assignment (ADM-ATK-1): while a seat assigns its dice the server keeps its orders as the
  seat's draft (`in_secret`): shown to that seat alone, logged as one event when it commits, so the
  other seat learns neither the orders nor how many there are. The engine's observation hides a
  committed assignment from the opponent until both have committed.
- Everything else is public: the dice (rolled by the server, a chance event in the log), the moves,
  the air attacks, the resolution report.

A seat's view is its engine observation, unchanged. The spectators' view is what both observations
show; the final view merges each fleet as its owner saw it. The move log is built by the server from
its own events (the engine keeps no public history) and hides a committed assignment until both
have committed, like the observation. Each entry also says what its event did (the lines it added to the
public report: hits, damage, sinkings, squadrons shot down) and where a moving unit came from, so that the
page can tell the player in words what happened.
"""

from __future__ import annotations

import random
from typing import Any

from fogofwar.core.protocol import CHANCE, GameError, IllegalActionError, InvalidSetupError, State
from fogofwar.core.registry import make_game
from fogofwar.core.web_adapter import AdapterDefaults, Entry, Event, hosted_options
from fogofwar.games.admiral.actions import DEPLOY_BASE, NUM_SQUARES, decode
from fogofwar.games.admiral.data_model import (
    SQUADRON_TYPES,
    UNIT_CLASSES,
    UnitCard,
    default_ruleset,
    square_index,
    square_name,
)
from fogofwar.games.admiral.geometry import deployment_squares
from fogofwar.games.admiral.observation import admiral_view
from fogofwar.games.admiral.params import DEFAULT_BUDGET, AdmiralParams
from fogofwar.games.admiral.rules import DEFAULT_FLEETS, PLAYER_NAMES, AdmiralGame, AdmiralState
from fogofwar.games.admiral.state_model import Phase

MAX_TURNS_LIMIT = 200
MAX_BUDGET = 10_000
SEAT_NAMES = ("south", "north")
KNOWN_OPTIONS = ("variant", *(name for name in AdmiralParams.model_fields if name not in ("layout", "ruleset")))
"""What a client may send: the game's options but its own terrain and data files (`layout` is named by `variant`)."""
DEFAULT_LAYOUT = "archipelago"


def _admiral(state: State) -> AdmiralState:
    if not isinstance(state, AdmiralState):  # pragma: no cover - the registry hands out the matching adapter
        raise TypeError("not an Admiral state")
    return state


def card_json(card: UnitCard) -> dict[str, Any]:
    """A unit card's printed values (public data: units.toml)."""

    def side(s: Any) -> dict[str, Any]:
        return {
            "movement": s.movement,
            "armour": s.armour,
            "anti_aircraft": s.anti_aircraft,
            "size_class": s.size_class,
            "batteries": [
                {"name": b.name, "coefficient": b.coefficient, "range": b.range, "slots": b.slots} for b in s.batteries
            ],
        }

    return {
        "name": card.name,
        "class": card.unit_class,
        "class_name": UNIT_CLASSES.get(card.unit_class, card.unit_class),
        "faction": card.faction,
        "tactical_points": card.tactical_points,
        "structure": card.structure,
        **side(card.front),
        "submerged": side(card.submerged) if card.submerged is not None else None,
        "torpedo_mounts": card.torpedo_mounts,
        "torpedo_reloads": card.torpedo_reloads,
        "depth_charges": card.depth_charges,
        "squadrons": dict(card.squadrons),
        "admiral": card.admiral,
        "green": list(card.green),
        "red": list(card.red),
    }


def _core_player(state: AdmiralState) -> int | None:
    """The seat a chance event rolls for (the engine keeps it while the dice are rolled)."""
    core = getattr(state, "_core", None)
    player = getattr(core, "player", None)
    return player if isinstance(player, int) else None


_FACTS = ("effects", "from", "unit", "row")
"""What a log entry adds to the engine's notation, for the player's words: what the event did (the lines it added
to the public report: hits, damage, sinkings, squadrons shot down), where each moving unit came from, and for a
roll of the solo mode the unit it was rolled for and the table row it gave; for a critical marker, the unit it goes
on."""


def _what_it_did(st: AdmiralState, ev: Event) -> Entry:
    """The facts of `_FACTS` for an action or chance event played on `st` (the state before it; left unchanged)."""
    payload = ev.payload
    actions = [int(a) for a in payload["actions"]] if "actions" in payload else [int(payload["action"])]
    before = st.view(0)
    after = st.clone()
    origins: list[str | None] = []
    for a in actions:
        d = decode(a)
        origin: str | None = None
        p = after.current_player()
        if d.kind == "move" and p in (0, 1):
            mover = after.units(p)[d.slot]
            origin = square_name(mover.square) if mover.where == "board" else None
        origins.append(origin)
        after.apply(a)
    facts: Entry = {}
    was, now = before["report"], after.view(0)["report"]
    effects = now[len(was) :] if now[: len(was)] == was else now  # the report starts afresh each attack phase
    if effects:
        facts["effects"] = list(effects)
    if any(origins):
        facts["from"] = origins
    pending = before["pending_critical"]
    if st.phase == Phase.CRITICALS and pending is not None:
        facts["unit"] = pending["unit"]  # the unit the critical marker goes on
    solo = before["solo"]
    if st.phase == Phase.SOLO_ROLL and solo is not None and solo["acting"] is not None:
        facts["unit"] = solo["acting"]
        solo_after = after.view(0)["solo"]
        row = solo_after["rows"].get(solo["acting"]) if solo_after is not None else None
        if row is not None:
            facts["row"] = {"in_range": row["in_range"], "hold": row["hold"], "admiral": row["admiral"]}
    return facts


class AdmiralAdapter(AdapterDefaults):
    """Admiral: two fleets on an 8x8 battlefield, dice rolled by the server."""

    help_package = "fogofwar.games.admiral"
    rules_docs: tuple[str, ...] = ("admiral", "admiral-solo")

    name = "admiral"
    seat_names: tuple[str, ...] = SEAT_NAMES
    agents: tuple[str, ...] = ("stratego", "random")
    page = "admiral.html"
    uses_log = True

    def make_game(self, options: dict[str, Any]) -> AdmiralGame:
        """The game the client asked for. The client names the terrain `variant` (a known layout: a client never
        sends terrain of its own, nor a ruleset); everything else is checked by the game itself, within the
        server's caps (`hosted_options`)."""
        unknown = sorted(set(options) - set(KNOWN_OPTIONS))
        if unknown:
            raise GameError(f"unknown option {unknown[0]!r}; Admiral options: {', '.join(sorted(KNOWN_OPTIONS))}")
        kwargs = hosted_options(options, {"max_turns": MAX_TURNS_LIMIT, "budget": MAX_BUDGET})
        layout = kwargs.pop("variant", DEFAULT_LAYOUT)
        if layout in ("classic", "standard"):
            layout = DEFAULT_LAYOUT
        layouts = default_ruleset().layouts
        if not isinstance(layout, str) or layout not in layouts:
            raise GameError(f"unknown variant {layout!r}; Admiral's terrain layouts: {', '.join(layouts)}")
        game = make_game("admiral", layout=layout, **kwargs)
        assert isinstance(game, AdmiralGame)
        return game

    def describe(self) -> dict[str, Any]:
        game = AdmiralGame()
        rs = game.ruleset
        return {
            "name": self.name,
            "title": "Admiral",
            "seats": list(self.seat_names),
            "agents": list(self.agents),
            "variants": [
                {
                    "name": name,
                    "title": name.replace("_", " ").capitalize(),
                    "terrain": {square_name(sq): tid for sq, tid in layout.squares},
                }
                for name, layout in rs.layouts.items()
            ],
            "default_variant": DEFAULT_LAYOUT,
            "factions": dict(rs.factions),
            "default_fleets": {k: list(v) for k, v in DEFAULT_FLEETS.items()},
            "budget": DEFAULT_BUDGET,
            "cards": {u.name: card_json(u) for u in rs.units},
            "terrain": {t.id: {"name": t.name} for t in rs.terrain.values()},
            "rules": {
                r.key: {"id": r.id, "name": r.name, "colour": r.colour, "summary": r.summary} for r in rs.special_rules
            },
            "squadron_types": list(SQUADRON_TYPES),
            "dice": [f.index for f in rs.die.faces],
        }

    # --- deployment (the setup) -------------------------------------------------------------------
    @staticmethod
    def _zone(st: AdmiralState, seat: int) -> list[int]:
        return [sq for sq in deployment_squares(seat) if sq not in st.game.terrain]

    @staticmethod
    def _to_deploy(st: AdmiralState, seat: int) -> list[str]:
        return [c.name for c in st.game.fleets[seat].units if not c.is_submarine]

    def _deployed(self, state: AdmiralState, seat: int, placement: dict[str, str]) -> None:
        """Play `placement` for `seat` on `state` (its turn to deploy), in an order the rules accept (the solo
        mode fills the squares in a fixed order, SOLO-SET-1); `InvalidSetupError` if it breaks a rule or leaves
        the deployment unfinished."""
        slots = {c.name: i for i, c in enumerate(state.game.fleets[seat].units)}
        todo: dict[int, str] = {}
        for sq_text, name in sorted(placement.items()):
            if name not in slots:
                raise InvalidSetupError(f"{PLAYER_NAMES[seat]} has no unit named {name!r}")
            try:
                todo[DEPLOY_BASE + slots[name] * NUM_SQUARES + square_index(sq_text)] = name
            except ValueError as exc:
                raise InvalidSetupError(str(exc)) from None
        while todo and state.phase == Phase.DEPLOY and state.current_player() == seat:
            legal = set(state.legal_actions())
            action = next((a for a in todo if a in legal), next(iter(todo)))
            try:
                state.apply(action)
            except IllegalActionError as exc:
                raise InvalidSetupError(str(exc)) from None
            del todo[action]
        if todo:
            names = ", ".join(todo.values())
            raise InvalidSetupError(f"the zone is full: {names} wait in reserve (ADM-SETUP-4)")
        if state.phase == Phase.DEPLOY and state.current_player() == seat:
            zone, units = self._zone(state, seat), self._to_deploy(state, seat)
            raise InvalidSetupError(
                f"deploy {min(len(zone), len(units))} units: every surface unit, "
                f"or a full zone with the rest in reserve (ADM-SETUP-4)"
            )

    def _seat_turn(self, state: State, seat: int) -> AdmiralState:
        """A copy of `state` where `seat` is to deploy (the other zone filled first if need be)."""
        trial = _admiral(state).clone()
        while trial.phase == Phase.DEPLOY and trial.current_player() != seat:
            trial.apply(trial.legal_actions()[0])  # the other zone: it cannot touch this one
        if trial.phase != Phase.DEPLOY:
            raise InvalidSetupError("the deployment is over")
        return trial

    def _trial(self, state: State, seat: int, placement: dict[str, str]) -> None:
        self._deployed(self._seat_turn(state, seat), seat, placement)

    def _walk(self, state: State, seat: int, rng: random.Random | None) -> tuple[dict[str, str], set[int]]:
        """Deploy on a copy, one legal placement at a time (random ones, or the first): the placement made and
        every square the rules offered on the way (the whole zone, or the solo mode's fixed squares)."""
        trial = self._seat_turn(state, seat)
        names = [c.name for c in trial.game.fleets[seat].units]
        placement: dict[str, str] = {}
        offered: set[int] = set()
        while trial.phase == Phase.DEPLOY and trial.current_player() == seat:
            legal = [a for a in trial.legal_actions() if decode(a).kind == "deploy"]
            offered.update(decode(a).square for a in legal)
            action = rng.choice(legal) if rng is not None else legal[0]
            d = decode(action)
            placement[square_name(d.square)] = names[d.slot]
            trial.apply(action)
        return dict(sorted(placement.items())), offered

    def parse_setup(self, state: State, seat: int, spec: Any, rng: random.Random) -> dict[str, str]:
        st = _admiral(state)
        if isinstance(spec, str) and spec.strip().lower() == "random":
            out = self._walk(st, seat, rng)[0]
        elif isinstance(spec, dict):
            if len(spec) > NUM_SQUARES:
                raise InvalidSetupError("a deployment has at most one unit per square")
            out = {}
            for sq_text, name in spec.items():
                if not isinstance(name, str):
                    raise InvalidSetupError(f"the unit on {sq_text} must be a unit name like 'Fletcher'")
                try:
                    key = square_name(square_index(str(sq_text)))
                except ValueError as exc:
                    raise InvalidSetupError(str(exc)) from None
                if key in out:
                    raise InvalidSetupError(f"{key} is given twice")
                out[key] = name
        else:
            raise InvalidSetupError("an Admiral deployment is 'random' or {square: unit name}")
        self._trial(st, seat, out)
        return dict(sorted(out.items()))

    def check_early_setup(self, state: State, seat: int, placement: dict[str, str]) -> None:
        self._trial(state, seat, placement)

    def apply_setup(self, state: State, seat: int, placement: dict[str, str]) -> None:
        self._deployed(_admiral(state), seat, placement)

    def placement_of(self, state: State, seat: int) -> dict[str, str]:
        board = _admiral(state).view(seat)["board"]
        return {
            square_name(sq): u["name"]
            for sq, cell in enumerate(board)
            for u in cell["units"]
            if u["owner"] == seat and not u["submerged"]
        }

    def setup_string(self, state: State, seat: int, placement: dict[str, str]) -> str:
        return ""  # the deployment is on the board for all to see once both fleets are placed

    def in_setup(self, state: State) -> bool:
        return _admiral(state).phase == Phase.DEPLOY

    def move_count(self, state: State) -> int:
        return _admiral(state).turn

    def setup_info(self, state: State, seat: int) -> dict[str, Any]:
        st = _admiral(state)
        zone, units = self._zone(st, seat), self._to_deploy(st, seat)
        area = zone
        if st.phase == Phase.DEPLOY and (st.current_player() == seat or seat == 1):  # not yet deployed
            area = sorted(self._walk(st, seat, None)[1])  # the solo mode offers fewer squares than the zone
        return {
            "area": area,
            "units": units,
            "count": min(len(zone), len(units)),
            "submarines": [c.name for c in st.game.fleets[seat].units if c.is_submarine],
            "samples": [],
            "random": True,
        }

    # --- views -----------------------------------------------------------------------------------
    def seat_view(self, state: State, seat: int) -> dict[str, Any]:
        return dict(state.observation(seat).data)

    def public_view(self, state: State) -> dict[str, Any]:
        """What both seats see: the units both observations show, each fleet as its opponent sees it,
        the features nobody keeps secret."""
        st = _admiral(state)
        views = [st.view(0), st.view(1)]
        board = [
            {**cell, "units": [u for u in cell["units"] if u in other["units"]]}
            for cell, other in zip(views[0]["board"], views[1]["board"], strict=True)
        ]
        data: dict[str, Any] = dict(views[0])
        data.update(
            player=None,
            board=board,
            fleets=[views[1]["fleets"][0], views[0]["fleets"][1]],
            features=[f for f in views[0]["features"] if f in views[1]["features"]],
        )
        return data

    def final_view(self, state: State) -> dict[str, Any]:
        """Each fleet as its owner saw it."""
        st = _admiral(state)
        views = [st.view(0), st.view(1)]
        board = [
            {**a, "units": [u for u in a["units"] if u["owner"] == 0] + [u for u in b["units"] if u["owner"] == 1]}
            for a, b in zip(views[0]["board"], views[1]["board"], strict=True)
        ]
        features = views[0]["features"] + [f for f in views[1]["features"] if f not in views[0]["features"]]
        data: dict[str, Any] = dict(views[0])
        data.update(player=None, board=board, fleets=[views[0]["fleets"][0], views[1]["fleets"][1]], features=features)
        return data

    # --- the move log -----------------------------------------------------------------------------
    def in_secret(self, state: State, seat: int) -> bool:
        st = _admiral(state)
        return st.phase == Phase.ATTACK and not st.is_terminal() and st.current_player() == seat

    def moment(self, state: State) -> Entry:
        st = _admiral(state)
        return {"setup": st.phase == Phase.DEPLOY, "phase": st.phase.value, "turn": st.turn}

    def log_entry(self, state: State, ev: Event, texts: list[str]) -> Entry | None:
        st = _admiral(state)
        base: Entry = {"seq": ev.seq, "turn": st.turn, "phase": st.phase.value, "player": ev.seat}
        if ev.kind == "setup":
            return {**base, "kind": "deploy"}
        if ev.kind == "chance":
            return {
                **base,
                "kind": "roll",
                "player": _core_player(st),
                "faces": [t.removeprefix("roll:") for t in texts],
                **_what_it_did(st, ev),
            }
        if ev.kind == "action":
            return {
                **base,
                "kind": "action",
                "texts": texts,
                "secret": st.phase == Phase.ATTACK,
                **_what_it_did(st, ev),
            }
        if ev.kind in ("resign", "forfeit"):
            return {**base, "kind": ev.kind, "reason": str(ev.payload.get("reason", ""))}
        return None

    @staticmethod
    def _hidden(st: AdmiralState, entry: Entry) -> bool:
        """A committed assignment stays secret until both seats have committed (ADM-ATK-1)."""
        return (
            entry.get("phase") == "attack"
            and not st.is_terminal()
            and st.phase == Phase.ATTACK
            and st.turn == entry.get("turn")
        )

    def public_moves(self, state: State, log: list[Entry]) -> list[dict[str, Any]]:
        """One entry per decision, the dice of one roll together; a secret assignment as 'committed'."""
        st = _admiral(state)
        out: list[dict[str, Any]] = []
        for entry in log:
            kind = entry["kind"]
            last = out[-1] if out else None
            if kind == "roll":
                if (
                    last is not None
                    and last["kind"] == "roll"
                    and (last["phase"], last["player"], last["turn"])
                    == (entry["phase"], entry["player"], entry["turn"])
                    and last.get("unit") == entry.get("unit")
                ):
                    last["faces"] = [*last["faces"], *entry["faces"]]
                    if entry.get("effects"):
                        last["effects"] = [*last.get("effects", []), *entry["effects"]]
                    continue
                item = {k: entry[k] for k in ("seq", "turn", "phase", "player", "kind", "faces")}
                item.update({k: entry[k] for k in _FACTS if k in entry})
            elif kind == "action":
                item = {k: entry[k] for k in ("seq", "turn", "phase", "player", "kind")}
                hidden = bool(entry.get("secret")) and self._hidden(st, entry)
                if entry.get("secret"):
                    item["secret"] = True
                if hidden:
                    item["hidden"] = True  # nothing of the orders, not even what they did
                else:
                    item["texts"] = list(entry["texts"])
                    item.update({k: entry[k] for k in _FACTS if k in entry})
            else:
                item = dict(entry)
            out.append(item)
        for i, item in enumerate(out):
            item["n"] = i + 1
        return out

    def explanation_visible(self, state: State, entry: Entry) -> bool:
        st = _admiral(state)
        if entry.get("phase") == "deploy":
            return st.phase != Phase.DEPLOY or st.is_terminal()
        return not self._hidden(st, entry)

    # --- replays --------------------------------------------------------------------------------------
    def replay_step(self, state: State, player: int, viewer: int | None) -> Entry:
        """The phase and turn of each step; the dice of one roll make one step; for a player looking back at
        a game still on, another seat's attack assignment is one step that shows nothing of it (ADM-ATK-1)."""
        st = _admiral(state)
        facts: Entry = {"phase": st.phase.value, "turn": st.turn}
        if player == CHANCE:
            facts["group"] = f"roll:{st.turn}:{st.phase}"
        elif viewer is not None and player != viewer and st.phase == Phase.ATTACK:
            facts["group"] = f"orders:{st.turn}:{player}"
            facts["hidden"] = "orders committed (secret)"
        return facts

    def replay_notation(self, text: str, view: dict[str, Any]) -> str:
        return text  # the moves, the dice and the air attacks are public; the secret orders are hidden whole

    # --- legal actions in words --------------------------------------------------------------------
    def describe_actions(
        self, state: State, legal: list[int], view: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """Each legal action of the seat to move: the engine's notation, its kind, and the units and
        squares it involves (so that a click on a unit or a square can pick out its actions)."""
        st = _admiral(state)
        p = st.current_player()
        if p not in (0, 1):
            return []
        fleets = st.game.fleets
        seen = st.view(p) if view is None or view.get("player") != p else admiral_view(view)
        where: dict[tuple[int, str], str] = {}
        for sq, cell in enumerate(seen["board"]):
            for u in cell["units"]:
                where[(u["owner"], u["name"])] = square_name(sq)

        def unit(owner: int, slot: int) -> str | None:
            units = fleets[owner].units
            return units[slot].name if 0 <= slot < len(units) else None

        out: list[dict[str, Any]] = []
        for a in legal:
            d = decode(a)
            actor: str | None = None
            target: str | None = None
            square: str | None = None
            if d.kind in ("deploy", "submarine", "reserve", "move"):
                actor, square = unit(p, d.slot), square_name(d.square)
            elif d.kind in ("repair", "depth_charge", "launch", "strike", "hold"):
                actor = unit(p, d.slot)
            elif d.kind in ("fire", "torpedo"):
                actor, target = unit(p, d.slot), unit(1 - p, d.target)
            elif d.kind == "activate":
                owner = p if d.side == 0 else 1 - p
                if owner == p:
                    actor = unit(owner, d.slot)
                else:
                    target = unit(owner, d.slot)
            elif d.kind == "protect":
                target = unit(p, d.target)
            elif d.kind == "squadron":
                target = unit(1 - p, d.target)
            units = [n for n in (actor, target) if n is not None]
            squares = [s for s in (where.get((p, actor or "")), square, where.get((1 - p, target or ""))) if s]
            if d.kind == "protect" and target is not None and (p, target) in where:
                squares = [where[(p, target)]]
            out.append(
                {
                    "id": a,
                    "text": st.action_to_string(a),
                    "kind": d.kind,
                    "unit": actor,
                    "target": target,
                    "square": square,
                    "units": units,
                    "squares": squares,
                    "from": where.get((p, actor)) if actor is not None else None,
                }
            )
        return out


__all__ = ["AdmiralAdapter", "card_json"]
