// @ts-check
// The last move, shown as it happens: the piece that moved glides from its square to its new one (a short
// animation, played once per move, never for a player who asked the system for reduced motion), and a piece
// that fell in a battle fades out where it stood. Drawing stays the board's job; this only animates what
// was drawn.

let lastKey = "";

const reduced = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Square centres on screen, from the board's hit cells (they know the perspective the board was drawn in). */
function centre(board, sq) {
  const cell = board.querySelector(`.cell-hit[data-sq="${sq}"]`);
  if (!cell) return null;
  const r = cell.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
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
export function animateMove(board, key, move, fallen = []) {
  if (key === lastKey) return;
  const first = lastKey === "";
  lastKey = key;
  if (first || !move || reduced()) return; // the page's first drawing shows the position as it is
  const a = centre(board, move.from);
  const b = centre(board, move.to);
  const box = board.getBoundingClientRect();
  const viewBox = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (board)).viewBox?.baseVal;
  if (!a || !b || !box.width || !viewBox) return;
  const scale = viewBox.width / box.width;
  const dx = (a.x - b.x) * scale;
  const dy = (a.y - b.y) * scale;
  const piece = move.arrives ? board.querySelector(`.piece[data-sq="${move.to}"]`) : null;
  if (piece) {
    piece.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
      { duration: 220, easing: "ease-out" });
  }
  for (const ghost of fallen) {
    ghost.classList.add("fallen");
    board.append(ghost);
    ghost.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 450, easing: "ease-in" }).onfinish = () => ghost.remove();
  }
}

/** A copy of the piece drawn on `sq` now (before the board is drawn again), for `animateMove`'s fading. */
export function pieceCopy(board, sq) {
  const piece = board.querySelector(`.piece[data-sq="${sq}"]`);
  return piece ? /** @type {Element} */ (piece.cloneNode(true)) : null;
}
