// @ts-check
// Moves by dragging a piece in play (Stratego and LOTR), beside the click on a piece then on its target: press
// on a piece that can move, drag it (it follows the pointer, its targets show), release on a target. A press
// without a drag stays a click; a release elsewhere puts the piece back. The page decides what may move where.
import { moveBy } from "./animate.js";

/**
 * @param {HTMLElement} board the board's <svg>, whose pieces are `.piece[data-sq]`
 * @param {{ canDrag: (sq: number) => boolean, pick: (sq: number) => void, isTarget: (from: number, to: number) => boolean,
 *   move: (from: number, to: number) => void }} page
 */
export function enableDragMoves(board, page) {
  /** @type {{ from: number, x: number, y: number, dragging: boolean, id: number } | null} */
  let press = null;
  let swallowClick = false;

  const pieceAt = (sq) => /** @type {SVGGElement | null} */ (board.querySelector(`.piece[data-sq="${sq}"]`));
  const squareUnder = (x, y) => {
    const hits = document.elementsFromPoint(x, y);
    for (const hit of hits) {
      if (hit.closest(".piece.dragging")) continue;
      const cell = /** @type {HTMLElement | null} */ (hit.closest("[data-sq]"));
      if (cell && board.contains(cell)) return Number(cell.dataset.sq);
    }
    return null;
  };
  const follow = (/** @type {PointerEvent} */ e) => {
    if (!press) return;
    const piece = pieceAt(press.from);
    if (!piece) return;
    const box = board.getBoundingClientRect();
    const viewBox = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (board)).viewBox?.baseVal;
    const scale = viewBox && box.width ? viewBox.width / box.width : 1;
    piece.classList.add("dragging");
    piece.style.transform = moveBy(piece, (e.clientX - press.x) * scale, (e.clientY - press.y) * scale);
  };

  board.addEventListener("pointerdown", (/** @type {PointerEvent} */ e) => {
    const hit = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest("[data-sq]"));
    const sq = hit ? Number(hit.dataset.sq) : null;
    if (sq === null || e.button !== 0 || !page.canDrag(sq)) return;
    press = { from: sq, x: e.clientX, y: e.clientY, dragging: false, id: e.pointerId };
  });
  board.addEventListener("pointermove", (/** @type {PointerEvent} */ e) => {
    if (!press || e.pointerId !== press.id) return;
    if (!press.dragging) {
      if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < 8) return;
      press.dragging = true;
      board.setPointerCapture(e.pointerId);
      page.pick(press.from); // the page selects the piece and draws its targets
    }
    follow(e);
  });
  const release = (/** @type {PointerEvent} */ e) => {
    if (!press || e.pointerId !== press.id) return;
    const { from, dragging } = press;
    press = null;
    if (!dragging) return; // a click: the page's own click handler has it
    swallowClick = true;
    const piece = pieceAt(from);
    if (piece) {
      piece.classList.remove("dragging");
      piece.style.transform = "";
    }
    const to = e.type === "pointerup" ? squareUnder(e.clientX, e.clientY) : null;
    if (to !== null && to !== from && page.isTarget(from, to)) page.move(from, to);
  };
  board.addEventListener("pointerup", release);
  board.addEventListener("pointercancel", release);
  // The click that ends a drag is no click on a square.
  board.addEventListener("click", (e) => {
    if (swallowClick) {
      swallowClick = false;
      e.stopImmediatePropagation();
      e.preventDefault();
    }
  }, true);
}
