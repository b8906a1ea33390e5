// Admiral's words (admiral_board.js): the engine's notation, its report, the secret orders, the server's
// rolls and the movement phase's question, as the player reads them on the game page and in the replay
// (the readability issue: `Enterprise.armoured fighters`, `battery:main`, `Jenkins -> G3:smoke-v`,
// `torpedo_bomber`, `Helena@D3`, "Initiative: North won (0 vs 0 ★)", "North rolls (deployment): Kirishima@A8").
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import {
  actionLine, actionWords, faceWords, initiativeWords, keyWords, movementHelp, orderWords, reportWords, rollWords,
} from "../../../src/fogofwar/frontends/web/admiral_board.js";
import { useCatalog } from "../../../src/fogofwar/frontends/web/i18n.js";

const meta = {
  rules: {
    armoured_fighters: { name: "Armoured Fighters" }, no_radar: { name: "No Radar" }, smoke_projectors: { name: "Smoke Projectors" },
    efficient_damage_control: { name: "Efficient Damage Control" }, superior_steel: { name: "Superior Steel" },
  },
};
const name = (seat) => ["South", "North"][seat];
/** What the player must never read: keys, the notation's marks, a die's key. */
const ENGINE = /\b[a-z]+_[a-z_]+\b|[A-Za-z0-9]>[A-Za-z]|->|→|\w@[A-H][1-8]|:(?:smoke|dive|surface|draught|done|pass)\b|battery:|\w\.[a-z]|\/[a-z]/;

// One of each shape the engine writes (rules.py, action_to_string), as a game of the solo mode wrote them.
const NOTATIONS = [
  "pass", "commit", "decline", "air:done", "air:pass", "enter:done", "roll:movement+depth_charge", "first:South",
  "enter:Fletcher@A1", "Helena@D3", "Wahoo@C3", "move:Fletcher>C3/movement", "move:Jenkins>G3:smoke-v/movement",
  "move:Jenkins>G3:smoke-h/admiral", "move:Wahoo:surface>C2/movement", "move:Wahoo>C2:surface/movement",
  "move:I-19:dive>A5/admiral", "move:South Dakota>C3:draught/movement+depth_charge",
  "repair:Chokai/movement+depth_charge,artillery+anti_aircraft", "repair:Enterprise+edc/admiral,artillery",
  "fire:Washington.main>Yamato/artillery", "fire:Chokai.deck gun>Enterprise/artillery+anti_aircraft",
  "fire:I-58.dual-purpose>Helena/admiral", "torpedo:Fletcher>Yukikaze/torpedo+anti_aircraft",
  "dc:Fletcher/movement+depth_charge", "activate:Enterprise.armoured_fighters", "activate:Yamato.no_radar",
  "critical:movement", "critical:battery:main", "critical:anti_aircraft", "critical:smoke_projectors", "critical:launch",
  "launch:Enterprise", "protect:Washington", "airborne:torpedo_bomber", "strike:Enterprise", "squadron:bomber>Yamato",
  "squadron:torpedo_bomber>Yamato@D5", "aa:torpedo_bomber", "intercept:torpedo_bomber", "hold:Helena",
];

test("every decision the engine writes reads in words, with no key, mark or die id left", () => {
  for (const text of NOTATIONS) {
    for (const opts of [{}, { from: "F2", unit: "Helena", phase: "submarines" }]) {
      const line = actionLine(text, meta, opts);
      assert.ok(!ENGINE.test(line), `${text} -> ${line}`);
      assert.ok(line.length > 3, `${text} -> ${line}`);
    }
  }
});

