// Unit tests of the browser client's pure helpers, run by node's test runner (`node --test tests/frontends/web/`,
// from scripts/test). They need no browser: the helpers touch the page only when called to draw.
import assert from "node:assert/strict";
import test from "node:test";

import {
  faceText, parseSquare as admiralParse, pretty, squareName as admiralSquare,
} from "../../../src/fogofwar/frontends/web/admiral_board.js";
import {
  capitalize, describeOutcome, parseSquare, rankSymbol, squareName,
} from "../../../src/fogofwar/frontends/web/common.js";
import { shortName, symbolOf } from "../../../src/fogofwar/frontends/web/lotr_board.js";

test("Stratego square names read back, with no J file (ISF notation)", () => {
  for (let sq = 0; sq < 100; sq++) assert.equal(parseSquare(squareName(sq)), sq);
  assert.equal(squareName(0), "A1");
  assert.equal(squareName(9), "K1");
  assert.equal(squareName(99), "K10");
  assert.equal(parseSquare("b2"), 11);
});

test("Admiral square names read back on its 8x8 board", () => {
  for (let sq = 0; sq < 64; sq++) assert.equal(admiralParse(admiralSquare(sq)), sq);
  assert.equal(admiralSquare(63), "H8");
});

test("rank symbols follow the notation the player chose (classic: 1 = marshal; modern: 10)", () => {
  const stored = new Map();
  globalThis.localStorage = /** @type {any} */ ({ getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => stored.set(k, v) });
  assert.equal(rankSymbol("marshal"), "1");
  assert.equal(rankSymbol("scout"), "9");
  stored.set("fogofwar.notation", "modern");
  assert.equal(rankSymbol("marshal"), "10");
  assert.equal(rankSymbol("bomb"), "B");
  assert.equal(rankSymbol("dragon"), "?");
  delete globalThis.localStorage;
});

test("an outcome reads from the player's side", () => {
  const won = { winner: 0, reason: "flag captured" };
  assert.equal(describeOutcome(won, 0), "Red wins — you win! (flag captured)");
  assert.equal(describeOutcome(won, 1), "Red wins — you lose (flag captured)");
  assert.equal(describeOutcome(won, null), "Red wins (flag captured)");
  assert.equal(describeOutcome({ winner: null, reason: "move limit" }, 0), "Draw: move limit");
  assert.equal(describeOutcome(null, 0), "");
  assert.equal(capitalize("evil"), "Evil");
});

test("Admiral's engine words become the player's", () => {
  assert.equal(faceText("torpedo+anti_aircraft"), "T+AA");
  assert.equal(faceText("movement"), "M");
  assert.equal(pretty("move:Fletcher>C3/movement"), "Fletcher → C3 · dice: movement");
});

test("LOTR names fit on a piece and specials get their letters", () => {
  assert.equal(shortName("Knights of Rohan"), "Knights");
  assert.equal(shortName("Orc"), "Orc");
  assert.equal(shortName("Extraordinarily long name"), "Extraordin."); // ten letters and a point: 11 at most
  assert.equal(symbolOf("fortress"), "B");
  assert.equal(symbolOf(7), 7);
});
