// @ts-check
// The Admiral battlefield, drawn from one seat's chair: the 8x8 sea with its terrain and smoke, the units
// (hull class, name, structure pips, critical markers; a submerged submarine as a dashed circle, small
// under a surface unit), the squadrons in the air. Pure drawing, no page state: the game page
// (admiral.js) and the replay viewer (replay_admiral.js) both draw with it, given the lobby's
// description of Admiral. Below the drawing, the panel pieces both show: dice, structure pips, squadrons,
// and the words both say things in (the engine's notation, report and orders as the player reads them).
import { capitalize, el } from "./common.js";
import { CELL, drawGrid, squareCentre, squareOrigin } from "./grid_board.js";
import { svg, svgText } from "./svg.js";

export const FILES = "ABCDEFGH";
export const SEATS = ["south", "north"];
export const SYMBOLS = { movement: "M", artillery: "A", torpedo: "T", anti_aircraft: "AA", depth_charge: "DC", admiral: "★" };
export const PHASES = {
  deploy: "Deployment", initiative: "Initiative", choose_first: "Initiative won", submarines: "Submarines",
  reserve: "Reserve", action_dice: "Action dice", movement: "Movement", reaction: "Reaction", launch: "Launch",
  air: "Air attacks", strike: "Air attack", air_react: "Air attack: reactions", air_roll: "Air combat",
  aa_pick: "Anti-aircraft", escort_pick: "Interception", attack: "Attack assignment", criticals: "Critical damage", solo_roll: "Solo roll",
};

export const squareName = (sq) => `${FILES[sq % 8]}${Math.floor(sq / 8) + 1}`;
export const parseSquare = (name) => (parseInt(name.slice(1), 10) - 1) * 8 + FILES.indexOf(name[0].toUpperCase());

/** A die face in symbols: 'torpedo+anti_aircraft' -> 'T+AA'. */
export function faceText(face) {
  return face.split("+").map((s) => SYMBOLS[s] || s).join("+");
}

// --- words: the engine's notation, report and orders as the player reads them ------------------------------
// The engine names things by key ('move:Jenkins>G3:smoke-v/movement', 'critical:battery:main',
// 'torpedo_bomber'); the page shows these words instead, with every feature, die, squadron and characteristic
// under its name. The game page and the replay viewer both use them; `meta` is the lobby's description of
// Admiral (its `rules` give the special features' names).

export const FACE_WORDS = {
  movement: "Movement", artillery: "Artillery", torpedo: "Torpedo", anti_aircraft: "Anti-aircraft",
  depth_charge: "Depth charge", admiral: "Admiral",
};
const KEY_WORDS = {
  anti_aircraft: "anti-aircraft", depth_charges: "depth charges", depth_charge: "depth charge", launch: "aircraft launch",
  torpedo_bomber: "torpedo bomber", torpedoes: "torpedoes", movement: "movement",
};
const SQUARE = "[A-H][1-8]";

/** A die face in words: 'movement+depth_charge' -> 'Movement + Depth charge'. */
export function faceWords(face) {
  return String(face).split("+").map((s) => FACE_WORDS[s] || s.replace(/_/g, " ")).join(" + ");
}

/** The dice an action spends: ['movement'] -> 'Movement die'; two -> 'Movement die and Artillery die'. */
export function diceWords(faces) {
  const each = faces.map((f) => (f === "admiral symbol" ? "its Admiral symbol" : `${faceWords(f)} die`));
  return each.length > 1 ? `${each.slice(0, -1).join(", ")} and ${each[each.length - 1]}` : each.join("");
}

/** A characteristic, feature or squadron type by name: 'battery:main' -> 'main battery',
 * 'armoured_fighters' -> 'Armoured Fighters', 'torpedo_bomber' -> 'torpedo bomber'. */
export function keyWords(key, meta = null) {
  const k = String(key);
  if (k.startsWith("battery:")) return `${k.slice(8)} battery`;
  const rule = meta && meta.rules ? meta.rules[k] : null;
  if (rule) return rule.name;
  return KEY_WORDS[k] ?? k.replace(/_/g, " ");
}

/** The corner of a smoke-laying move's L-shaped path (ADM-G08): rows first ('v') or columns first ('h'). */
function smokeCorner(from, to, path) {
  if (!from || from[0] === to[0] || from[1] === to[1]) return null; // a straight line: no corner
  return path === "v" ? `${from[0]}${to[1]}` : `${to[0]}${from[1]}`;
}