test("a decision says what happens and, apart, the dice it spends", () => {
  assert.deepEqual(actionWords("fire:Helena.main>Chokai/artillery", meta),
    { what: "Helena's main battery fires at Chokai", dice: "Artillery die", faces: ["artillery"] });
  assert.deepEqual(actionWords("move:Jenkins>G3:smoke-v/movement", meta, { from: "F2" }),
    { what: "Jenkins moves from F2 to G3 laying smoke by way of F3", dice: "Movement die and Admiral die", faces: ["movement", "admiral"] });
  assert.equal(actionWords("move:Jenkins>G3:smoke-h/movement", meta, { from: "F2" }).what, "Jenkins moves from F2 to G3 laying smoke by way of G2");
  assert.equal(actionWords("move:Jenkins>G3:smoke-v/movement", meta).what, "Jenkins moves to G3 laying smoke (along its column first)");
  // 'Wahoo:surface -> C2' beside 'Wahoo -> C2:surface': the order of the two things it does
  assert.equal(actionWords("move:Wahoo:surface>C2/movement", meta, { from: "C3" }).what, "Wahoo surfaces, then moves from C3 to C2");
  assert.equal(actionWords("move:Wahoo>C2:surface/movement", meta, { from: "C3" }).what, "Wahoo moves from C3 to C2, then surfaces");
  assert.equal(actionWords("move:I-19:dive>A5/admiral", meta, { from: "A5" }).what, "I-19 dives where it is (A5)");
  assert.equal(actionLine("activate:Enterprise.armoured_fighters", meta), "Armoured Fighters on Enterprise (Admiral die)");
  assert.equal(actionLine("critical:battery:main", meta, { unit: "Helena" }), "critical marker on Helena's main battery");
  assert.equal(actionLine("squadron:torpedo_bomber>Yamato@D5", meta), "a torpedo bomber attacks Yamato from D5");
  assert.equal(actionLine("Helena@D3", meta), "Helena on D3");
  assert.equal(actionLine("repair:Enterprise+edc/movement,artillery", meta),
    "Enterprise repairs two structure points (Efficient Damage Control) (Movement die, Artillery die and Admiral die)");
  assert.equal(faceWords("torpedo+anti_aircraft"), "Torpedo + Anti-aircraft");
  assert.equal(keyWords("battery:deck gun"), "deck gun battery");
  assert.equal(keyWords("armoured_fighters", meta), "Armoured Fighters");
});

test("the report says what each order did, in words (the rule ids stay for the tooltip)", () => {
  assert.equal(reportWords("North's Shokaku attacks from the air: fighter > Helena, torpedo_bomber > Wahoo"),
    "North's Shokaku attacks from the air: fighter at Helena, torpedo bomber at Wahoo");
  assert.equal(reportWords("critical marker on Helena's battery:deck gun"), "Critical marker on Helena's deck gun battery");
  assert.equal(reportWords("critical marker on Enterprise's armoured_fighters", meta), "Critical marker on Enterprise's Armoured Fighters");
  assert.equal(reportWords("anti-aircraft fire: 1 dice, 1 hits (ADM-AIR-12)"), "Anti-aircraft fire: 1 die, 1 hit (ADM-AIR-12)");
  // The bombers' line gave the numbers only: what they did is said too (ADM-AIR-13)
  assert.equal(reportWords("1 bomber squadron(s) hit Chokai: coefficient 2 against armour 4 (ADM-AIR-13)"),
    "A bomber squadron hits Chokai: coefficient 2 against armour 4: no effect (ADM-AIR-13)");
  assert.equal(reportWords("2 bomber squadron(s) hit Chokai: coefficient 4 against armour 3"), "2 bomber squadrons hit Chokai: coefficient 4 against armour 3: critical and 1 structure point");
  assert.equal(reportWords("Wahoo sinks (ADM-RES-2)"), "Wahoo sinks (ADM-RES-2)");
});

test("the secret orders read as orders", () => {
  assert.equal(orderWords("Helena.main > Chokai (artillery)"), "Helena's main battery fires at Chokai (Artillery die)");
  assert.equal(orderWords("Fletcher torpedo > Yukikaze (torpedo+anti_aircraft)"), "Fletcher launches a torpedo at Yukikaze (Torpedo + Anti-aircraft die)");
  assert.equal(orderWords("Fletcher depth charges > I-19 (movement+depth_charge)"), "Fletcher drops depth charges on I-19 (Movement + Depth charge die)");
  assert.equal(orderWords("Washington: Superior Steel (admiral)"), "Superior Steel on Washington (Admiral die)");
  assert.equal(orderWords("Chokai.main > Wahoo (admiral symbol, artillery)"), "Chokai's main battery fires at Wahoo (its Admiral symbol and Artillery die)");
});

