"""Admiral's action ids: a fixed, stable layout of integer ranges, and its decoding.

Every range is `base + code`; the codes pack small fields (unit slot 0-31, square 0-63, die face 0-5,
...) so that an id means the same thing in every game with the same options. New ranges are only ever
appended at the end, so records stay readable.

| range | code | phase |
|---|---|---|
| DEPLOY_BASE | slot * 64 + square | deploy (ADM-SETUP-3) |
| ROLL_BASE | face | chance: initiative and action dice (ADM-INIT, ADM-DICE-1) |
| CHOOSE_FIRST | player | choose_first (ADM-INIT-3) |
| SUBMARINE_BASE | slot * 64 + square | submarines (ADM-SETUP-6) |
| RESERVE_BASE | slot * 64 + square | reserve (ADM-SETUP-5) |
| RESERVE_DONE, PASS, COMMIT, DECLINE | - | reserve / movement / attack / reaction |
| MOVE_BASE | ((slot * 64 + square) * NUM_MODES + mode) * 6 + face | movement (ADM-MOVE) |
| REPAIR_BASE | ((slot * 6 + movement face) * 6 + artillery face) * 2 + boost | movement (ADM-REP-1) |
| FIRE_BASE | ((slot * 4 + battery) * 32 + target slot) * 6 + face | attack (ADM-ART) |
| TORPEDO_BASE | (slot * 32 + target slot) * 6 + face | attack (ADM-TORP) |
| DEPTH_CHARGE_BASE | slot * 6 + face | attack (ADM-DC) |
| ACTIVATE_BASE | (side * 32 + slot) * 32 + rule index | attack (ADM-G*, ADM-R*); side 1 = enemy unit |
| CRITICAL_BASE | characteristic index | criticals (ADM-RES-3) |
| LAUNCH_BASE | carrier slot | movement: combat air patrol launch (ADM-AIR-1) |
| STRIKE_BASE | carrier slot | air: an air attack (ADM-AIR-2) |
| PROTECT_BASE | own ship slot | launch: a fighter protects that ship (ADM-AIR-1) |
| AIRBORNE_BASE | squadron type | launch: a squadron kept in the air to attack (ADM-AIR-1) |
| SQUADRON_BASE | (type * 32 + target slot) * 3 + place | strike: place 0 = on the target, 1/2 = left/right |
| AIR_DONE, AIR_PASS | - | launch / strike / air reactions; air: no more air attacks |
| AA_PICK_BASE | squadron type | aa_pick: the squadron an anti-aircraft hit destroys (ADM-AIR-12) |
| HOLD_BASE | unit slot | movement, solo mode: Admiral Stratego's acting unit moves 0 squares (SOLO-MOVE-2) |
| ESCORT_PICK_BASE | squadron type | escort_pick: the attack squadron a protecting fighter takes on (ADM-AIR-8) |

A move's `mode` is `side_change + 3 * extra`: side_change 0 = none, 1 = dive or surface before moving,
2 = after moving (ADM-SUB-7); extra 0 = none, 1 = Shallow Draught (ADM-G02), 2 = Smoke Projectors along
the vertical-first path, 3 = along the horizontal-first path (ADM-G08).

>>> decode(MOVE_BASE + encode_move(slot=2, square=10, mode=1, face=0)).slot
2
"""

from __future__ import annotations

from dataclasses import dataclass

NUM_SQUARES = 64
MAX_FLEET = 32
"""Unit slots per fleet that action ids can address."""
NUM_FACES = 6
MAX_BATTERIES = 4
MAX_CHARACTERISTICS = 16
MAX_RULES = 32
NUM_MODES = 12