/**
 * A decision of the engine in words: {what, dice}. `what` says what happens ('Helena's main battery fires at
 * Chokai'), `dice` what it spends ('Artillery die'; '' for none). opts: `from` (the acting unit's square),
 * `unit` (the unit a critical marker goes on), `phase`.
 * @param {string} text the engine's notation
 * @param {any} meta
 * @param {{from?: string | null, unit?: string | null, phase?: string}} [opts]
 * @returns {{what: string, dice: string}}
 */
export function actionWords(text, meta, opts = {}) {
  const t = String(text);
  const fixed = {
    pass: "passes", commit: "commits its attack orders", decline: "declines", "air:done": "done",
    "air:pass": "makes no more air attacks this turn", "enter:done": "done entering units from reserve",
  };
  if (t in fixed) return { what: fixed[t], dice: "" };
  let m;
  if ((m = /^roll:(.+)$/.exec(t))) return { what: faceWords(m[1]), dice: "" };
  if ((m = /^first:(.+)$/.exec(t))) return { what: `${m[1]} acts first this turn`, dice: "" };
  if ((m = new RegExp(`^enter:(.+)@(${SQUARE})$`).exec(t))) return { what: `${m[1]} enters from reserve on ${m[2]}`, dice: "" };
  if ((m = /^move:(.+)\/([\w+]+)$/.exec(t))) {
    const body = new RegExp(`^(.+?)(?::(dive|surface))?>(${SQUARE})(?::(dive|surface))?(?::(draught|smoke-v|smoke-h))?$`).exec(m[1]);
    if (body) {
      const [, name, before, to, after, extra] = body;
      const from = opts.from || null;
      const verb = (side) => (side === "dive" ? "dives" : "surfaces");
      let what;
      if (before && from === to) what = `${name} ${verb(before)} where it is (${to})`;
      else if (before) what = `${name} ${verb(before)}, then moves ${from ? `from ${from} ` : ""}to ${to}`;
      else what = `${name} moves ${from ? `from ${from} ` : ""}to ${to}${after ? `, then ${verb(after)}` : ""}`;
      const dice = diceWords(extra ? [m[2], "admiral"] : [m[2]]); // a feature's Admiral die besides
      if (extra === "draught") {
        what += " across the shallows (Shallow Draught)";
      } else if (extra) {
        const corner = smokeCorner(from, to, extra === "smoke-v" ? "v" : "h");
        if (corner) what += ` laying smoke by way of ${corner}`;
        else if (from) what += " laying smoke"; // a straight line
        else what += extra === "smoke-v" ? " laying smoke (along its column first)" : " laying smoke (along its row first)";
      }
      return { what, dice };
    }
  }
  if ((m = /^repair:(.+?)(\+edc)?\/(.+)$/.exec(t))) {
    const dice = diceWords([...m[3].split(","), ...(m[2] ? ["admiral"] : [])]);
    return { what: m[2] ? `${m[1]} repairs two structure points (Efficient Damage Control)` : `${m[1]} repairs one structure point`, dice };
  }
  if ((m = /^fire:(.+)\.([^.>]+)>(.+)\/([\w+]+)$/.exec(t))) {
    return { what: `${m[1]}'s ${m[2]} battery fires at ${m[3]}`, dice: diceWords([m[4]]) };
  }
  if ((m = /^torpedo:(.+)>(.+)\/([\w+]+)$/.exec(t))) return { what: `${m[1]} launches a torpedo at ${m[2]}`, dice: diceWords([m[3]]) };
  if ((m = /^dc:(.+)\/([\w+]+)$/.exec(t))) return { what: `${m[1]} drops depth charges on the submarine below it`, dice: diceWords([m[2]]) };
  if ((m = /^activate:(.+)\.([a-z_]+)$/.exec(t))) return { what: `${keyWords(m[2], meta)} on ${m[1]}`, dice: "Admiral die" };
  if ((m = /^critical:(.+)$/.exec(t))) return { what: `critical marker on ${opts.unit ? `${opts.unit}'s` : "the"} ${keyWords(m[1], meta)}`, dice: "" };
  if ((m = /^launch:(.+)$/.exec(t))) return { what: `${m[1]} launches squadrons to patrol (combat air patrol)`, dice: "Admiral die" };
  if ((m = /^strike:(.+)$/.exec(t))) return { what: `${m[1]} launches an air attack`, dice: "" };
  if ((m = /^protect:(.+)$/.exec(t))) return { what: `a fighter protects ${m[1]}`, dice: "" };
  if ((m = /^airborne:(\w+)$/.exec(t))) return { what: `a ${keyWords(m[1])} stays in the air to attack later this turn`, dice: "" };
  if ((m = new RegExp(`^squadron:(\\w+)>(.+?)(?:@(${SQUARE}))?$`).exec(t))) {
    return { what: `a ${keyWords(m[1])} attacks ${m[2]}${m[3] ? ` from ${m[3]}` : ""}`, dice: "" };
  }
  if ((m = /^aa:(\w+)$/.exec(t))) return { what: `the anti-aircraft hit shoots down a ${keyWords(m[1])}`, dice: "" };
  if ((m = /^intercept:(\w+)$/.exec(t))) return { what: `the next protecting fighter takes on a ${keyWords(m[1])}`, dice: "" };
  if ((m = /^hold:(.+)$/.exec(t))) return { what: `${m[1]} stays where it is`, dice: "" };
  if ((m = new RegExp(`^(.+)@(${SQUARE})$`).exec(t))) {
    return { what: opts.phase === "submarines" ? `${m[1]} is placed on ${m[2]}, submerged` : `${m[1]} on ${m[2]}`, dice: "" };
  }
  return { what: t.replace(/_/g, " ").replace(/[:>]/g, " "), dice: "" };
}

/** A decision in one line: 'Helena moves from G1 to H2 (Movement die)'. */
export function actionLine(text, meta, opts = {}) {
  const { what, dice } = actionWords(text, meta, opts);
  return dice ? `${what} (${dice})` : what;
}

/** A line of the engine's report (a hit, a shot down squadron, a critical marker) in the player's words; the
 * rule ids stay for common.plainWords to put in a tooltip. */
export function reportWords(line, meta = null) {
  let t = String(line);
  const crit = /^critical marker on (.+)'s (.+)$/.exec(t);
  if (crit) t = `critical marker on ${crit[1]}'s ${keyWords(crit[2], meta)}`;
  const bombs = /^(\d+) bomber squadron\(s\) hit (.+?): coefficient (\d+) against armour (\d+)(.*)$/.exec(t);
  if (bombs) {
    const [n, c, a] = [Number(bombs[1]), Number(bombs[3]), Number(bombs[4])];
    const effect = c > a ? "critical and 1 structure point" : c === a ? "critical" : "no effect";
    t = `${n === 1 ? "a bomber squadron hits" : `${n} bomber squadrons hit`} ${bombs[2]}: coefficient ${c} against armour ${a}: ${effect}${bombs[5]}`;
  }
  t = t.replace(/\bbattery:([\w-]+)/g, "$1 battery")
    .replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (k) => keyWords(k, meta))
    .replace(/ > /g, " at ")
    .replace(/\b1 dice\b/, "1 die")
    .replace(/\b1 hits\b/, "1 hit");
  return t ? t[0].toUpperCase() + t.slice(1) : t;
}

