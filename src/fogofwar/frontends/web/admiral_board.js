// @ts-check
// The Admiral battlefield, drawn from one seat's chair: the 8x8 sea with its terrain and smoke, the units
// (hull class, name, structure pips, critical markers; a submerged submarine as a dashed circle, small
// under a surface unit), the squadrons in the air. Pure drawing, no page state: the game page
// (admiral.js) and the replay viewer (replay_admiral.js) both draw with it, given the lobby's
// description of Admiral. Below the drawing, the panel pieces both show: dice, structure pips, squadrons,
// and the words both say things in (the engine's notation, report and orders as the player reads them), in the
// page's language (i18n.js: each sentence one template, its names and numbers filled in).
import { capitalize, el } from "./common.js";
import { CELL, drawGrid, squareCentre, squareOrigin } from "./grid_board.js";
import { N_, t } from "./i18n.js";
import { svg, svgText } from "./svg.js";

export const FILES = "ABCDEFGH";
export const SEATS = ["south", "north"];
/** The die's symbols as the chips show them (the legend under the dice names them; they stay in every language). */
export const SYMBOLS = { movement: "M", artillery: "A", torpedo: "T", anti_aircraft: "AA", depth_charge: "DC", admiral: "★" };
/** The phases by name; `phaseWords` gives them in the page's language. */
export const PHASES = {
  deploy: N_("Deployment"), initiative: N_("Initiative"), choose_first: N_("Initiative won"), submarines: N_("Submarines"),
  reserve: N_("Reserve"), action_dice: N_("Action dice"), movement: N_("Movement"), reaction: N_("Reaction"), launch: N_("Launch"),
  air: N_("Air attacks"), strike: N_("Air attack"), air_react: N_("Air attack: reactions"), air_roll: N_("Air combat"),
  aa_pick: N_("Anti-aircraft"), escort_pick: N_("Interception"), attack: N_("Attack assignment"), criticals: N_("Critical damage"),
  solo_roll: N_("Solo roll"),
};

export const squareName = (sq) => `${FILES[sq % 8]}${Math.floor(sq / 8) + 1}`;
export const parseSquare = (name) => (parseInt(name.slice(1), 10) - 1) * 8 + FILES.indexOf(name[0].toUpperCase());

/** A phase in the page's language: 'movement' -> 'Movement' ('Movimento'). */
export function phaseWords(phase) {
  return phase in PHASES ? t(PHASES[phase]) : String(phase || "");
}

/** A seat in the page's language: 0 -> 'South' ('Sud'); '' for none. */
export function seatWords(seat) {
  return seat === null || seat === undefined || !SEATS[seat] ? "" : capitalize(t(SEATS[seat]));
}

/** A seat as the engine writes it in its notation and report ('South', 'North'), in the page's language. */
function engineSeat(name) {
  const at = SEATS.indexOf(String(name).toLowerCase());
  return at >= 0 ? seatWords(at) : name;
}

/** A die face in symbols: 'torpedo+anti_aircraft' -> 'T+AA'. */
export function faceText(face) {
  return face.split("+").map((s) => SYMBOLS[s] || s).join("+");
}

// --- words: the engine's notation, report and orders as the player reads them ------------------------------
// The engine names things by key ('move:Jenkins>G3:smoke-v/movement', 'critical:battery:main',
// 'torpedo_bomber'); the page shows these words instead, with every feature, die, squadron and characteristic
// under its name. The game page and the replay viewer both use them; `meta` is the lobby's description of
// Admiral (its `rules` give the special features' names). Every sentence is one template of the catalog
// (i18n.js), so that another language may order its words its own way; the names in it (units, squares) stay.

/** The die's symbols by name (the Italian rulebook's: Movimento, Artiglieria, Siluro, Contraerea, Bombe di
 * Profondità, Ammiraglio). The Admiral face is "Admiral symbol": "Admiral" alone is the game's name. */
export const FACE_WORDS = {
  movement: N_("Movement"), artillery: N_("Artillery"), torpedo: N_("Torpedo"), anti_aircraft: N_("Anti-aircraft"),
  depth_charge: N_("Depth charge"), admiral: N_("Admiral symbol"),
};
const KEY_WORDS = {
  anti_aircraft: N_("anti-aircraft"), depth_charges: N_("depth charges"), depth_charge: N_("depth charge"),
  launch: N_("aircraft launch"), torpedo_bomber: N_("torpedo bomber"), torpedoes: N_("torpedoes"), movement: N_("movement"),
  fighter: N_("fighter"), bomber: N_("bomber"),
};
/** A carrier's squadrons counted: one, and more. */
const SQUADRONS = {
  fighter: [N_("1 fighter"), N_("{n} fighters")],
  bomber: [N_("1 bomber"), N_("{n} bombers")],
  torpedo_bomber: [N_("1 torpedo bomber"), N_("{n} torpedo bombers")],
};
/** What a hit did (the engine's words, in the report's battery and bomber lines). */
const EFFECTS = {
  "critical and 1 structure point": N_("critical and 1 structure point"), critical: N_("critical"), "no effect": N_("no effect"),
};
const SQUARE = "[A-H][1-8]";

