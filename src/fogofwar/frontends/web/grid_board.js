// @ts-check
// The one board widget: a square grid of `size` x `size` squares of 100 units, coordinates in a 40-unit margin,
// drawn from one seat's chair (that seat's first row at the bottom), in layers. It knows no rules and no pieces:
// each game gives a renderer (`GridRenderer`) that draws a square's ground and the piece on it, and says which
// squares take clicks. Redrawn whole on every update: a board is cheap, and a full redraw never shows a stale piece.
import { svg, svgText } from "./svg.js";

export const CELL = 100;
export const MARGIN = 40;

/**
 * @typedef {{ x: number, y: number }} Point
 * @typedef {{ squares: SVGGElement, marks: SVGGElement, pieces: SVGGElement, overlay: SVGGElement,
 *   hits: SVGGElement }} Layers
 * @typedef {object} GridRenderer
 * @property {number} size squares a side
 * @property {string} files the file letters, left to right from the first seat's chair
 * @property {(sq: number, at: Point, layers: Layers) => void} ground draws a square's ground (land, sea, lake)
 * @property {(sq: number, at: Point, layers: Layers) => void} [piece] draws what stands on a square
 * @property {(sq: number) => boolean} [blocked] a square that takes no click (a lake)
 * @property {(sq: number) => string} [hitClass] extra classes of a square's click area
 */

/** The top-left corner of a square, for the seat at the bottom (seat 1 sees the board turned round).
 * @param {number} sq @param {number} size @param {number} perspective @returns {Point} */
export function squareOrigin(sq, size, perspective) {
  const r = Math.floor(sq / size);
  const c = sq % size;
  const last = size - 1;
  return perspective === 1
    ? { x: MARGIN + (last - c) * CELL, y: r * CELL }
    : { x: MARGIN + c * CELL, y: (last - r) * CELL };
}

/** The centre of a square. @param {number} sq @param {number} size @param {number} perspective @returns {Point} */
export function squareCentre(sq, size, perspective) {
  const { x, y } = squareOrigin(sq, size, perspective);
  return { x: x + CELL / 2, y: y + CELL / 2 };
}

/** The coordinates along the edges, as seen from `perspective`: files under the board, rows beside it.
 * @param {string} files @param {number} perspective @returns {{ files: string[], rows: string[] }} */
export function edgeLabels(files, perspective) {
  const size = files.length;
  const out = { files: /** @type {string[]} */ ([]), rows: /** @type {string[]} */ ([]) };
  for (let i = 0; i < size; i++) {
    out.files.push(perspective === 1 ? files[size - 1 - i] : files[i]);
    out.rows.push(String(perspective === 1 ? i + 1 : size - i));
  }
  return out;
}

/**
 * Draw a board into `root` (an SVG group): every square's ground and piece by the renderer, the last move's
 * squares outlined (`last`), move targets (`targets`: square -> "move" | "attack" | another kind, drawn as a
 * dot or a frame), a click area on every square that takes clicks (`clickable`: a Set, or true for all), the
 * coordinates. Returns the layers, for a game to add its own marks (a battle, an arrow) on top.
 * @param {Element} root
 * @param {GridRenderer} renderer
 * @param {{ perspective?: number, last?: number[], targets?: Map<number, string>,
 *   clickable?: Set<number> | boolean, lastRounded?: boolean, decorate?: (layers: Layers) => void }} [opts]
 *   `decorate` adds a game's marks above the pieces and under the targets (an arrow, a battle, struck squares).
 * @returns {Layers}
 */
export function drawGrid(root, renderer, opts = {}) {
  const perspective = opts.perspective ?? 0;
  const { size } = renderer;
  const layers = {
    squares: svg("g", { class: "squares" }),
    marks: svg("g", { class: "marks" }),
    pieces: svg("g", { class: "pieces" }),
    overlay: svg("g", { class: "overlay" }),
    hits: svg("g", { class: "hits" }),
  };
  const at = (/** @type {number} */ sq) => squareOrigin(sq, size, perspective);
  for (let sq = 0; sq < size * size; sq++) renderer.ground(sq, at(sq), layers);
  const inset = opts.lastRounded ? 3 : 2;
  for (const sq of opts.last || []) {
    const { x, y } = at(sq);
    const rx = opts.lastRounded ? 8 : null;
    const side = CELL - 2 * inset;
    layers.marks.append(svg("rect", { class: "last", x: x + inset, y: y + inset, width: side, height: side, rx }));
  }
  if (renderer.piece) for (let sq = 0; sq < size * size; sq++) renderer.piece(sq, at(sq), layers);
  if (opts.decorate) opts.decorate(layers);
  for (const [sq, kind] of opts.targets || new Map()) {
    const { x, y } = at(sq);
    const cls = `target ${kind}`;
    layers.overlay.append(kind === "attack" || kind === "target"
      ? svg("rect", { class: cls, x: x + 5, y: y + 5, width: CELL - 10, height: CELL - 10, rx: 14 })
      : svg("circle", { class: cls, cx: x + CELL / 2, cy: y + CELL / 2, r: 15 }));
  }
  // Invisible click areas on top: every click lands on a square, whatever is drawn there.
  const clickable = opts.clickable ?? false;
  for (let sq = 0; sq < size * size; sq++) {
    if (renderer.blocked && renderer.blocked(sq)) continue;
    const { x, y } = at(sq);
    const takes = clickable === true || (clickable instanceof Set && clickable.has(sq));
    const cls = ["cell-hit", takes ? "clickable" : "", opts.targets?.has(sq) ? "target-hit" : "",
      renderer.hitClass ? renderer.hitClass(sq) : ""].filter(Boolean).join(" ");
    layers.hits.append(svg("rect", { class: cls, x, y, width: CELL, height: CELL, "data-sq": sq }));
  }
  const coords = svg("g");
  const labels = edgeLabels(renderer.files, perspective);
  for (let i = 0; i < size; i++) {
    coords.append(svgText({ class: "coord", x: MARGIN + i * CELL + CELL / 2, y: size * CELL + 20 }, labels.files[i]));
    coords.append(svgText({ class: "coord", x: MARGIN / 2, y: i * CELL + CELL / 2 }, labels.rows[i]));
  }
  root.replaceChildren(layers.squares, layers.marks, layers.pieces, layers.overlay, layers.hits, coords);
  return layers;
}