/** An order of an attack assignment in words: 'Helena.main > Chokai (artillery)' -> 'Helena's main battery fires
 * at Chokai (Artillery die)'. */
export function orderWords(order, meta = null) {
  const o = String(order);
  const m = /^(.*) \(([^()]*)\)$/.exec(o);
  if (!m) return o;
  const dice = diceWords(m[2].split(", "));
  let r;
  if ((r = /^(.+)\.([^.>]+) > (.+)$/.exec(m[1]))) return `${r[1]}'s ${r[2]} battery fires at ${r[3]} (${dice})`;
  if ((r = /^(.+) torpedo > (.+)$/.exec(m[1]))) return `${r[1]} launches a torpedo at ${r[2]} (${dice})`;
  if ((r = /^(.+) depth charges > (.+)$/.exec(m[1]))) return `${r[1]} drops depth charges on ${r[2]} (${dice})`;
  if ((r = /^(.+): (.+)$/.exec(m[1]))) return `${r[2]} on ${r[1]} (${dice})`;
  return `${m[1]} (${dice})`;
}

/** A roll of the server's dice in the log: who rolls what for, and for the solo mode's deck and table, what
 * it means. `m` is the log's entry ({phase, faces, unit, row}); `who` names the seat that rolls. */
export function rollWords(m, who) {
  const faces = m.faces || [];
  const symbols = faces.map(faceText).join(" ");
  if (m.phase === "deploy") {
    const cards = faces.map((f) => f.replace("@", " on "));
    return `${who}'s fleet comes from its shuffled deck, each card on the next square from its corner: ${cards.join(", ")}`;
  }
  if (m.phase === "initiative") return `${who} rolls for the initiative: ${symbols}`;
  if (m.phase === "action_dice") return `${who} rolls ${faces.length} action dice: ${symbols}`;
  if (m.phase === "solo_roll" && m.unit) {
    let text = `${who} rolls for ${m.unit}: ${faces.map(faceWords).join(", ")}`;
    if (m.row) {
      const why = m.row.in_range ? "an enemy it can damage is in range" : "no enemy it can damage is in range";
      text += ` (${why}: it ${m.row.hold ? "holds its position" : "may move"}; its Admiral die counts as ${faceWords(m.row.admiral)})`;
    }
    return text;
  }
  if (m.phase === "air_roll") return `Dice of the air combat: ${symbols}`;
  return `${who} rolls: ${symbols}`;
}

