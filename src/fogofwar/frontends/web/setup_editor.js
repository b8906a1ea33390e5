// @ts-check
// The setup editor: arrange your own army on the board before the game starts.
//
// Pieces are moved by drag and drop (pointer events: mouse, pen and touch alike) or by the
// keyboard and plain clicks: pick a square (or a piece in the tray), then another square to
// swap, move or place. Unplaced pieces wait in the tray; dropping a piece on the tray takes it
// off the board. The editor only arranges pieces inside the setup area the server named: it
// judges nothing. Whether a setup is legal is the server's to say, when the page previews or
// sends it.
//
// It knows nothing of Stratego: the game page hands it the setup area (square numbers 0-99 on
// the 10x10 board), the roster ({piece key: count}), how a piece key is labelled, and redraws
// the board itself when told (onChange). The board must mark each square with a [data-sq]
// element on top (board.js does), so the same editor serves any game with a setup on this
// kind of board (LOTR too).
import { el, plainWords, squareName } from "./common.js";
import { t } from "./i18n.js";
import { svg as svgNode } from "./svg.js";

const DRAG_THRESHOLD = 6; // pixels the pointer must travel before a press becomes a drag

export class SetupEditor {
  /**
   * svg: the board; tray: the element the tray is drawn in; status: where messages go.
   * label(key) -> {sym, name}: how a piece shows; order: piece keys in tray order;
   * onChange(): the placement changed (redraw the board, refresh the setup string);
   * sideClass(): CSS class of the pieces' side (e.g. "red").
   */
  constructor({ svg, tray, status, label, order, onChange, sideClass, names = false }) {
    this.svg = svg;
    this.names = Boolean(names); // the tray names each piece (LOTR's characters), not only its symbol
    this.tray = tray;
    this.status = status;
    this.label = label;
    this.order = order || [];
    this.onChange = onChange || (() => {});
    this.sideClass = sideClass || (() => "");
    this.key = null; // which army this editor is arranging (game and seat): a new one starts afresh
    this.active = false;
    this.area = new Set();
    this.roster = {};
    this.pieces = new Map(); // square -> piece key
    this.sel = null; // {sq} or {key}: the first half of a click / keyboard move
    this.cursor = null; // the keyboard's square
    this.drag = null;
    this.ghost = null;
    svg.addEventListener("pointerdown", (e) => this.pressBoard(e));
    svg.addEventListener("keydown", (e) => this.onKey(e));
    svg.addEventListener("focus", () => {
      if (this.active && this.cursor === null) this.cursor = this.firstSquare();
      if (this.active) this.decorate();
    });
    svg.addEventListener("blur", () => this.active && this.decorate());
    window.addEventListener("pointermove", (e) => this.movePointer(e));
    window.addEventListener("pointerup", (e) => this.release(e));
    window.addEventListener("pointercancel", () => this.cancelDrag());
  }

  // --- state ------------------------------------------------------------------------------------
  /** Start on an army (`key` names it: the same key keeps the pieces as they are). */
  configure(key, { area, roster }) {
    if (this.key === key) return;
    this.key = key;
    this.area = new Set(area);
    this.roster = { ...roster };
    this.pieces = new Map();
    this.sel = null;
    this.cursor = null;
    this.renderTray();
  }

  setActive(on) {
    if (this.active === on) return;
    this.active = on;
    if (on) this.svg.setAttribute("tabindex", "0");
    else {
      if (document.activeElement === this.svg) this.svg.blur();
      this.svg.removeAttribute("tabindex");
      this.cancelDrag();
    }
    this.svg.classList.toggle("editing", on);
  }

  /** The placement as the server takes it: {square name: piece key}. */
  placement() {
    const out = {};
    for (const [sq, key] of [...this.pieces].sort((a, b) => a[0] - b[0])) out[squareName(sq)] = key;
    return out;
  }

  placed() {
    return this.pieces.size;
  }

  /** Pieces still in the tray, per key. */
  left() {
    const out = { ...this.roster };
    for (const key of this.pieces.values()) out[key] = (out[key] || 0) - 1;
    return out;
  }

  leftCount() {
    return Object.values(this.left()).reduce((a, b) => a + Math.max(0, b), 0);
  }