test("the server's rolls say what they were for: the solo deck, a unit's table row, the initiative", () => {
  const deck = rollWords({ phase: "deploy", faces: ["Kirishima@A8", "Chokai@B8"] }, "North");
  assert.equal(deck, "North's fleet comes from its shuffled deck, each card on the next square from its corner: Kirishima on A8, Chokai on B8");
  const row = { in_range: false, hold: false, admiral: "artillery" };
  assert.equal(rollWords({ phase: "solo_roll", faces: ["movement"], unit: "Helena", row }, "North"),
    "North rolls for Helena: Movement (no enemy it can damage is in range: it may move; its Admiral die counts as Artillery)");
  assert.equal(rollWords({ phase: "action_dice", faces: ["movement", "admiral"] }, "South"), "South rolls 2 action dice: M ★");
  const solo = { initiative: { winner: 1, admirals: [0, 0], rolls: [[], []] }, first_player: 0, solo: { seat: 1 } };
  const said = initiativeWords(solo, name);
  assert.ok(!said.includes("0 vs 0") && said.includes("always holds it") && said.includes("South act first"), said);
  const rolled = { initiative: { winner: 1, admirals: [1, 2], rolls: [[], []] }, first_player: 0, solo: null };
  assert.equal(initiativeWords(rolled, name), "Initiative: North won it, 2 Admiral symbols to 1; South acts first.");
});

test("the movement phase's question says what passing did and what is left", () => {
  const before = movementHelp({ forfeited: false, admirals: 2, moves: true });
  assert.ok(before.includes("Admiral die") && before.includes("you have 2 Admiral dice"), before);
  const after = movementHelp({ forfeited: true, admirals: 1, moves: true, other: "North (the computer)" });
  assert.ok(after.startsWith("You passed") && after.includes("pass again") && after.includes("North (the computer) moves between your goes"), after);
  assert.ok(movementHelp({ forfeited: false, admirals: 0, moves: true }).includes("ends your movement"));
});

test("in Italian, every sentence is the catalog's, in the Italian rulebook's words", () => {
  const url = new URL("../../../src/fogofwar/frontends/web/i18n/it.json", import.meta.url);
  useCatalog("it", JSON.parse(readFileSync(url, "utf8")));
  try {
    assert.equal(actionLine("fire:Helena.main>Chokai/artillery", meta), "la batteria principale di Helena spara a Chokai (dado Artiglieria)");
    assert.equal(actionLine("activate:Enterprise.armoured_fighters", meta), "Caccia Corazzati su Enterprise (dado Ammiraglio)");
    assert.equal(actionLine("move:Jenkins>G3:smoke-v/movement", meta, { from: "F2" }),
      "Jenkins muove da F2 a G3 stendendo una cortina di fumo passando per F3 (dado Movimento e dado Ammiraglio)");
    assert.equal(actionLine("critical:battery:main", meta, { unit: "Helena" }), "segnalino di danno critico sulla caratteristica batteria principale di Helena");
    assert.equal(reportWords("critical marker on Helena's battery:main"), "Segnalino di danno critico sulla caratteristica batteria principale di Helena");
    assert.equal(reportWords("North's Shokaku attacks from the air: fighter > Helena, torpedo_bomber > Wahoo"),
      "Shokaku di Nord attacca dal cielo: caccia contro Helena, aerosilurante contro Wahoo");
    assert.equal(reportWords("anti-aircraft fire: 3 dice, 1 hits (ADM-AIR-12)"), "Fuoco di contraerea: 3 dadi, 1 a segno (ADM-AIR-12)");
    assert.equal(orderWords("Fletcher depth charges > I-19 (movement+depth_charge)"), "Fletcher sgancia bombe di profondità su I-19 (dado Movimento + Bombe di Profondità)");
    const row = { in_range: true, hold: true, admiral: "artillery" };
    assert.equal(rollWords({ phase: "solo_roll", faces: ["admiral"], unit: "Helena", row }, "Nord"),
      "Nord lancia il dado per Helena: Ammiraglio (ha a gittata un nemico cui può infliggere danno: non si muove; il suo dado Ammiraglio assume il valore Artiglieria)");
    const help = movementHelp({ forfeited: true, admirals: 1, moves: true, other: "Nord (il computer)" });
    assert.ok(help.startsWith("Hai passato") && help.includes("1 dado Ammiraglio"), help);
    // The die faces and the special features by the rulebook's names
    assert.equal(faceWords("torpedo+anti_aircraft"), "Siluro + Contraerea");
    assert.equal(keyWords("armoured_fighters", meta), "Caccia Corazzati");
  } finally {
    useCatalog("en", {});
  }
});