/** The initiative in words: in the solo mode the computer always holds it and lets the player move first
 * (SOLO-INIT-1), so there is no roll to report. `view` is an observation; `name(seat)` names a seat. */
export function initiativeWords(view, name) {
  const init = view.initiative;
  if (!init || init.winner === null || init.winner === undefined) return "";
  const first = view.first_player !== null && view.first_player !== undefined ? name(view.first_player) : null;
  if (view.solo) {
    return `Initiative: ${name(view.solo.seat)}, the computer's admiral, always holds it in the solo game${first ? ` and lets ${first} act first` : ""}.`;
  }
  const w = init.winner;
  const a = init.admirals;
  const count = (n) => `${n} Admiral symbol${n === 1 ? "" : "s"}`;
  return `Initiative: ${name(w)} won it, ${count(a[w])} to ${a[1 - w]}${first ? `; ${first} acts first` : ""}.`;
}

/** What the movement phase asks of the player (ADM-MOVE-1, ADM-MOVE-5) in words: a go at a time, and once
 * passed, what is left to decide. forfeited: the player has passed; admirals: its unused Admiral dice; moves:
 * it has a decision other than passing; other: who moves between the player's goes. */
export function movementHelp({ forfeited, admirals, moves, other = "The other side" }) {
  const dice = `${admirals} Admiral ${admirals === 1 ? "die" : "dice"}`;
  if (!moves && !forfeited) return "Nothing can move, repair or launch now: pass (this gives up your Movement dice for this turn).";
  if (forfeited) {
    return moves
      ? `You passed: your Movement dice are given up for this turn. You may still move a unit with an Admiral die (you have ${dice} left; a repair or an aircraft launch takes one too), or pass again. ${other} moves between your goes.`
      : "You passed and have no Admiral die left: your movement is over for this turn.";
  }
  const after = admirals
    ? `Once you pass, your Movement dice are lost, but when your go comes back you may still move with an Admiral die (you have ${dice}).`
    : "Passing gives up your Movement dice and, as you have no Admiral die, ends your movement for this turn.";
  return `Your go: move one unit (a Movement die each; a unit moves once a turn), repair, launch aircraft, or pass. ${after}`;
}

/** The page's title of a game: 'Admiral · <the variant's title>'. */
export function admiralTitle(meta, g) {
  return `Admiral · ${(meta.variants.find((v) => v.name === g.variant) || { title: g.variant || "" }).title}`;
}

/** A fleet's dice as chips (a spent one struck through). */
export function diceChips(p, dice) {
  return dice.map((d) => el("span", {
    class: `die s${p}${d.used ? " used" : ""}`,
    title: `${d.face.replace(/_/g, " ")}${d.used ? `: spent on ${d.used}` : ""}`,
  }, faceText(d.face)));
}

/** A unit's structure as pips: the lost ones dimmed. */
export function pips(structure, max) {
  return el("span", { class: "pips" }, "●".repeat(Math.max(0, structure)), el("span", { class: "lost" }, "●".repeat(Math.max(0, max - structure))));
}

/** A squadron in the air in words: 'North dive bomber from Akagi: attacks Yorktown'. */
export function airLine(s) {
  const role = s.role === "cap" ? `protects ${s.ship}` : s.role === "strike" ? `attacks ${s.ship}` : "airborne";
  return `${capitalize(SEATS[s.owner])} ${s.type.replace("_", " ")} from ${s.carrier}: ${role}`;
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
  const t = svg("title");
  const where = u.submerged ? "submerged" : "surfaced";
  t.textContent = `${capitalize(SEATS[u.owner])} ${u.name} (${card ? card.class_name : ""}), ${u.structure}/${card ? card.structure : "?"} structure, ${where}`
    + (u.criticals && u.criticals.length ? `, criticals: ${u.criticals.map((c) => c[0]).join(", ")}` : "");
  g.append(t);
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
        const name = meta.terrain[cell.terrain]?.name || cell.terrain;
        squares.append(svgText({ class: "terrain-label", x: x + 50, y: y + 94 }, name));
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