  /** Put the pieces left in the tray on free squares of the area, in the order `shuffle` gives (the player's
   * own placements stay); the number of pieces placed. */
  fillRest(shuffle) {
    const pieces = shuffle(Object.entries(this.left()).flatMap(([key, n]) => Array(Math.max(0, n)).fill(key)));
    const free = shuffle([...this.area].filter((sq) => !this.pieces.has(sq)));
    const n = Math.min(pieces.length, free.length);
    for (let i = 0; i < n; i++) this.pieces.set(free[i], pieces[i]);
    this.sel = null;
    this.changed();
    return n;
  }

  /** Load a placement ({square name or number: key}), e.g. a random, sample or saved setup. */
  load(placement) {
    this.pieces = new Map();
    for (const [name, key] of Object.entries(placement)) {
      const sq = typeof name === "number" || /^\d+$/.test(name) ? Number(name) : parseName(name);
      if (sq !== null) this.pieces.set(sq, key);
    }
    this.sel = null;
    this.changed();
  }

  clear() {
    this.pieces = new Map();
    this.sel = null;
    this.changed();
  }

  changed() {
    this.renderTray();
    this.onChange();
  }

  say(text, kind = "") {
    if (!this.status) return;
    const { text: words, ids } = plainWords(t(text)); // a server verdict's rule ids go to the tooltip
    this.status.textContent = words;
    this.status.title = ids.length ? `Rules: ${ids.join(", ")}` : "";
    this.status.className = `setup-status small ${kind}`;
  }

  // --- moves ------------------------------------------------------------------------------------
  /** Put `key` from the tray on `sq`; a piece already there goes back to the tray. */
  place(key, sq) {
    if (!this.area.has(sq) || (this.left()[key] || 0) <= 0) return false;
    this.pieces.set(sq, key);
    return true;
  }

  /** Move the piece on `a` to `b`, swapping with whatever is there. */
  swap(a, b) {
    if (a === b || !this.area.has(a) || !this.area.has(b) || !this.pieces.has(a)) return false;
    const pa = this.pieces.get(a);
    const pb = this.pieces.get(b);
    this.pieces.set(b, pa);
    if (pb === undefined) this.pieces.delete(a);
    else this.pieces.set(a, pb);
    return true;
  }

  unplace(sq) {
    return this.pieces.delete(sq);
  }

  /** A click or Enter on a square: the first one picks, the second one moves, swaps or places. */
  activate(sq) {
    if (!this.area.has(sq)) {
      this.sel = null;
      this.say(t("That square is outside your setup area."), "bad");
      this.onChange();
      return;
    }
    this.cursor = sq;
    if (this.sel && this.sel.key !== undefined) {
      if (this.place(this.sel.key, sq) && (this.left()[this.sel.key] || 0) <= 0) this.sel = null;
      this.changed();
    } else if (this.sel && this.sel.sq !== undefined) {
      const from = this.sel.sq;
      this.sel = null;
      if (from !== sq) this.swap(from, sq);
      this.changed();
    } else if (this.pieces.has(sq)) {
      this.sel = { sq };
      this.onChange();
    } else {
      this.say(t("Pick a piece in the tray first, then the square to put it on."));
      this.onChange();
    }
  }

  pickTray(key) {
    this.sel = this.sel && this.sel.key === key ? null : { key };
    this.renderTray();
    this.onChange();
  }

  // --- the tray -----------------------------------------------------------------------------------
  renderTray() {
    if (!this.tray) return;
    const left = this.left();
    const keys = [...this.order.filter((k) => k in this.roster), ...Object.keys(this.roster).filter((k) => !this.order.includes(k))];
    const chips = [];
    for (const key of keys) {
      const n = Math.max(0, left[key] || 0);
      if (!n) continue;
      const { sym, name } = this.label(key);
      const picked = this.sel && this.sel.key === key;
      const chip = el("button", {
        type: "button",
        class: `tray-piece ${this.sideClass()}${picked ? " picked" : ""}`,
        "data-key": key,
        title: t("{name}: {n} to place (drag it onto a square, or pick it and then a square)", { name, n }),
        "aria-pressed": picked ? "true" : "false",
        "aria-label": `${name}, ${n} left`,
      }, el("span", { class: "sym" }, sym), ...(this.names ? [el("span", { class: "name" }, name)] : []),
      el("span", { class: "count" }, `×${n}`));
      chip.addEventListener("pointerdown", (e) => this.pressTray(e, key));
      chip.addEventListener("click", (e) => {
        if (e.detail === 0) this.pickTray(key); // keyboard (Enter/Space); a pointer click is handled on release
      });
      chips.push(chip);
    }
    if (!chips.length) chips.push(el("span", { class: "muted small" }, t("Every piece is on the board.")));
    this.tray.replaceChildren(...chips);
  }

