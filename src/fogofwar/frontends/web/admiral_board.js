// @ts-check
// The Admiral battlefield, drawn from one seat's chair: the 8x8 sea with its terrain and smoke, the units
// (hull class, name, structure pips, critical markers; a submerged submarine as a dashed circle, small
// under a surface unit), the squadrons in the air. Pure drawing, no page state: the game page
// (admiral.js) and the replay viewer (replay_admiral.js) both draw with it, given the lobby's
// description of Admiral. Below the drawing, the panel pieces both show: dice, structure pips, squadrons.
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

/** The engine's notation of a decision in words: 'move:Fletcher>C3/movement' -> 'Fletcher → C3 · dice: movement'. */
export function pretty(text) {
  let t = text;
  const i = t.indexOf(":");
  if (i > 0 && !/^[A-Z]/.test(t)) t = t.slice(i + 1);
  return t.replace(/>/g, " → ").replace(/\//, " · dice: ").replace(/_/g, " ").replace(/,/g, ", ");
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
        top.append(svg("rect", { class: `pick ${kind}${busy}`, x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 14 }));
      }
      if (o.focus !== null) {
        const { x, y } = origin(o.focus, o.perspective);
        top.append(svg("rect", { class: "focus", x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 8 }));
      }
    },
  });
  return { marks, overlay };
}