/** A die face in words: 'movement+depth_charge' -> 'Movement + Depth charge'. */
export function faceWords(face) {
  return String(face).split("+").map((s) => (FACE_WORDS[s] ? t(FACE_WORDS[s]) : s.replace(/_/g, " "))).join(" + ");
}

/** A list in words: 'a, b and c'. */
function listWords(items) {
  if (items.length < 2) return items.join("");
  return t("{list} and {last}", { list: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

/** The dice an action spends: ['movement'] -> 'Movement die'; two -> 'Movement die and Artillery die'. */
export function diceWords(faces) {
  return listWords(faces.map((f) => {
    if (f === "admiral symbol") return t("its Admiral symbol");
    if (f === "admiral") return t("Admiral die");
    return t("{face} die", { face: faceWords(f) });
  }));
}

/** A battery by name: 'main' -> 'main battery'. */
function batteryWords(name) {
  return t("{name} battery", { name: t(name) });
}

/** A characteristic, feature or squadron type by name: 'battery:main' -> 'main battery',
 * 'armoured_fighters' -> 'Armoured Fighters', 'torpedo_bomber' -> 'torpedo bomber'. */
export function keyWords(key, meta = null) {
  const k = String(key);
  if (k.startsWith("battery:")) return batteryWords(k.slice(8));
  const rule = meta && meta.rules ? meta.rules[k] : null;
  if (rule) return t(rule.name);
  return k in KEY_WORDS ? t(KEY_WORDS[k]) : k.replace(/_/g, " ");
}

/** A carrier's squadrons of one type, counted: (2, 'fighter') -> '2 fighters'. */
export function squadronWords(kind, n) {
  const forms = SQUADRONS[kind];
  if (!forms) return `${n} ${keyWords(kind)}`;
  return n === 1 ? t(forms[0]) : t(forms[1], { n });
}

/** A special feature by its English name (as the engine's report and orders write it), in the page's language. */
const featureWords = (name) => t(name);

/** The corner of a smoke-laying move's L-shaped path (ADM-G08): rows first ('v') or columns first ('h'). */
function smokeCorner(from, to, path) {
  if (!from || from[0] === to[0] || from[1] === to[1]) return null; // a straight line: no corner
  return path === "v" ? `${from[0]}${to[1]}` : `${to[0]}${from[1]}`;
}

/** A move in words: who goes where, and a submarine's dive or surfacing, before or after. */
function moveWords(unit, from, to, before, after) {
  const p = { unit, from, to, square: to };
  if (before && from === to) return before === "dive" ? t("{unit} dives where it is ({square})", p) : t("{unit} surfaces where it is ({square})", p);
  if (before === "dive") return from ? t("{unit} dives, then moves from {from} to {to}", p) : t("{unit} dives, then moves to {to}", p);
  if (before) return from ? t("{unit} surfaces, then moves from {from} to {to}", p) : t("{unit} surfaces, then moves to {to}", p);
  if (after === "dive") return from ? t("{unit} moves from {from} to {to}, then dives", p) : t("{unit} moves to {to}, then dives", p);
  if (after) return from ? t("{unit} moves from {from} to {to}, then surfaces", p) : t("{unit} moves to {to}, then surfaces", p);
  return from ? t("{unit} moves from {from} to {to}", p) : t("{unit} moves to {to}", p);
}

/** A critical marker in words; `unit` the unit it goes on, if known. */
function criticalWords(unit, key, meta) {
  const characteristic = keyWords(key, meta);
  return unit ? t("critical marker on {unit}'s {characteristic}", { unit, characteristic }) : t("critical marker on the {characteristic}", { characteristic });
}

const fireWords = (unit, battery, target) => t("{unit}'s {battery} fires at {target}", { unit, battery: batteryWords(battery), target });
const torpedoWords = (unit, target) => t("{unit} launches a torpedo at {target}", { unit, target });

/** The dice a decision spends, by the engine's notation: ['movement', 'admiral'] (a feature's Admiral die besides). */
function spends(text) {
  let m;
  if ((m = /^move:(.+)\/([\w+]+)$/.exec(text))) return /:(draught|smoke-v|smoke-h)$/.test(m[1]) ? [m[2], "admiral"] : [m[2]];
  if ((m = /^repair:(.+?)(\+edc)?\/(.+)$/.exec(text))) return [...m[3].split(","), ...(m[2] ? ["admiral"] : [])];
  if ((m = /^(?:fire|torpedo|dc):.+\/([\w+]+)$/.exec(text))) return [m[1]];
  if (/^(?:activate|launch):/.test(text)) return ["admiral"];
  return [];
}

/**
 * A decision of the engine in words: {what, dice, faces}. `what` says what happens ('Helena's main battery fires
 * at Chokai'), `dice` what it spends ('Artillery die'; '' for none), `faces` the die faces it spends (['artillery']).
 * opts: `from` (the acting unit's square), `unit` (the unit a critical marker goes on), `phase`.
 * @param {string} text the engine's notation
 * @param {any} meta
 * @param {{from?: string | null, unit?: string | null, phase?: string}} [opts]
 * @returns {{what: string, dice: string, faces: string[]}}
 */
export function actionWords(text, meta, opts = {}) {
  const faces = spends(String(text));
  const said = (what) => ({ what, dice: faces.length ? diceWords(faces) : "", faces });
  return said(decisionWords(String(text), meta, opts));
}

/** What a decision does, in words (actionWords's `what`). */
function decisionWords(notation, meta, opts) {
  const fixed = {
    pass: N_("passes"), commit: N_("commits its attack orders"), decline: N_("declines"), "air:done": N_("done"),
    "air:pass": N_("makes no more air attacks this turn"), "enter:done": N_("done entering units from reserve"),
  };
  if (notation in fixed) return t(fixed[notation]);
  let m;
  if ((m = /^roll:(.+)$/.exec(notation))) return faceWords(m[1]);
  if ((m = /^first:(.+)$/.exec(notation))) return t("{seat} acts first this turn", { seat: engineSeat(m[1]) });
  if ((m = new RegExp(`^enter:(.+)@(${SQUARE})$`).exec(notation))) return t("{unit} enters from reserve on {square}", { unit: m[1], square: m[2] });
  if ((m = /^move:(.+)\/([\w+]+)$/.exec(notation))) {
    const body = new RegExp(`^(.+?)(?::(dive|surface))?>(${SQUARE})(?::(dive|surface))?(?::(draught|smoke-v|smoke-h))?$`).exec(m[1]);
    if (body) {
      const [, name, before, to, after, extra] = body;
      const from = opts.from || null;
      const move = moveWords(name, from, to, before, after);
      if (extra === "draught") return t("{move} across the shallows ({feature})", { move, feature: t("Shallow Draught") });
      if (!extra) return move;
      const corner = smokeCorner(from, to, extra === "smoke-v" ? "v" : "h");
      if (corner) return t("{move} laying smoke by way of {corner}", { move, corner });
      if (from) return t("{move} laying smoke", { move }); // a straight line
      return extra === "smoke-v" ? t("{move} laying smoke (along its column first)", { move }) : t("{move} laying smoke (along its row first)", { move });
    }
  }
  if ((m = /^repair:(.+?)(\+edc)?\/(.+)$/.exec(notation))) {
    return m[2]
      ? t("{unit} repairs two structure points ({feature})", { unit: m[1], feature: t("Efficient Damage Control") })
      : t("{unit} repairs one structure point", { unit: m[1] });
  }
  if ((m = /^fire:(.+)\.([^.>]+)>(.+)\/([\w+]+)$/.exec(notation))) return fireWords(m[1], m[2], m[3]);
  if ((m = /^torpedo:(.+)>(.+)\/([\w+]+)$/.exec(notation))) return torpedoWords(m[1], m[2]);
  if ((m = /^dc:(.+)\/([\w+]+)$/.exec(notation))) return t("{unit} drops depth charges on the submarine below it", { unit: m[1] });
  if ((m = /^activate:(.+)\.([a-z_]+)$/.exec(notation))) return t("{feature} on {unit}", { feature: keyWords(m[2], meta), unit: m[1] });
  if ((m = /^critical:(.+)$/.exec(notation))) return criticalWords(opts.unit || null, m[1], meta);
  if ((m = /^launch:(.+)$/.exec(notation))) return t("{carrier} launches squadrons to patrol (combat air patrol)", { carrier: m[1] });
  if ((m = /^strike:(.+)$/.exec(notation))) return t("{carrier} launches an air attack", { carrier: m[1] });
  if ((m = /^protect:(.+)$/.exec(notation))) return t("a fighter protects {unit}", { unit: m[1] });
  if ((m = /^airborne:(\w+)$/.exec(notation))) return t("a {squadron} stays in the air to attack later this turn", { squadron: keyWords(m[1]) });
  if ((m = new RegExp(`^squadron:(\\w+)>(.+?)(?:@(${SQUARE}))?$`).exec(notation))) {
    const p = { squadron: keyWords(m[1]), target: m[2], square: m[3] };
    return m[3] ? t("a {squadron} attacks {target} from {square}", p) : t("a {squadron} attacks {target}", p);
  }
  if ((m = /^aa:(\w+)$/.exec(notation))) return t("the anti-aircraft hit shoots down a {squadron}", { squadron: keyWords(m[1]) });
  if ((m = /^intercept:(\w+)$/.exec(notation))) return t("the next protecting fighter takes on a {squadron}", { squadron: keyWords(m[1]) });
  if ((m = /^hold:(.+)$/.exec(notation))) return t("{unit} stays where it is", { unit: m[1] });
  if ((m = new RegExp(`^(.+)@(${SQUARE})$`).exec(notation))) {
    const p = { unit: m[1], square: m[2] };
    return opts.phase === "submarines" ? t("{unit} is placed on {square}, submerged", p) : t("{unit} on {square}", p);
  }
  return notation.replace(/_/g, " ").replace(/[:>]/g, " ");
}

/** A decision in one line: 'Helena moves from G1 to H2 (Movement die)'. */
export function actionLine(text, meta, opts = {}) {
  const { what, dice } = actionWords(text, meta, opts);
  return dice ? `${what} (${dice})` : what;
}

const RULE_IDS_AT_END = /((?:\s*\((?:ADM|SOLO|STR)-[A-Z0-9-]+\))*)$/;

/** A line of the engine's report (docs: the resolution, the air war) said in a template of the catalog, or null
 * for a line of another shape. */
function reportSentence(body, meta) {
  let m;
  const n = Number; // a number of the line
  if ((m = /^(South|North)'s (.+?) attacks from the air: (.+)$/.exec(body))) {
    const targets = m[3].split(", ").map((part) => {
      const r = /^(\w+) > (.+)$/.exec(part);
      return r ? t("{squadron} at {target}", { squadron: keyWords(r[1]), target: r[2] }) : part;
    });
    return t("{seat}'s {carrier} attacks from the air: {targets}", { seat: engineSeat(m[1]), carrier: m[2], targets: targets.join(", ") });
  }
  if ((m = /^anti-aircraft fire: (\d+) dice, (\d+) hits?$/.exec(body))) {
    const dice = n(m[1]) === 1 ? t("1 die") : t("{n} dice", { n: n(m[1]) });
    const hits = n(m[2]) === 1 ? t("1 hit") : t("{n} hits", { n: n(m[2]) });
    return t("anti-aircraft fire: {dice}, {hits}", { dice, hits });
  }
  if ((m = /^anti-aircraft fire destroys (.+)'s (\w+)$/.exec(body))) {
    return t("anti-aircraft fire destroys {carrier}'s {squadron}", { carrier: m[1], squadron: keyWords(m[2]) });
  }
  if ((m = /^(.+): (.+): (\d+) anti-aircraft dice rolled again$/.exec(body))) {
    return t("{carrier}: {feature}: {n} anti-aircraft dice rolled again", { carrier: m[1], feature: featureWords(m[2]), n: n(m[3]) });
  }
  if ((m = /^(.+)'s fighter destroys (.+)'s (\w+)$/.exec(body))) {
    return t("{guard}'s fighter destroys {raider}'s {squadron}", { guard: m[1], raider: m[2], squadron: keyWords(m[3]) });
  }
  if ((m = /^(.+)'s (\w+) gets past (.+)'s fighter$/.exec(body))) {
    return t("{raider}'s {squadron} gets past {guard}'s fighter", { raider: m[1], squadron: keyWords(m[2]), guard: m[3] });
  }
  if ((m = /^(.+)'s fighter shoots down (.+)'s fighter$/.exec(body))) return t("{winner}'s fighter shoots down {loser}'s fighter", { winner: m[1], loser: m[2] });
  if ((m = /^(.+)'s and (.+)'s fighters tie: the escort is held off$/.exec(body))) return t("{guard}'s and {raider}'s fighters tie: the escort is held off", { guard: m[1], raider: m[2] });
  if ((m = /^(.+)'s Armoured Fighters: the opponent rolls again$/.exec(body))) {
    return t("{carrier}'s {feature}: the opponent rolls again", { carrier: m[1], feature: featureWords("Armoured Fighters") });
  }
  if ((m = /^(\d+) bomber squadron\(s\) hit (.+?): coefficient (\d+) against armour (\d+)$/.exec(body))) {
    const [c, a] = [n(m[3]), n(m[4])];
    const p = { n: n(m[1]), target: m[2], coefficient: c, armour: a, effect: t(c > a ? EFFECTS["critical and 1 structure point"] : c === a ? EFFECTS.critical : EFFECTS["no effect"]) };
    return p.n === 1
      ? t("a bomber squadron hits {target}: coefficient {coefficient} against armour {armour}: {effect}", p)
      : t("{n} bomber squadrons hit {target}: coefficient {coefficient} against armour {armour}: {effect}", p);
  }
  if ((m = /^a torpedo bomber hits (.+?)( \(Protective Belt: no structure loss\))?$/.exec(body))) {
    return m[2]
      ? t("a torpedo bomber hits {target} ({feature}: no structure loss)", { target: m[1], feature: featureWords("Protective Belt") })
      : t("a torpedo bomber hits {target}", { target: m[1] });
  }
  if ((m = /^(.+)'s (.+) battery hits (.+): coefficient (\d+) against armour (\d+): (.+)$/.exec(body))) {
    const p = { unit: m[1], battery: batteryWords(m[2]), target: m[3], coefficient: n(m[4]), armour: n(m[5]), effect: t(EFFECTS[m[6]] ?? m[6]) };
    return t("{unit}'s {battery} hits {target}: coefficient {coefficient} against armour {armour}: {effect}", p);
  }
  if ((m = /^(.+)'s torpedo at (.+) is faulty: no effect$/.exec(body))) return t("{unit}'s torpedo at {target} is faulty: no effect", { unit: m[1], target: m[2] });
  if ((m = /^(.+)'s torpedo hits (.+): critical \(Protective Belt: no structure loss\)$/.exec(body))) {
    return t("{unit}'s torpedo hits {target}: critical ({feature}: no structure loss)", { unit: m[1], target: m[2], feature: featureWords("Protective Belt") });
  }
  if ((m = /^(.+)'s torpedo hits (.+): critical and 1 structure point$/.exec(body))) {
    return t("{unit}'s torpedo hits {target}: critical and 1 structure point", { unit: m[1], target: m[2] });
  }
  if ((m = /^(.+)'s depth charges destroy (.+)$/.exec(body))) return t("{unit}'s depth charges destroy {submarine}", { unit: m[1], submarine: m[2] });
  if ((m = /^(South|North) activates (.+) on (.+)$/.exec(body))) return t("{seat} activates {feature} on {unit}", { seat: engineSeat(m[1]), feature: featureWords(m[2]), unit: m[3] });
  if ((m = /^(.+): (.+) prevents a critical marker$/.exec(body))) return t("{unit}: {feature} prevents a critical marker", { unit: m[1], feature: featureWords(m[2]) });
  if ((m = /^critical marker on (.+)'s (.+)$/.exec(body))) return criticalWords(m[1], m[2], meta);
  if ((m = /^(.+) repairs (\([^()]*\)): (South|North) may answer$/.exec(body))) return t("{unit} repairs {rule}: {seat} may answer", { unit: m[1], rule: m[2], seat: engineSeat(m[3]) });
  if ((m = /^(.+) regains (\d+) structure points?$/.exec(body))) {
    const p = { unit: m[1], n: n(m[2]) };
    return p.n === 1 ? t("{unit} regains 1 structure point", p) : t("{unit} regains {n} structure points", p);
  }
  if ((m = /^(.+) sinks$/.exec(body))) return t("{unit} sinks", { unit: m[1] });
  return null;
}

/** A line of the engine's report (a hit, a shot down squadron, a critical marker) in the player's words; the
 * rule ids stay for common.plainWords to put in a tooltip. A line of a shape not known here keeps the engine's
 * words, its keys said as words. */
export function reportWords(line, meta = null) {
  const all = String(line);
  const ids = RULE_IDS_AT_END.exec(all)?.[1] ?? "";
  const body = all.slice(0, all.length - ids.length);
  let said = reportSentence(body, meta);
  if (said === null) {
    said = body.replace(/\bbattery:([\w-]+)/g, "$1 battery")
      .replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (k) => keyWords(k, meta))
      .replace(/ > /g, " at ")
      .replace(/\b1 dice\b/, "1 die")
      .replace(/\b1 hits\b/, "1 hit");
  }
  return capitalize(said + ids);
}

/** An order of an attack assignment in words: 'Helena.main > Chokai (artillery)' -> 'Helena's main battery fires
 * at Chokai (Artillery die)'. */
export function orderWords(order, meta = null) {
  const o = String(order);
  const m = /^(.*) \(([^()]*)\)$/.exec(o);
  if (!m) return o;
  const dice = diceWords(m[2].split(", "));
  let r;
  let what = m[1];
  if ((r = /^(.+)\.([^.>]+) > (.+)$/.exec(m[1]))) what = fireWords(r[1], r[2], r[3]);
  else if ((r = /^(.+) torpedo > (.+)$/.exec(m[1]))) what = torpedoWords(r[1], r[2]);
  else if ((r = /^(.+) depth charges > (.+)$/.exec(m[1]))) what = t("{unit} drops depth charges on {target}", { unit: r[1], target: r[2] });
  else if ((r = /^(.+): (.+)$/.exec(m[1]))) what = t("{feature} on {unit}", { feature: featureWords(r[2]), unit: r[1] });
  return `${what} (${dice})`;
}

/** What a die was spent on (the engine's words in a fleet's dice: 'move Helena', 'attack: fire Helena.main >
 * Chokai', 'Enterprise: Armoured Fighters'), in the player's words. */
export function usedWords(used) {
  const u = String(used);
  let m;
  if ((m = /^(.*) \(second target\)$/.exec(u))) return t("{use} (second target)", { use: usedWords(m[1]) });
  if ((m = /^move (.+)$/.exec(u))) return t("{unit} moves", { unit: m[1] });
  if ((m = /^repair (.+)$/.exec(u))) return t("{unit} repairs", { unit: m[1] });
  if ((m = /^launch (.+)$/.exec(u))) return t("{carrier} launches squadrons", { carrier: m[1] });
  if ((m = /^attack: fire (.+)\.([^.>]+) > (.+)$/.exec(u))) return fireWords(m[1], m[2], m[3]);
  if ((m = /^attack: torpedo (.+) > (.+)$/.exec(u))) return torpedoWords(m[1], m[2]);
  if ((m = /^attack: depth charge (.+) > (.+)$/.exec(u))) return t("{unit} drops depth charges on {target}", { unit: m[1], target: m[2] });
  if ((m = /^(?:attack: )?(.+): (.+)$/.exec(u))) return t("{feature} on {unit}", { feature: featureWords(m[2]), unit: m[1] });
  return u;
}

/** The table row a solo roll gave, in words (SOLO-TAB): why, what the unit does, what its Admiral die counts as. */
function soloRowWords(roll, row) {
  const why = row.in_range ? t("an enemy it can damage is in range") : t("no enemy it can damage is in range");
  const what = row.hold ? t("it holds its position") : t("it may move");
  return t("{roll} ({why}: {what}; its Admiral die counts as {face})", { roll, why, what, face: faceWords(row.admiral) });
}

/** A roll of the server's dice in the log: who rolls what for, and for the solo mode's deck and table, what
 * it means. `m` is the log's entry ({phase, faces, unit, row}); `who` names the seat that rolls. */
export function rollWords(m, who) {
  const faces = m.faces || [];
  const symbols = faces.map(faceText).join(" ");
  if (m.phase === "deploy") {
    const cards = faces.map((f) => {
      const [unit, square] = f.split("@");
      return square ? t("{unit} on {square}", { unit, square }) : f;
    });
    return t("{seat}'s fleet comes from its shuffled deck, each card on the next square from its corner: {cards}", { seat: who, cards: cards.join(", ") });
  }
  if (m.phase === "initiative") return t("{seat} rolls for the initiative: {dice}", { seat: who, dice: symbols });
  if (m.phase === "action_dice") return t("{seat} rolls {n} action dice: {dice}", { seat: who, n: faces.length, dice: symbols });
  if (m.phase === "solo_roll" && m.unit) {
    const roll = t("{seat} rolls for {unit}: {faces}", { seat: who, unit: m.unit, faces: faces.map(faceWords).join(", ") });
    return m.row ? soloRowWords(roll, m.row) : roll;
  }
  if (m.phase === "air_roll") return t("Dice of the air combat: {dice}", { dice: symbols });
  return t("{seat} rolls: {dice}", { seat: who, dice: symbols });
}

/** The initiative in words: in the solo mode the computer always holds it and lets the player move first
 * (SOLO-INIT-1), so there is no roll to report. `view` is an observation; `name(seat)` names a seat. */
export function initiativeWords(view, name) {
  const init = view.initiative;
  if (!init || init.winner === null || init.winner === undefined) return "";
  const first = view.first_player !== null && view.first_player !== undefined ? name(view.first_player) : null;
  if (view.solo) {
    const p = { seat: name(view.solo.seat), first };
    return first
      ? t("Initiative: {seat}, the computer's admiral, always holds it in the solo game and lets {first} act first.", p)
      : t("Initiative: {seat}, the computer's admiral, always holds it in the solo game.", p);
  }
  const w = init.winner;
  const a = init.admirals;
  const count = a[w] === 1 ? t("1 Admiral symbol") : t("{n} Admiral symbols", { n: a[w] });
  const p = { seat: name(w), count, other: a[1 - w], first };
  return first ? t("Initiative: {seat} won it, {count} to {other}; {first} acts first.", p) : t("Initiative: {seat} won it, {count} to {other}.", p);
}

/** What the movement phase asks of the player (ADM-MOVE-1, ADM-MOVE-5) in words: a go at a time, and once
 * passed, what is left to decide. forfeited: the player has passed; admirals: its unused Admiral dice; moves:
 * it has a decision other than passing; other: who moves between the player's goes.
 * @param {{forfeited: boolean, admirals: number, moves: boolean, other?: string}} o */
export function movementHelp({ forfeited, admirals, moves, other = "" }) {
  const dice = admirals === 1 ? t("1 Admiral die") : t("{n} Admiral dice", { n: admirals });
  const others = other || t("The other side");
  if (!moves && !forfeited) return t("Nothing can move, repair or launch now: pass (this gives up your Movement dice for this turn).");
  if (forfeited) {
    return moves
      ? t("You passed: your Movement dice are given up for this turn. You may still move a unit with an Admiral die (you have {dice} left; a repair or an aircraft launch takes one too), or pass again. {other} moves between your goes.", { dice, other: others })
      : t("You passed and have no Admiral die left: your movement is over for this turn.");
  }
  const after = admirals
    ? t("Once you pass, your Movement dice are lost, but when your go comes back you may still move with an Admiral die (you have {dice}).", { dice })
    : t("Passing gives up your Movement dice and, as you have no Admiral die, ends your movement for this turn.");
  return t("Your go: move one unit (a Movement die each; a unit moves once a turn), repair, launch aircraft, or pass. {after}", { after });
}

/** The page's title of a game: 'Admiral · <the variant's title>'. */
export function admiralTitle(meta, g) {
  const variant = meta.variants.find((v) => v.name === g.variant);
  return `Admiral · ${variant ? t(variant.title) : g.variant || ""}`;
}

/** A fleet's dice as chips (a spent one struck through). */
export function diceChips(p, dice) {
  return dice.map((d) => el("span", {
    class: `die s${p}${d.used ? " used" : ""}`,
    title: d.used ? t("{face}, spent: {use}", { face: faceWords(d.face), use: usedWords(d.used) }) : faceWords(d.face),
  }, faceText(d.face)));
}

/** A unit's structure as pips: the lost ones dimmed. */
export function pips(structure, max) {
  return el("span", { class: "pips" }, "●".repeat(Math.max(0, structure)), el("span", { class: "lost" }, "●".repeat(Math.max(0, max - structure))));
}

/** A squadron in the air in words: 'North dive bomber from Akagi: attacks Yorktown'. */
export function airLine(s) {
  const p = { seat: seatWords(s.owner), squadron: keyWords(s.type), carrier: s.carrier, unit: s.ship };
  if (s.role === "cap") return capitalize(t("{seat} {squadron} from {carrier}: protects {unit}", p));
  if (s.role === "strike") return capitalize(t("{seat} {squadron} from {carrier}: attacks {unit}", p));
  return capitalize(t("{seat} {squadron} from {carrier}: airborne", p));
}

export const origin = (/** @type {number} */ sq, /** @type {number} */ perspective) => squareOrigin(sq, 8, perspective);
export const centre = (/** @type {number} */ sq, /** @type {number} */ perspective) => squareCentre(sq, 8, perspective);

function unitNode(u, sq, o, withSub, meta) {
  const { x, y } = origin(sq, o.perspective);
  const card = meta.cards[u.name];
  const classes = ["unit", `s${u.owner}`];
  if (u.submerged) classes.push("sub");
  if (u.moved) classes.push("moved");
  if (o.selected === u.name) classes.push("selected");
  if (u.preview) classes.push("preview");
  const g = svg("g", { class: classes.join(" "), "data-sq": sq, "data-unit": u.name, transform: `translate(${x} ${y})` });
  if (u.submerged) {
    const big = !withSub;
    const cx = big ? 50 : 80;
    const cy = big ? 50 : 52;
    const r = big ? 36 : 17;
    g.append(svg("circle", { class: "hull", cx, cy, r }));
    g.append(svgText({ class: "cls", x: cx, y: cy - (big ? 6 : 0), style: `font-size:${big ? 26 : 13}px` }, "SS"));
    if (big) g.append(svgText({ class: "uname", x: 50, y: 74 }, u.name));
  } else {
    g.append(svg("rect", { class: "hull", x: 7, y: 12, width: 86, height: 76, rx: 16 }));
    g.append(svgText({ class: "cls", x: 50, y: 42 }, card ? card.class : "?"));
    g.append(svgText({ class: "uname", x: 50, y: 76 }, u.name.length > 11 ? `${u.name.slice(0, 10)}.` : u.name));
    const max = card ? card.structure : u.structure;
    for (let i = 0; i < max; i++) {
      g.append(svg("circle", { class: i < u.structure ? "pip" : "pip lost", cx: 50 - (max - 1) * 5.5 + i * 11, cy: 21, r: 4 }));
    }
  }
  (u.criticals || []).forEach((_, i) => {
    g.append(svg("path", { class: "crit", d: `M${84 - i * 12} ${u.submerged ? 8 : 92} l6 -11 l6 11 z` }));
  });
  const tip = svg("title");
  const p = { seat: seatWords(u.owner), unit: u.name, class: card ? t(card.class_name) : "?", structure: u.structure, max: card ? card.structure : "?" };
  const said = u.submerged ? t("{seat} {unit} ({class}), {structure}/{max} structure, submerged", p) : t("{seat} {unit} ({class}), {structure}/{max} structure, surfaced", p);
  const crits = (u.criticals || []).map((c) => keyWords(c[0], meta));
  tip.textContent = crits.length ? t("{unit}, critical markers: {list}", { unit: said, list: crits.join(", ") }) : said;
  g.append(tip);
  return g;
}

/**
 * Draw the battlefield.
 * o: board (64 cells {terrain, units, smoke}), perspective, air (squadrons), last (squares to outline),
 * picks (Map square -> "" | "enemy"), focus (square or null), selected (unit name or null), area (Set),
 * clickable (bool). meta: the lobby's description of Admiral (cards, terrain).
 */
export function drawAdmiralBoard(root, opts, meta) {
  const o = { perspective: 0, area: new Set(), last: [], air: [], picks: new Map(), focus: null, selected: null, clickable: false, ...opts };
  /** @type {import("./grid_board.js").GridRenderer} */
  const renderer = {
    size: 8,
    files: FILES,
    ground(sq, { x, y }, { squares, overlay }) {
      const alt = (Math.floor(sq / 8) + (sq % 8)) % 2 === 1;
      const cell = o.board[sq];
      squares.append(svg("rect", { class: ["sea", alt ? "alt" : "", o.area.has(sq) ? "area" : ""].join(" ").trim(), x, y, width: CELL, height: CELL }));
      if (cell && cell.terrain) {
        squares.append(svg("rect", { class: `terrain ${cell.terrain}`, x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 10 }));
        const name = t(meta.terrain[cell.terrain]?.name || cell.terrain);
        const fit = name.length > 12 ? { textLength: 92, lengthAdjust: "spacingAndGlyphs" } : {}; // 'Banco di Nebbia'
        squares.append(svgText({ class: "terrain-label", x: x + 50, y: y + 94, ...fit }, name));
      }
      if (cell && cell.smoke) overlay.append(svg("rect", { class: "smoke", x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 30 }));
    },
    piece(sq, _at, { pieces }) {
      const list = o.board[sq] ? o.board[sq].units : [];
      const surface = list.filter((u) => !u.submerged);
      const subs = list.filter((u) => u.submerged);
      for (const u of surface) pieces.append(unitNode(u, sq, o, false, meta));
      for (const u of subs) pieces.append(unitNode(u, sq, o, surface.length > 0, meta));
    },
  };
  const { marks, overlay } = drawGrid(root, renderer, {
    perspective: o.perspective,
    last: o.last,
    lastRounded: true,
    clickable: o.clickable,
    decorate({ overlay: top }) {
      for (const s of o.air) {
        if (!s.square || !s.alive) continue;
        const { x, y } = origin(parseSquare(s.square), o.perspective);
        top.append(svg("path", { class: "plane", d: `M${x + 14} ${y + 30} l14 -8 l14 8 l-14 -20 z` }));
      }
      for (const [sq, kind] of o.picks) {
        const { x, y } = origin(sq, o.perspective);
        const busy = o.board[sq] && o.board[sq].units.length ? " busy" : "";
        top.append(svg("rect", { class: `pick ${kind}${busy}`, "data-sq": sq, x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 14 }));
      }
      if (o.focus !== null) {
        const { x, y } = origin(o.focus, o.perspective);
        top.append(svg("rect", { class: "focus", x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 8 }));
      }
    },
  });
  return { marks, overlay };
}