DEPLOY_BASE = 0
ROLL_BASE = DEPLOY_BASE + MAX_FLEET * NUM_SQUARES
CHOOSE_FIRST = ROLL_BASE + NUM_FACES
SUBMARINE_BASE = CHOOSE_FIRST + 2
RESERVE_BASE = SUBMARINE_BASE + MAX_FLEET * NUM_SQUARES
RESERVE_DONE = RESERVE_BASE + MAX_FLEET * NUM_SQUARES
PASS = RESERVE_DONE + 1
COMMIT = PASS + 1
DECLINE = COMMIT + 1
MOVE_BASE = DECLINE + 1
REPAIR_BASE = MOVE_BASE + MAX_FLEET * NUM_SQUARES * NUM_MODES * NUM_FACES
FIRE_BASE = REPAIR_BASE + MAX_FLEET * NUM_FACES * NUM_FACES * 2
TORPEDO_BASE = FIRE_BASE + MAX_FLEET * MAX_BATTERIES * MAX_FLEET * NUM_FACES
DEPTH_CHARGE_BASE = TORPEDO_BASE + MAX_FLEET * MAX_FLEET * NUM_FACES
ACTIVATE_BASE = DEPTH_CHARGE_BASE + MAX_FLEET * NUM_FACES
CRITICAL_BASE = ACTIVATE_BASE + 2 * MAX_FLEET * MAX_RULES
LAUNCH_BASE = CRITICAL_BASE + MAX_CHARACTERISTICS
STRIKE_BASE = LAUNCH_BASE + MAX_FLEET
PROTECT_BASE = STRIKE_BASE + MAX_FLEET
NUM_SQUADRON_TYPES = 3
AIRBORNE_BASE = PROTECT_BASE + MAX_FLEET
SQUADRON_BASE = AIRBORNE_BASE + NUM_SQUADRON_TYPES
AIR_DONE = SQUADRON_BASE + NUM_SQUADRON_TYPES * MAX_FLEET * 3
AIR_PASS = AIR_DONE + 1
AA_PICK_BASE = AIR_PASS + 1
HOLD_BASE = AA_PICK_BASE + NUM_SQUADRON_TYPES
ESCORT_PICK_BASE = HOLD_BASE + MAX_FLEET
NUM_ACTIONS = ESCORT_PICK_BASE + NUM_SQUADRON_TYPES

SIDE_CHANGE_NONE, SIDE_CHANGE_BEFORE, SIDE_CHANGE_AFTER = 0, 1, 2
EXTRA_NONE, EXTRA_DRAUGHT, EXTRA_SMOKE_VERTICAL, EXTRA_SMOKE_HORIZONTAL = 0, 1, 2, 3


@dataclass(frozen=True)
class Decoded:
    """The fields of one action id; `kind` names its range, unused fields are -1."""

    kind: str
    slot: int = -1
    square: int = -1
    mode: int = -1
    face: int = -1
    face2: int = -1
    flag: int = -1
    battery: int = -1
    target: int = -1
    side: int = -1
    index: int = -1

    @property
    def side_change(self) -> int:
        return self.mode % 3

    @property
    def extra(self) -> int:
        return self.mode // 3


def encode_move(slot: int, square: int, mode: int, face: int) -> int:
    return ((slot * NUM_SQUARES + square) * NUM_MODES + mode) * NUM_FACES + face


def encode_repair(slot: int, movement_face: int, artillery_face: int, boost: int) -> int:
    return ((slot * NUM_FACES + movement_face) * NUM_FACES + artillery_face) * 2 + boost


def encode_fire(slot: int, battery: int, target: int, face: int) -> int:
    return ((slot * MAX_BATTERIES + battery) * MAX_FLEET + target) * NUM_FACES + face


def encode_torpedo(slot: int, target: int, face: int) -> int:
    return (slot * MAX_FLEET + target) * NUM_FACES + face


def encode_activate(side: int, slot: int, rule: int) -> int:
    return (side * MAX_FLEET + slot) * MAX_RULES + rule


def encode_squadron(kind: int, target: int, place: int) -> int:
    return (kind * MAX_FLEET + target) * 3 + place


