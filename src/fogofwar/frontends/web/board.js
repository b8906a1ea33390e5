// @ts-check
// The SVG board: 10x10 squares of 100 units, coordinates in a 40-unit margin, drawn from
// one seat's chair (that seat's back row at the bottom). Redrawn whole on every update:
// 100 squares are cheap, and a full redraw can never show a stale piece.
import { FILES, rankSymbol, SEAT_NAMES, squareName } from "./common.js";
import { arrow, svg } from "./svg.js";

const CELL = 100;
const MARGIN = 40;
const LAKES = new Set([42, 43, 46, 47, 52, 53, 56, 57]);

// Screen position (column, row from the top) of a square for the seat at the bottom.
function place(sq, perspective) {
  const r = Math.floor(sq / 10);
  const c = sq % 10;
  return perspective === 1 ? { x: 9 - c, y: r } : { x: c, y: 9 - r };
}

function origin(sq, perspective) {
  const p = place(sq, perspective);
  return { x: MARGIN + p.x * CELL, y: p.y * CELL };
}

function centre(sq, perspective) {
  const o = origin(sq, perspective);
  return { x: o.x + CELL / 2, y: o.y + CELL / 2 };
}

function describe(cell, me) {
  if (!cell || cell === "lake") return "";
  const side = SEAT_NAMES[cell.owner];
  const what = cell.rank ? `${cell.rank} (${rankSymbol(cell.rank)})` : "unknown piece";
  const notes = [];
  if (cell.owner !== me && !cell.rank && cell.moved) notes.push("has moved");
  if (cell.owner === me && cell.revealed) notes.push("known to the enemy");
  return `${side} ${what}${notes.length ? `, ${notes.join(", ")}` : ""}`;
}

function pieceNode(sq, cell, opts) {
  const o = origin(sq, opts.perspective);
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
  const squares = svg("g", { class: "squares" });
  const marks = svg("g", { class: "marks" });
  const pieces = svg("g", { class: "pieces" });
  const overlay = svg("g", { class: "overlay" });
  for (let sq = 0; sq < 100; sq++) {
    const { x, y } = origin(sq, o.perspective);
    if (LAKES.has(sq)) {
      squares.append(svg("rect", { class: "lake", x, y, width: CELL, height: CELL }));
      for (const dy of [30, 55, 80]) {
        squares.append(svg("path", { class: "wave", d: `M${x + 18} ${y + dy} q 16 -12 32 0 t 32 0` }));
      }
      continue;
    }
    const alt = (Math.floor(sq / 10) + (sq % 10)) % 2 === 1;
    const cls = ["land", alt ? "alt" : "", o.area.has(sq) ? "area" : ""].filter(Boolean).join(" ");
    squares.append(svg("rect", { class: cls, x, y, width: CELL, height: CELL }));
  }
  if (o.lastMove) {
    for (const sq of [o.lastMove.from, o.lastMove.to]) {
      const { x, y } = origin(sq, o.perspective);
      marks.append(svg("rect", { class: "last", x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4 }));
    }
  }
  o.board.forEach((cell, sq) => {
    if (cell && cell !== "lake") pieces.append(pieceNode(sq, cell, o));
  });
  if (o.lastMove) {
    // The arrow stops at the edge of the piece it reached.
    overlay.append(arrow(centre(o.lastMove.from, o.perspective), centre(o.lastMove.to, o.perspective)));
    if (o.lastMove.battle) {
      const c = centre(o.lastMove.to, o.perspective);
      overlay.append(svg("circle", { class: "burst", cx: c.x, cy: c.y, r: 47 }));
    }
  }
  for (const [sq, kind] of o.targets) {
    const c = centre(sq, o.perspective);
    overlay.append(kind === "attack"
      ? svg("rect", { class: "target attack", x: c.x - 46, y: c.y - 46, width: 92, height: 92, rx: 14 })
      : svg("circle", { class: "target", cx: c.x, cy: c.y, r: 15 }));
  }
  // Invisible hit areas on top: every click lands on a square, whatever is drawn there.
  const hits = svg("g", { class: "hits" });
  for (let sq = 0; sq < 100; sq++) {
    if (LAKES.has(sq)) continue;
    const { x, y } = origin(sq, o.perspective);
    const cls = ["cell-hit", o.clickable.has(sq) ? "clickable" : "", o.targets.has(sq) ? "target-hit" : ""]
      .filter(Boolean).join(" ");
    hits.append(svg("rect", { class: cls, x, y, width: CELL, height: CELL, "data-sq": sq }));
  }
  const coords = svg("g");
  for (let i = 0; i < 10; i++) {
    const file = o.perspective === 1 ? FILES[9 - i] : FILES[i];
    const row = o.perspective === 1 ? i + 1 : 10 - i;
    const f = svg("text", { class: "coord", x: MARGIN + i * CELL + CELL / 2, y: 10 * CELL + 20 });
    f.textContent = file;
    const r = svg("text", { class: "coord", x: MARGIN / 2, y: i * CELL + CELL / 2 });
    r.textContent = String(row);
    coords.append(f, r);
  }
  root.replaceChildren(squares, marks, pieces, overlay, hits, coords);
}