  // --- pointer: press, drag, drop ---------------------------------------------------------------------
  pressBoard(e) {
    if (!this.active || e.button !== 0) return;
    const hit = e.target.closest("[data-sq]");
    if (!hit) return;
    const sq = Number(hit.dataset.sq);
    this.drag = { from: { sq }, x: e.clientX, y: e.clientY, moved: false, pointer: e.pointerId };
    e.preventDefault();
    this.svg.focus({ preventScroll: true });
  }

  pressTray(e, key) {
    if (!this.active || e.button !== 0) return;
    this.drag = { from: { key }, x: e.clientX, y: e.clientY, moved: false, pointer: e.pointerId };
    e.preventDefault();
  }

  movePointer(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointer) return;
    if (!d.moved) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < DRAG_THRESHOLD) return;
      const key = d.from.key ?? this.pieces.get(d.from.sq);
      if (key === undefined) {
        this.drag = null; // an empty square: nothing to drag
        return;
      }
      d.moved = true;
      d.key = key;
      this.startGhost(key, d.from.sq);
    }
    this.ghost.style.left = `${e.clientX}px`;
    this.ghost.style.top = `${e.clientY}px`;
    this.highlightDrop(this.dropTarget(e.clientX, e.clientY));
  }

  release(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointer) return;
    this.drag = null;
    if (!d.moved) {
      // A click: on the board it picks or completes a move; on the tray it picks a piece.
      if (d.from.sq !== undefined) this.activate(d.from.sq);
      else this.pickTray(d.from.key);
      return;
    }
    const target = this.dropTarget(e.clientX, e.clientY);
    this.endGhost();
    let done = false;
    if (target === "tray") {
      if (d.from.sq !== undefined) done = this.unplace(d.from.sq);
    } else if (target !== null) {
      done = d.from.sq !== undefined ? this.swap(d.from.sq, target) : this.place(d.from.key, target);
      if (done) this.cursor = target;
      else if (!this.area.has(target)) this.say(t("Drop pieces on the squares of your setup area."), "bad");
    }
    this.sel = null;
    if (done) this.changed();
    else this.onChange();
  }

  cancelDrag() {
    this.drag = null;
    this.endGhost();
  }

  /** What lies under the pointer: a board square, "tray", or null. */
  dropTarget(x, y) {
    const node = document.elementFromPoint(x, y);
    if (!node) return null;
    if (this.tray && this.tray.contains(node)) return "tray";
    const hit = this.svg.contains(node) ? /** @type {HTMLElement | null} */ (node.closest("[data-sq]")) : null;
    return hit ? Number(hit.dataset.sq) : null;
  }

  startGhost(key, fromSq) {
    const { sym, name } = this.label(key);
    const size = this.svg.getBoundingClientRect().width / 10.4; // the board is 10 squares and a margin
    this.ghost = el("div", { class: `drag-ghost ${this.sideClass()}`, "aria-hidden": "true" },
      el("span", { class: "sym" }, sym), el("span", { class: "name" }, name));
    this.ghost.style.width = `${size}px`;
    this.ghost.style.height = `${size}px`;
    this.ghost.style.fontSize = `${size / 2.3}px`;
    document.body.append(this.ghost);
    document.body.classList.add("dragging");
    if (fromSq !== undefined) {
      const piece = this.svg.querySelector(`.piece[data-sq="${fromSq}"]`);
      if (piece) piece.classList.add("drag-source");
    }
  }

  endGhost() {
    if (this.ghost) this.ghost.remove();
    this.ghost = null;
    document.body.classList.remove("dragging");
    this.highlightDrop(null);
  }

  highlightDrop(target) {
    for (const n of this.svg.querySelectorAll(".drop-mark")) n.remove();
    if (this.tray) this.tray.classList.toggle("drop-here", target === "tray");
    if (typeof target !== "number" || !this.area.has(target)) return;
    const rect = this.rectOf(target);
    if (!rect) return;
    this.svg.append(svgNode("rect", { class: "drop-mark", ...rect }));
  }

  // --- keyboard -------------------------------------------------------------------------------------
  onKey(e) {
    if (!this.active) return;
    const dirs = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (e.key in dirs) {
      this.cursor = this.step(this.cursor ?? this.firstSquare(), ...dirs[e.key]);
      this.decorate();
    } else if (e.key === "Enter" || e.key === " ") {
      if (this.cursor === null) this.cursor = this.firstSquare();
      this.activate(this.cursor);
    } else if (e.key === "Delete" || e.key === "Backspace") {
      if (this.cursor !== null && this.unplace(this.cursor)) {
        this.sel = null;
        this.changed();
      }
    } else if (e.key === "Escape") {
      this.sel = null;
      this.renderTray();
      this.onChange();
    } else {
      return;
    }
    e.preventDefault();
  }

  firstSquare() {
    return [...this.area].sort((a, b) => a - b)[0] ?? null;
  }

  /** The next area square from `sq` in a screen direction (the board may be drawn from either side). */
  step(sq, dx, dy) {
    const from = this.rectOf(sq);
    if (!from) return sq;
    let best = sq;
    let bestDist = Infinity;
    for (const other of this.area) {
      const r = this.rectOf(other);
      if (!r || other === sq) continue;
      const ddx = (r.x - from.x) / r.width;
      const ddy = (r.y - from.y) / r.height;
      const along = ddx * dx + ddy * dy;
      const across = Math.abs(dx ? ddy : ddx);
      if (along <= 0 || across > 0.01) continue;
      if (along < bestDist) {
        bestDist = along;
        best = other;
      }
    }
    return best;
  }

  rectOf(sq) {
    const hit = this.svg.querySelector(`.cell-hit[data-sq="${sq}"]`) || this.svg.querySelector(`[data-sq="${sq}"]`);
    if (!hit || hit.tagName.toLowerCase() !== "rect") return null;
    return { x: Number(hit.getAttribute("x")), y: Number(hit.getAttribute("y")), width: Number(hit.getAttribute("width")), height: Number(hit.getAttribute("height")) };
  }

  // --- marks on the board, after each redraw ----------------------------------------------------------
  decorate() {
    for (const n of this.svg.querySelectorAll(".editor-marks")) n.remove();
    if (!this.active) return;
    const g = svgNode("g", { class: "editor-marks" });
    if (this.sel && this.sel.sq !== undefined) {
      const r = this.rectOf(this.sel.sq);
      if (r) g.append(svgNode("rect", { class: "pick-mark", x: r.x + 5, y: r.y + 5, width: r.width - 10, height: r.height - 10, rx: 12 }));
    }
    if (this.cursor !== null && document.activeElement === this.svg) {
      const r = this.rectOf(this.cursor);
      if (r) g.append(svgNode("rect", { class: "cursor-mark", x: r.x + 2, y: r.y + 2, width: r.width - 4, height: r.height - 4 }));
    }
    this.svg.append(g);
  }
}

