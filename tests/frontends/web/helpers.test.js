// Unit tests of the browser client's pure helpers, run by node's test runner (`node --test tests/frontends/web/`,
// from scripts/test). They need no browser: the helpers touch the page only when called to draw.
import assert from "node:assert/strict";
import test from "node:test";

import {
  actionLine, faceText, parseSquare as admiralParse, squareName as admiralSquare,
} from "../../../src/fogofwar/frontends/web/admiral_board.js";
import {
  capitalize, describeOutcome, parseSquare, plainWords, rankSymbol, squareName,
} from "../../../src/fogofwar/frontends/web/common.js";
import { CELL, edgeLabels, MARGIN, squareCentre, squareOrigin } from "../../../src/fogofwar/frontends/web/grid_board.js";
import { initials, shortName, symbolOf } from "../../../src/fogofwar/frontends/web/lotr_board.js";

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
  const late = { winner: 1, termination: "timeout", reason: "red ran out of time" };
  assert.equal(describeOutcome(late, 0), "Blue wins — you lose (Red ran out of time)");
  assert.equal(describeOutcome({ winner: null, termination: "aborted", reason: "red aborted the game" }, 1), "Game aborted: no result");
  assert.equal(capitalize("evil"), "Evil");
});

test("Admiral's engine words become the player's", () => {
  assert.equal(faceText("torpedo+anti_aircraft"), "T+AA");
  assert.equal(faceText("movement"), "M");
  assert.equal(actionLine("move:Fletcher>C3/movement", {}), "Fletcher moves to C3 (Movement die)");
});

test("LOTR names fit on a piece and specials get their letters", () => {
  assert.equal(shortName("Knights of Rohan"), "Knights");
  assert.equal(shortName("Orc"), "Orc");
  assert.equal(shortName("Extraordinarily long name"), "Extraordin."); // ten letters and a point: 11 at most
  assert.equal(symbolOf("fortress"), "B");
  assert.equal(symbolOf(7), 7);
});

test("the board widget puts each seat's first row at the bottom, the second seat seeing the board turned round", () => {
  for (const size of [8, 10]) {
    const last = size - 1;
    assert.deepEqual(squareOrigin(0, size, 0), { x: MARGIN, y: last * CELL }); // A1 bottom left for the first seat
    assert.deepEqual(squareOrigin(0, size, 1), { x: MARGIN + last * CELL, y: 0 }); // top right for the second
    assert.deepEqual(squareOrigin(size * size - 1, size, 1), { x: MARGIN, y: last * CELL });
    const seen = new Set();
    for (let sq = 0; sq < size * size; sq++) {
      for (const seat of [0, 1]) {
        const { x, y } = squareOrigin(sq, size, seat);
        assert.ok(x >= MARGIN && x <= MARGIN + last * CELL && y >= 0 && y <= last * CELL);
        seen.add(`${seat}:${x},${y}`);
        assert.deepEqual(squareCentre(sq, size, seat), { x: x + CELL / 2, y: y + CELL / 2 });
      }
    }
    assert.equal(seen.size, 2 * size * size); // no two squares drawn on one spot
  }
});

test("the board's edge labels read as the seat sees the board", () => {
  assert.deepEqual(edgeLabels("ABCDEFGH", 0), { files: [..."ABCDEFGH"], rows: ["8", "7", "6", "5", "4", "3", "2", "1"] });
  assert.deepEqual(edgeLabels("ABCDEFGHIK", 1).files, [..."KIHGFEDCBA"]);
  assert.deepEqual(edgeLabels("ABCDEFGHIK", 1).rows[0], "1");
});

test("rule ids leave the words people read and are kept apart (on demand)", () => {
  assert.deepEqual(plainWords("C5 is a lake (STR-BOARD-1)"), { text: "C5 is a lake", ids: ["STR-BOARD-1"] });
  assert.deepEqual(plainWords("Kirishima moves (ADM-MOVE-2, ADM-MOVE-4)."), { text: "Kirishima moves.", ids: ["ADM-MOVE-2", "ADM-MOVE-4"] });
  assert.deepEqual(plainWords("SOLO-ADM-3: squadron attacks Yamato (SOLO-ATK-1)"), { text: "squadron attacks Yamato", ids: ["SOLO-ADM-3", "SOLO-ATK-1"] });
  assert.deepEqual(plainWords("a setup (see the docs) with no rule"), { text: "a setup (see the docs) with no rule", ids: [] });
  assert.equal(plainWords("the back-and-forth rule (LOTR-CHOICE-BACK-AND-FORTH) forbids it").text, "the back-and-forth rule forbids it");
});

test("LOTR characters get two letters that tell them apart on a small board", () => {
  assert.equal(initials("Witch-king"), "WK");
  assert.equal(initials("Knight of Rohan"), "KR");
  assert.equal(initials("Re Stregone"), "RS");
  assert.equal(initials("Cavaliere sul Mannaro"), "CM");
  assert.equal(initials("Aragorn"), "Ar");
});

test("stored player names read in the reader's language: the computer's level and unnamed seats, not people", async () => {
  const { playerName } = await import("../../../src/fogofwar/frontends/web/common.js");
  const { useCatalog } = await import("../../../src/fogofwar/frontends/web/i18n.js");
  useCatalog("it", { "Master": "Maestro", "computer": "computer", "red": "rosso", "evil": "male", "open seat": "posto libero" });
  try {
    assert.equal(playerName("Master (computer)"), "Maestro (computer)");
    assert.equal(playerName("Red"), "Rosso");
    assert.equal(playerName("Evil", ["evil", "good"]), "Male");
    assert.equal(playerName("Red", ["evil", "good"]), "Red"); // not a seat of this game: someone's name
    assert.equal(playerName("Anna"), "Anna");
    assert.equal(playerName(null), "posto libero");
  } finally {
    useCatalog("en", {});
  }
});
