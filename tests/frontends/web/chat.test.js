// Unit tests of the chat's pure helpers (src/fogofwar/frontends/web/chat.js): the rooms a screen reads (the
// server's rule), merging a room's messages, counting a message's length as the server does, refusals in words.
import assert from "node:assert/strict";
import test from "node:test";

import { chatLength, chatRefusal, HISTORY, MAX_CHARS, mergeLines, roomsFor } from "../../../src/fogofwar/frontends/web/chat.js";
import { useCatalog } from "../../../src/fogofwar/frontends/web/i18n.js";

test("a screen reads the rooms chat.py's rooms_for gives it", () => {
  assert.deepEqual(roomsFor("invite", null, false), ["spectators"]);
  assert.deepEqual(roomsFor("invite", null, true), ["spectators"]); // never the players' room
  assert.deepEqual(roomsFor("invite", 0, false), ["players"]);
  assert.deepEqual(roomsFor("invite", 1, true), ["players", "spectators"]);
  assert.deepEqual(roomsFor("agent", 0, false), []);
  assert.deepEqual(roomsFor("hotseat", 1, true), ["spectators"]);
});

test("a room's messages come once each, oldest first, the newest kept", () => {
  const line = (id) => ({ id, text: `m${id}` });
  assert.deepEqual(mergeLines([line(1), line(3)], [line(2), line(3)]).map((l) => l.id), [1, 2, 3]);
  const many = Array.from({ length: HISTORY + 5 }, (_, i) => line(i));
  const kept = mergeLines([], many);
  assert.equal(kept.length, HISTORY);
  assert.equal(kept[0].id, 5);
});

test("a message's length is counted in characters, as the server counts it", () => {
  assert.equal(chatLength("  hi  "), 2);
  assert.equal(chatLength("👍👍"), 2);
  assert.equal(MAX_CHARS, 300);
});

test("the server's refusals are said in the reader's words, numbers kept", () => {
  useCatalog("en", {});
  assert.equal(chatRefusal({ error: "too_long", message: "x" }), "A message holds at most 300 characters.");
  const slow = { error: "slow_down", message: "slow down: at most 5 chat messages in 10 seconds; wait 4 s" };
  assert.equal(chatRefusal(slow), "Slow down: at most 5 messages in 10 seconds. Wait 4 s.");
  useCatalog("it", { "Slow down: at most {n} messages in {s} seconds. Wait {wait} s.": "Più piano: {n} in {s}, {wait}" });
  assert.equal(chatRefusal(slow), "Più piano: 5 in 10, 4");
  assert.equal(chatRefusal({ error: "forbidden", message: "not your room" }), "not your room");
  useCatalog("en", {});
});