function parseName(name) {
  const files = "ABCDEFGHIK";
  const f = files.indexOf(String(name)[0].toUpperCase());
  const r = parseInt(String(name).slice(1), 10);
  if (f < 0 || !(r >= 1 && r <= 10)) return null;
  return (r - 1) * 10 + f;
}

// --- saved setups: kept in this browser, per game and variant --------------------------------------
// Stored from the owner's chair (as if for the first seat): a saved setup loads for either side.
const SAVED_KEY = "fogofwar.setups";

function allSaved() {
  try {
    return JSON.parse(localStorage.getItem(SAVED_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

/** {name: {squares: {sq number from the owner's chair: key}, saved}} of a game and variant. */
export function savedSetups(game, variant) {
  return allSaved()[`${game}/${variant}`] || {};
}

/** The board as seen from the other chair: a square's number from the first seat's side and back. */
function mirror(sq, seat) {
  return seat === 1 ? 99 - sq : sq;
}

export function saveSetup(game, variant, name, seat, placement) {
  const all = allSaved();
  const key = `${game}/${variant}`;
  const squares = {};
  for (const [sqName, piece] of Object.entries(placement)) {
    const sq = parseName(sqName);
    if (sq !== null) squares[mirror(sq, seat)] = piece;
  }
  all[key] = { ...(all[key] || {}), [name]: { squares, saved: Date.now() } };
  localStorage.setItem(SAVED_KEY, JSON.stringify(all));
}

export function deleteSetup(game, variant, name) {
  const all = allSaved();
  const key = `${game}/${variant}`;
  if (all[key]) delete all[key][name];
  localStorage.setItem(SAVED_KEY, JSON.stringify(all));
}

/** A saved setup as a placement for `seat` ({square name: key}), or null. */
export function loadSetup(game, variant, name, seat) {
  const entry = savedSetups(game, variant)[name];
  if (!entry) return null;
  const out = {};
  for (const [sq, piece] of Object.entries(entry.squares || {})) out[squareName(mirror(Number(sq), seat))] = piece;
  return out;
}


/**
 * The saved-setup tools of a setup panel, the same for every game: made in its #saved-setups box (#setup-saved
 * with #setup-load and #setup-delete, #setup-save-name with #setup-save) and wired once here; the returned
 * function draws them for the setup on screen. `current()` is the state message being set up (or null), `redraw()` draws the page again, `say(text,
 * ok)` tells the player.
 * @param {SetupEditor} editor
 * @param {{ current: () => any, redraw: () => void, say: (text: string, ok?: boolean) => void }} page
 */
export function savedSetupTools(editor, page) {
  const byId = (id) => /** @type {any} */ (document.getElementById(id));
  byId("saved-setups").replaceChildren(
    el("div", { class: "row" },
      el("select", { id: "setup-saved", "aria-label": t("Saved setups") }),
      el("button", { id: "setup-load" }, t("Load")),
      el("button", { id: "setup-delete" }, t("Delete"))),
    el("div", { class: "row" },
      el("input", { type: "text", id: "setup-save-name", maxlength: "40", placeholder: t("Name for this setup"),
        "aria-label": t("Name for this setup") }),
      el("button", { id: "setup-save" }, t("Save"))),
  );
  const select = /** @type {HTMLSelectElement} */ (byId("setup-saved"));
  byId("setup-save").addEventListener("click", () => {
    const msg = page.current();
    const name = byId("setup-save-name").value.trim() || `setup ${new Date().toLocaleString()}`;
    if (!msg || !editor.placed()) return;
    saveSetup(msg.game.game, msg.game.variant, name, msg.seat, editor.placement());
    byId("setup-save-name").value = "";
    page.redraw();
    select.value = name;
    page.say(t("Saved \"{name}\" in this browser.", { name }), true);
  });
  byId("setup-load").addEventListener("click", () => {
    const msg = page.current();
    const placement = msg && select.value ? loadSetup(msg.game.game, msg.game.variant, select.value, msg.seat) : null;
    if (placement) editor.load(placement);
  });
  byId("setup-delete").addEventListener("click", () => {
    const msg = page.current();
    const name = select.value;
    if (!msg || !name || !confirm(t("Delete the saved setup \"{name}\"?", { name }))) return;
    deleteSetup(msg.game.game, msg.game.variant, name);
    page.redraw();
  });
  return (msg) => {
    const saved = Object.keys(savedSetups(msg.game.game, msg.game.variant)).sort();
    const current = [...select.options].map((o) => o.value).join("\n");
    if (current !== saved.join("\n")) {
      const keep = select.value;
      select.replaceChildren(...saved.map((name) => el("option", { value: name }, name)));
      if (saved.includes(keep)) select.value = keep;
    }
    select.disabled = byId("setup-load").disabled = byId("setup-delete").disabled = saved.length === 0;
    if (!saved.length) select.replaceChildren(el("option", { value: "" }, t("no saved setups")));
    byId("setup-save").disabled = editor.placed() === 0;
  };
}
