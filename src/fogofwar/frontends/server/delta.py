"""What changed between two state messages of one seat, as a patch the client applies to the one it holds.

After each change the server sends every connection a *delta*, {"type": "delta", "v": n, "events": [...],
"patch": ...}, instead of the whole state message: `diff(before, after)` of that seat's two views. The patch
is game-blind (it knows JSON, not games), so every game gets deltas without code of its own, and it carries
nothing but parts of the seat's new full view: a delta can tell a seat nothing its full view would not.

A patch is one of

- ``{"=": value}``: the new value, whole (a new key, or a value of another kind);
- ``{"o": {key: patch, ...}, "d": [key, ...]}``: an object whose keys in "o" changed (or are new) and whose
  keys in "d" went away (either may be missing);
- ``{"l": [drop, keep, [[i, patch], ...], [item, ...]]}``: a list, made by dropping `drop` items from the
  front of the old one, keeping the next `keep`, patching some of those (by their index in the new list)
  and appending the items: a move list grows at its end, a window of recent moves slides, a board changes
  in place.

`apply` is the reference reading of a patch and `follow` of the messages (the tests and the load benchmark
use them; the browser's web/delta.js does the same).
Values equal under Python's `==` count as unchanged, so a field must not change between `1`, `1.0` and
`True`; no view does.
"""

from __future__ import annotations

from typing import Any

Patch = dict[str, Any]
SLIDE = 9
"""A list that slid by fewer items than this is sent as the slide; one that slid further, whole."""


def diff(old: Any, new: Any) -> Patch | None:
    """The patch that turns `old` into `new` (JSON values), None if they are equal.

    >>> diff({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 2, 3], "c": None})
    {'o': {'b': {'l': [0, 2, [], [3]]}, 'c': {'=': None}}}
    >>> diff([1, 2, 3], [2, 3, 4])
    {'l': [1, 2, [], [4]]}
    >>> diff({"a": 1, "b": 2}, {"a": 1})
    {'d': ['b']}
    >>> diff(1, True)
    {'=': True}
    """
    if old is new:
        return None
    if type(old) is not type(new):
        return {"=": new}
    if isinstance(new, dict):
        return _diff_object(old, new)
    if isinstance(new, list):
        return _diff_list(old, new)
    return None if old == new else {"=": new}


def _diff_object(old: dict[str, Any], new: dict[str, Any]) -> Patch | None:
    changed: dict[str, Patch] = {}
    missing = object()
    for key, value in new.items():
        was = old.get(key, missing)
        if was is missing:
            changed[key] = {"=": value}
        elif was is not value and (type(was) is not type(value) or was != value):
            p = diff(was, value)
            if p is not None:
                changed[key] = p
    gone = [key for key in old if key not in new]
    patch: Patch = {}
    if changed:
        patch["o"] = changed
    if gone:
        patch["d"] = gone
    return patch or None


def _diff_list(old: list[Any], new: list[Any]) -> Patch | None:
    n, m = len(old), len(new)
    k = min(n, m)
    if old[:k] == new[:k]:  # grown or cut at its end (a move list), or equal
        return None if n == m else {"l": [0, k, [], new[k:]]} if k else {"=": new}
    changed = [i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b]  # over the shorter
    if len(changed) * 4 > k:
        for drop in range(1, min(SLIDE, n)):  # a window that slid (the recent moves): the old tail is the new head
            keep = min(n - drop, m)
            if old[drop : drop + keep] == new[:keep]:
                return {"l": [drop, keep, [], new[keep:]]}
        if len(changed) * 2 > k:  # most of it changed: cheaper whole
            return {"=": new}
    return {"l": [0, k, [[i, diff(old[i], new[i])] for i in changed], new[k:]]}  # a few items changed (a board)


def apply(value: Any, patch: Patch) -> Any:
    """`value` changed by `patch` (a new value; `value` itself is left as it was).

    >>> apply({"a": 1, "b": [1, 2]}, {"o": {"b": {"l": [1, 1, [[0, {"=": 5}]], [7]]}}, "d": ["a"]})
    {'b': [5, 7]}
    """
    if "=" in patch:
        return patch["="]
    if "l" in patch:
        drop, keep, sets, add = patch["l"]
        if not isinstance(value, list) or drop + keep > len(value):
            raise ValueError("a list patch for a value that is no list this long")
        out = value[drop : drop + keep]
        for i, p in sets:
            out[i] = apply(out[i], p)
        out.extend(add)
        return out
    if not isinstance(value, dict):
        raise ValueError("an object patch for a value that is no object")
    result = {k: v for k, v in value.items() if k not in patch.get("d", ())}
    for key, p in patch.get("o", {}).items():
        result[key] = apply(result.get(key), p)
    return result


def follow(held: dict[str, Any] | None, msg: dict[str, Any]) -> dict[str, Any] | None:
    """The state message a client holds after the server's `msg` (a "state" or a "delta"), given the one it held;
    None if `msg` is a delta that does not follow (a gap: the client asks for the whole view again, "sync").
    A delta it has seen already (not newer than what it holds) changes nothing.

    >>> held = {"type": "state", "v": 1, "game": {"seq": 4}}
    >>> follow(held, {"type": "delta", "v": 2, "patch": {"o": {"game": {"o": {"seq": {"=": 5}}}}}})
    {'type': 'state', 'v': 2, 'game': {'seq': 5}}
    >>> follow(held, {"type": "delta", "v": 1, "patch": {}}) is held
    True
    >>> follow(held, {"type": "delta", "v": 3, "patch": {}}) is None
    True
    """
    kind = msg.get("type")
    if kind == "state":
        return msg
    if kind != "delta":
        return held
    if held is None:
        return None
    version, have = int(msg["v"]), int(held["v"])
    if version <= have:
        return held
    if version != have + 1:
        return None
    state: dict[str, Any] = apply(held, msg["patch"])
    state["v"] = version
    return state


__all__ = ["Patch", "apply", "diff", "follow"]
