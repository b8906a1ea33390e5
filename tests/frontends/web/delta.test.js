// The client's reading of the server's deltas (web/delta.js): patches, and which messages a page follows.
// tests/frontends/test_web_delta.py checks the same code on the patches the server makes of real games.
import assert from "node:assert/strict";
import test from "node:test";

import { applyPatch, follow } from "../../../src/fogofwar/frontends/web/delta.js";

test("a patch replaces, changes objects key by key and lists in place, at their end or slid", () => {
  assert.deepEqual(applyPatch(1, { "=": [2] }), [2]);
  const old = { a: 1, b: [1, 2, 3], c: { x: true }, gone: 0 };
  const patch = { o: { b: { l: [1, 2, [[0, { "=": 9 }]], [4]] }, c: { o: { y: { "=": null } } }, n: { "=": "new" } }, d: ["gone"] };
  assert.deepEqual(applyPatch(old, patch), { a: 1, b: [9, 3, 4], c: { x: true, y: null }, n: "new" });
  assert.deepEqual(old, { a: 1, b: [1, 2, 3], c: { x: true }, gone: 0 }, "the old value is left as it was");
  assert.deepEqual(applyPatch([1, 2, 3], { l: [0, 1, [], []] }), [1], "cut at its end");
});

test("a patch that does not fit the value is refused", () => {
  assert.throws(() => applyPatch([1], { l: [1, 1, [], []] }), /no list this long/);
  assert.throws(() => applyPatch(3, { o: {} }), /no object/);
  assert.throws(() => applyPatch({}, { l: [0, 0, [], []] }), /no list/);
});

test("a page follows a state, then the deltas that follow it; an old one changes nothing, a gap asks again", () => {
  const state = { type: "state", v: 4, game: { seq: 10 } };
  assert.equal(follow(null, state), state);
  assert.equal(follow(null, { type: "delta", v: 1, patch: {} }), null, "a delta before any state: a gap");
  const next = follow(state, { type: "delta", v: 5, patch: { o: { game: { o: { seq: { "=": 11 } } } } } });
  assert.deepEqual(next, { type: "state", v: 5, game: { seq: 11 } });
  assert.equal(state.game.seq, 10);
  assert.equal(follow(next, { type: "delta", v: 5, patch: { "=": 0 } }), next, "seen already");
  assert.equal(follow(next, { type: "delta", v: 3, patch: { "=": 0 } }), next, "older still");
  assert.equal(follow(next, { type: "delta", v: 7, patch: {} }), null, "v 6 went missing");
  assert.equal(follow(next, { type: "ack", id: 1 }), next);
  const again = { type: "state", v: 1, game: { seq: 12 } }; // a new connection numbers its views anew
  assert.equal(follow(next, again), again);
});
