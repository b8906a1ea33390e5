// @ts-check
// Stratego's pieces and lakes on the one board widget (grid_board.js), which draws the grid from one seat's
// chair, the last move, the targets, the click areas and the coordinates.
import { FILES, rankSymbol, SEAT_NAMES, squareName } from "./common.js";
import { CELL, drawGrid, squareCentre } from "./grid_board.js";
import { arrow, svg } from "./svg.js";

const LAKES = new Set([42, 43, 46, 47, 52, 53, 56, 57]);
const centre = (/** @type {number} */ sq, /** @type {number} */ perspective) => squareCentre(sq, 10, perspective);

function describe(cell, me) {
  if (!cell || cell === "lake") return "";
  const side = SEAT_NAMES[cell.owner];
  const what = cell.rank ? `${cell.rank} (${rankSymbol(cell.rank)})` : "unknown piece";
  const notes = [];
  if (cell.owner !== me && !cell.rank && cell.moved) notes.push("has moved");
  if (cell.owner === me && cell.revealed) notes.push("known to the enemy");
  return `${side} ${what}${notes.length ? `, ${notes.join(", ")}` : ""}`;
}

function pieceNode(sq, cell, o, opts) {
  const classes = ["piece", SEAT_NAMES[cell.owner]];
  if (!cell.rank) classes.push("unknown");
  if (opts.movable.has(sq)) classes.push("movable");
  if (opts.selected === sq) classes.push("selected");
  if (opts.wasHidden.has(sq)) classes.push("was-hidden");
  if (opts.preview) classes.push("preview");
  const g = svg("g", { class: classes.join(" "), "data-sq": sq, transform: `translate(${o.x} ${o.y})` });
  g.append(svg("rect", { class: "body", x: 9, y: 9, width: 82, height: 82, rx: 12 }));
  if (cell.rank) {
    const sym = svg("text", { class: "sym", x: 50, y: 44 });
    sym.textContent = rankSymbol(cell.rank);
    const name = svg("text", { class: "name", x: 50, y: 82 });
    name.textContent = cell.rank;
    g.append(sym, name);
  } else {
    g.append(svg("path", { class: "emblem", d: "M50 28 L72 50 L50 72 L28 50 Z" })); // a hidden rank
  }
  if (cell.owner !== opts.me && !cell.rank && cell.moved) {
    g.append(svg("circle", { class: "moved-mark", cx: 78, cy: 22, r: 7 })); // moved: not a bomb or flag
  }
  if (cell.owner === opts.me && cell.revealed && !opts.final) {
    g.append(svg("circle", { class: "seen-mark", cx: 22, cy: 22, r: 8 })); // the enemy knows this rank
  }
  const title = svg("title");
  title.textContent = `${squareName(sq)}: ${describe(cell, opts.me)}`;
  g.append(title);
  return g;
}

/**
 * Draw the board.
 * opts: board (100 cells), perspective (seat at the bottom), me (seat or null), selected (square or null),
 * targets (Map square -> "move" | "attack"), movable (Set), lastMove ({from, to, battle} squares or null),
 * area (Set of setup squares to tint), wasHidden (Set), preview (bool), final (bool), clickable (Set).
 */
export function drawBoard(root, opts) {
  const o = {
    perspective: 0, me: null, selected: null, targets: new Map(), movable: new Set(), lastMove: null,
    area: new Set(), wasHidden: new Set(), preview: false, final: false, clickable: new Set(), ...opts,
  };
  /** @type {import("./grid_board.js").GridRenderer} */
  const renderer = {
    size: 10,
    files: FILES,
    blocked: (sq) => LAKES.has(sq),
    ground(sq, { x, y }, { squares }) {
      if (LAKES.has(sq)) {
        squares.append(svg("rect", { class: "lake", x, y, width: CELL, height: CELL }));
        for (const dy of [30, 55, 80]) {
          squares.append(svg("path", { class: "wave", d: `M${x + 18} ${y + dy} q 16 -12 32 0 t 32 0` }));
        }
        return;
      }
      const alt = (Math.floor(sq / 10) + (sq % 10)) % 2 === 1;
      const cls = ["land", alt ? "alt" : "", o.area.has(sq) ? "area" : ""].filter(Boolean).join(" ");
      squares.append(svg("rect", { class: cls, x, y, width: CELL, height: CELL }));
    },
    piece(sq, at, { pieces }) {
      const cell = o.board[sq];
      if (cell && cell !== "lake") pieces.append(pieceNode(sq, cell, at, o));
    },
  };
  const last = o.lastMove;
  drawGrid(root, renderer, {
    perspective: o.perspective,
    last: last ? [last.from, last.to] : [],
    targets: o.targets,
    clickable: o.clickable,
    decorate({ overlay }) {
      if (!last) return;
      // The arrow stops at the edge of the piece it reached.
      overlay.append(arrow(centre(last.from, o.perspective), centre(last.to, o.perspective)));
      if (last.battle) {
        const c = centre(last.to, o.perspective);
        overlay.append(svg("circle", { class: "burst", cx: c.x, cy: c.y, r: 47 }));
      }
    },
  });
}
