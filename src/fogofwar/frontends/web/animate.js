// @ts-check
// The last move, shown as it happens: the piece that moved glides from its square to its new one (a short
// animation, played once per move, never for a player who asked the system for reduced motion), and a piece
// that fell in a battle fades out where it stood. Drawing stays the board's job; this only animates what
// was drawn.

import { parseSquare } from "./common.js";

let lastKey = "";

const reduced = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

/** A square's corner in the board's own units, from its hit cell (drawn in the perspective on screen). */
function corner(board, sq) {
  const cell = board.querySelector(`.cell-hit[data-sq="${sq}"]`);
  return cell ? { x: Number(cell.getAttribute("x")), y: Number(cell.getAttribute("y")) } : null;
}

/** Where a piece is drawn: its `translate(x y)` attribute. A CSS transform replaces that attribute, so every
 * CSS transform of a piece starts from it (`moveBy`). */
export function placeOf(piece) {
  const m = /translate\(\s*([-\d.]+)[\s,]+([-\d.]+)\s*\)/.exec(piece.getAttribute("transform") || "");
  return m ? { x: Number(m[1]), y: Number(m[2]) } : { x: 0, y: 0 };
}

/** The CSS transform that draws `piece` shifted by (dx, dy) board units from where it stands. */
export function moveBy(piece, dx, dy) {
  const at = placeOf(piece);
  return `translate(${at.x + dx}px, ${at.y + dy}px)`;
}

/**
 * Called after every drawing with the position's `key` (the game, the seat on screen, the move number): when the
 * key is new (and not the page's first), the last `move` is animated once: the piece now on `to` comes from
 * `from` when it `arrives` (a move, or a won attack); the `fallen` pieces (copies of pieces as drawn before the
 * move, see `pieceCopy`) fade out where they stood.
 * @param {Element} board the board's <svg>
 * @param {string} key
 * @param {{ from: number, to: number, arrives: boolean } | null} move
 * @param {Element[]} [fallen]
 */
function animateMove(board, key, move, fallen = []) {
  if (key === lastKey) return;
  const first = lastKey === "";
  lastKey = key;
  if (first || !move || reduced()) return; // the page's first drawing shows the position as it is
  const a = corner(board, move.from);
  const b = corner(board, move.to);
  const piece = move.arrives ? board.querySelector(`.piece[data-sq="${move.to}"]`) : null;
  if (piece && a && b) {
    piece.animate([{ transform: moveBy(piece, a.x - b.x, a.y - b.y) }, { transform: moveBy(piece, 0, 0) }],
      { duration: 220, easing: "ease-out" });
  }
  for (const ghost of fallen) {
    board.append(ghost);
    ghost.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 450, easing: "ease-in" }).onfinish = () => ghost.remove();
  }
}

const DRAWN = ["fill", "stroke", "stroke-width", "stroke-dasharray", "opacity", "font-size", "font-weight",
  "text-anchor", "dominant-baseline", "display"];

/** A picture of the piece drawn on `sq` now (before the board is drawn again), for `animateMove`'s fading: its
 * look copied into the copy itself, so that it is no `.piece` of the board (nothing counts it, picks it or
 * drags it) while it fades. */
function pieceCopy(board, sq) {
  const piece = board.querySelector(`.piece[data-sq="${sq}"]`);
  if (!piece) return null;
  const copy = /** @type {Element} */ (piece.cloneNode(true));
  const from = [piece, ...piece.querySelectorAll("*")];
  const to = [copy, ...copy.querySelectorAll("*")];
  from.forEach((e, i) => {
    const look = getComputedStyle(e);
    to[i].setAttribute("style", DRAWN.map((p) => `${p}:${look.getPropertyValue(p)}`).join(";"));
    to[i].removeAttribute("class");
  });
  copy.setAttribute("class", "fallen");
  copy.removeAttribute("data-sq");
  copy.setAttribute("aria-hidden", "true");
  return copy;
}

/** The squares whose pieces a battle took off, by its result. */
const FELL = { attacker_won: (m) => [m.to], defender_won: (m) => [m.from], both_lost: (m) => [m.from, m.to] };

/**
 * The last move's animation, around a drawing of the board: call this before drawing with the last move
 * ({from, to, result}: square names and the battle's result, if any; null for no move to show), and the function
 * it returns after drawing with the position's key. The mover arrives unless it lost its battle; the pieces the
 * battle took fade where they stood.
 * @param {Element} board
 * @param {{ from: string, to: string, result?: string } | null} last
 * @returns {(key: string) => void}
 */
export function motionOf(board, last) {
  const fallen = last ? (FELL[last.result ?? ""]?.(last) ?? []).map((sq) => pieceCopy(board, parseSquare(sq))) : [];
  const move = last && {
    from: parseSquare(last.from),
    to: parseSquare(last.to),
    arrives: !last.result || last.result === "attacker_won",
  };
  return (key) => animateMove(board, key, move, fallen.filter((p) => p !== null));
}
