// The clock's pure helpers (clock.js): how time left is written and counted down between server messages.
import assert from "node:assert/strict";
import test from "node:test";

import { clockKind, clockLabel, clockLeft, formatClock } from "../../../src/fogofwar/frontends/web/clock.js";

test("a clock shows minutes and seconds, tenths in the last ten seconds, hours and days when long", () => {
  assert.equal(formatClock(300), "5:00");
  assert.equal(formatClock(65.9), "1:05");
  assert.equal(formatClock(9.87), "0:09.8");
  assert.equal(formatClock(0.04), "0:00.0");
  assert.equal(formatClock(-3), "0:00.0");
  assert.equal(formatClock(3723), "1:02:03");
  assert.equal(formatClock(2 * 86400 + 3 * 3600 + 10), "2d 3h");
});

test("only the running seat's clock goes down between messages", () => {
  const clock = { left: [60, 45], running: 1, control: { label: "1+0" } };
  assert.deepEqual(clockLeft(clock, 10), [60, 35]);
  assert.deepEqual(clockLeft(clock, 100), [60, 0]);
  assert.deepEqual(clockLeft({ ...clock, running: null }, 10), [60, 45]);
  assert.deepEqual(clockLeft(clock, -5), [60, 45]); // a clock never counts up
});

test("time controls keep their label, correspondence ones are put in words", () => {
  assert.equal(clockLabel("5+3"), "5+3");
  assert.equal(clockLabel("1 day a move"), "1 day a move");
  assert.equal(clockLabel("3 days a move"), "3 days a move");
});

test("the lobby's clock filter sorts controls into untimed, live and days", () => {
  assert.equal(clockKind(null), "untimed");
  assert.equal(clockKind("10+5"), "live");
  assert.equal(clockKind("2 days a move"), "days");
});