def decode(action: int) -> Decoded:
    """Split an id into its fields; kind 'invalid' outside 0..NUM_ACTIONS-1."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        return Decoded("invalid")
    if action < ROLL_BASE:
        slot, sq = divmod(action - DEPLOY_BASE, NUM_SQUARES)
        return Decoded("deploy", slot=slot, square=sq)
    if action < CHOOSE_FIRST:
        return Decoded("roll", face=action - ROLL_BASE)
    if action < SUBMARINE_BASE:
        return Decoded("choose_first", index=action - CHOOSE_FIRST)
    if action < RESERVE_BASE:
        slot, sq = divmod(action - SUBMARINE_BASE, NUM_SQUARES)
        return Decoded("submarine", slot=slot, square=sq)
    if action < RESERVE_DONE:
        slot, sq = divmod(action - RESERVE_BASE, NUM_SQUARES)
        return Decoded("reserve", slot=slot, square=sq)
    if action == RESERVE_DONE:
        return Decoded("reserve_done")
    if action == PASS:
        return Decoded("pass")
    if action == COMMIT:
        return Decoded("commit")
    if action == DECLINE:
        return Decoded("decline")
    if action < REPAIR_BASE:
        rest, face = divmod(action - MOVE_BASE, NUM_FACES)
        rest, mode = divmod(rest, NUM_MODES)
        slot, sq = divmod(rest, NUM_SQUARES)
        return Decoded("move", slot=slot, square=sq, mode=mode, face=face)
    if action < FIRE_BASE:
        rest, boost = divmod(action - REPAIR_BASE, 2)
        rest, face2 = divmod(rest, NUM_FACES)
        slot, face = divmod(rest, NUM_FACES)
        return Decoded("repair", slot=slot, face=face, face2=face2, flag=boost)
    if action < TORPEDO_BASE:
        rest, face = divmod(action - FIRE_BASE, NUM_FACES)
        rest, target = divmod(rest, MAX_FLEET)
        slot, battery = divmod(rest, MAX_BATTERIES)
        return Decoded("fire", slot=slot, battery=battery, target=target, face=face)
    if action < DEPTH_CHARGE_BASE:
        rest, face = divmod(action - TORPEDO_BASE, NUM_FACES)
        slot, target = divmod(rest, MAX_FLEET)
        return Decoded("torpedo", slot=slot, target=target, face=face)
    if action < ACTIVATE_BASE:
        slot, face = divmod(action - DEPTH_CHARGE_BASE, NUM_FACES)
        return Decoded("depth_charge", slot=slot, face=face)
    if action < CRITICAL_BASE:
        rest, rule = divmod(action - ACTIVATE_BASE, MAX_RULES)
        side, slot = divmod(rest, MAX_FLEET)
        return Decoded("activate", side=side, slot=slot, index=rule)
    if action < LAUNCH_BASE:
        return Decoded("critical", index=action - CRITICAL_BASE)
    if action < STRIKE_BASE:
        return Decoded("launch", slot=action - LAUNCH_BASE)
    if action < PROTECT_BASE:
        return Decoded("strike", slot=action - STRIKE_BASE)
    if action < AIRBORNE_BASE:
        return Decoded("protect", target=action - PROTECT_BASE)
    if action < SQUADRON_BASE:
        return Decoded("airborne", index=action - AIRBORNE_BASE)
    if action < AIR_DONE:
        rest, place = divmod(action - SQUADRON_BASE, 3)
        kind, target = divmod(rest, MAX_FLEET)
        return Decoded("squadron", index=kind, target=target, flag=place)
    if action == AIR_DONE:
        return Decoded("air_done")
    if action == AIR_PASS:
        return Decoded("air_pass")
    if action < HOLD_BASE:
        return Decoded("aa_pick", index=action - AA_PICK_BASE)
    if action < ESCORT_PICK_BASE:
        return Decoded("hold", slot=action - HOLD_BASE)
    return Decoded("escort_pick", index=action - ESCORT_PICK_BASE)


__all__ = [
    "AA_PICK_BASE",
    "ACTIVATE_BASE",
    "AIRBORNE_BASE",
    "AIR_DONE",
    "AIR_PASS",
    "LAUNCH_BASE",
    "NUM_SQUADRON_TYPES",
    "PROTECT_BASE",
    "SQUADRON_BASE",
    "STRIKE_BASE",
    "encode_squadron",
    "CHOOSE_FIRST",
    "COMMIT",
    "CRITICAL_BASE",
    "DECLINE",
    "DEPLOY_BASE",
    "DEPTH_CHARGE_BASE",
    "Decoded",
    "ESCORT_PICK_BASE",
    "EXTRA_DRAUGHT",
    "EXTRA_NONE",
    "EXTRA_SMOKE_HORIZONTAL",
    "EXTRA_SMOKE_VERTICAL",
    "FIRE_BASE",
    "HOLD_BASE",
    "MAX_BATTERIES",
    "MAX_CHARACTERISTICS",
    "MAX_FLEET",
    "MAX_RULES",
    "MOVE_BASE",
    "NUM_ACTIONS",
    "NUM_FACES",
    "NUM_MODES",
    "PASS",
    "REPAIR_BASE",
    "RESERVE_BASE",
    "RESERVE_DONE",
    "ROLL_BASE",
    "SIDE_CHANGE_AFTER",
    "SIDE_CHANGE_BEFORE",
    "SIDE_CHANGE_NONE",
    "SUBMARINE_BASE",
    "TORPEDO_BASE",
    "decode",
    "encode_activate",
    "encode_fire",
    "encode_move",
    "encode_repair",
    "encode_torpedo",
]
