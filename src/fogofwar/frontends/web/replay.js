// @ts-check
// The replay viewer: a finished game of this server (/replay/{id}) or an uploaded record file
// (/replay). Every position comes from the server, which replays the game through the rules
// engine: the first view whole, then for each move only what changed. This page patches one
// view into the next and draws it; it never works out a move itself.
import { $, api, $button, capitalize, describeOutcome, el, $input, $link, parseSquare, RANK_ORDER, rankLabel, rankSymbol, SEAT_NAMES, $select, storedGame } from "./common.js";
import { drawBoard } from "./board.js";
import { admiralReplay } from "./replay_admiral.js";
import { lotrReplay } from "./replay_lotr.js";
import { battleText, describeAttack } from "./stratego_moves.js";

const parts = location.pathname.split("/").filter(Boolean);
const gameId = parts.length > 1 ? decodeURIComponent(parts[parts.length - 1]) : null;

// A renderer per game draws its board and says what a step did. It has: seats (names), seatClass(seat)
// (the class of the seat's dots, chips and move-list rows), bodyClass (the page style of the game, or
// null), viewBox, stepWord, title(game), fullNote, draw(svg, c), describe(step, view, prev),
// moveLine(step, view, prev) and side(view) -> {title, nodes}. c: {view, prev (the view before the step),
// s (the step, null at the start), step, perspective, me (the seat looking back, or null), full}.
// Stratego's is here; LOTR and Admiral get theirs from the lobby's description of the game (/api/meta).
const MAKERS = { lotr: lotrReplay, admiral: admiralReplay };
let renderer = null;
let games = null; // /api/meta's games, fetched once (for the first LOTR or Admiral replay)

let replay = null; // the server's answer
let views = []; // views[k]: the whole view after move k (0: before the first move)
let step = 0;
let perspective = 0;
let timer = null;
let blobUrls = [];

// --- loading --------------------------------------------------------------------------------------
async function loadGame(id) {
  const seats = storedGame(id).seats;
  const token = seats["0"] ?? seats["1"] ?? null; // used only while the game is on: your own side
  try {
    const data = await api(`/api/games/${encodeURIComponent(id)}/replay`, { token });
    await show(data);
  } catch (err) {
    $("empty-text").textContent = err.status === 409 ? "Not over yet" : "No replay";
    $("empty-sub").textContent = err.message;
  }
}

async function importFile(file) {
  hideError();
  if (!file) return;
  if (file.size > 1 << 20) {
    showError(`${file.name} has ${file.size.toLocaleString()} bytes, over the limit of 1 MiB.`);
    return;
  }
  try {
    const res = await fetch(`/api/replay/import?name=${encodeURIComponent(file.name)}`, {
      method: "POST",
      headers: { "Content-Type": "application/octet-stream", Accept: "application/json" },
      body: file,
    });
    const data = await res.json().catch(() => null);
    if (!res.ok) throw new Error((data && data.message) || `${res.status} ${res.statusText}`);
    await show(data);
  } catch (err) {
    showError(`Not opened: ${err.message}`); // the replay on screen stays as it was
  }
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = false;
}

function hideError() {
  $("error").hidden = true;
}

// --- the views ------------------------------------------------------------------------------------
async function rendererFor(game) {
  if (game === "stratego") return STRATEGO;
  if (!MAKERS[game]) return null;
  if (!games) games = (await api("/api/meta")).games;
  const meta = games.find((g) => g.name === game);
  return meta ? MAKERS[game](meta) : null;
}

async function show(data) {
  const next = await rendererFor(data.game.game);
  stop();
  renderer = next;
  document.body.classList.remove("lotr", "admiral");
  if (renderer && renderer.bodyClass) document.body.classList.add(renderer.bodyClass);
  $("board").setAttribute("viewBox", renderer ? renderer.viewBox : "0 0 1040 1040");
  replay = data;
  views = [data.start];
  for (const s of data.steps) {
    const prev = views[views.length - 1];
    const board = prev.board.slice();
    for (const [sq, cell] of Object.entries(s.changes)) board[Number(sq)] = cell;
    views.push({ ...prev, ...s.set, board });
  }
  perspective = data.perspective ?? 0;
  $("empty").hidden = true;
  for (const id of ["info", "controls", "side-card", "moves"]) $(id).hidden = false;
  $input("slider").max = String(data.steps.length);
  renderHeader();
  renderMoveList();
  renderExports();
  const fromHash = Number(new URLSearchParams(location.hash.slice(1)).get("move"));
  goto(Number.isInteger(fromHash) && fromHash > 0 ? fromHash : 0);
}

function seatName(seat) {
  const seats = renderer ? renderer.seats : SEAT_NAMES;
  return seats[seat] ?? "";
}

function seatClass(seat) {
  if (seat === null || seat === undefined || seat < 0) return "";
  return renderer ? renderer.seatClass(seat) : SEAT_NAMES[seat] || "";
}

function outcomeText(o) {
  if (!o) return isFull() ? "No result recorded." : "Not over yet.";
  return describeOutcome(o, null, (s) => capitalize(seatName(s)));
}

function isFull() {
  return replay.perspective === null || replay.perspective === undefined;
}

function renderHeader() {
  const g = replay.game;
  const where = g.id ? `game ${g.id}` : g.source;
  const what = renderer ? renderer.title(g) : `${capitalize(g.game)} ${g.variant || ""}`;
  $("title").textContent = `Replay · ${what} · ${where}`;
  document.title = `fogofwar — replay ${g.id || g.source}`;
  const names = g.players || [];
  $("players").replaceChildren(
    el("span", { class: `dot ${seatClass(0)}` }), names[0] || capitalize(seatName(0)), "  vs  ",
    el("span", { class: `dot ${seatClass(1)}` }), names[1] || capitalize(seatName(1)),
  );
  const side = isFull()
    ? (renderer ? renderer.fullNote : "")
    : `The game is still on: you see it as ${capitalize(seatName(replay.perspective))} saw it.`;
  $("outcome").replaceChildren(el("div", {}, outcomeText(replay.outcome)), el("div", {}, side));
}

function renderMoveList() {
  const list = $("move-list");
  list.replaceChildren(...replay.steps.map((s) => {
    const line = renderer ? renderer.moveLine(s, views[s.n], views[s.n - 1]) : [el("b", {}, s.notation)];
    const li = el("li", { class: seatClass(s.player), "data-n": s.n, tabindex: "-1" }, ...line);
    li.addEventListener("click", () => {
      stop();
      goto(s.n);
    });
    return li;
  }));
}

function renderExports() {
  for (const url of blobUrls) URL.revokeObjectURL(url);
  blobUrls = [];
  const g = replay.game;
  const json = $link("export-json");
  const gravon = $link("export-gravon");
  if (g.id) {
    $("exports").hidden = !isFull(); // a game still on is not handed out
    json.href = `/api/games/${encodeURIComponent(g.id)}/record`;
    gravon.href = `/api/games/${encodeURIComponent(g.id)}/record?format=gravon`;
    gravon.hidden = g.game !== "stratego";
    $link("back-to-game").hidden = false;
    $link("back-to-game").href = `/game/${encodeURIComponent(g.id)}`;
  } else {
    const exports = replay.exports || {};
    const base = (g.source || "record").replace(/\.[^.]*$/, "");
    const blob = (text, type) => {
      const url = URL.createObjectURL(new Blob([text], { type }));
      blobUrls.push(url);
      return url;
    };
    json.href = blob(`${JSON.stringify(exports.json, null, 1)}\n`, "application/json");
    json.download = `${base}.json`;
    gravon.hidden = !exports.gravon;
    if (exports.gravon) {
      gravon.href = blob(exports.gravon, "application/xml");
      gravon.download = `${base}.xml`;
    }
    $link("back-to-game").hidden = true;
    $("exports").hidden = false;
  }
}

// --- Stratego ------------------------------------------------------------------------------------
const STRATEGO = {
  seats: SEAT_NAMES,
  seatClass: (seat) => SEAT_NAMES[seat] || "",
  bodyClass: null,
  viewBox: "0 0 1040 1040",
  stepWord: "Move",
  title: (g) => `${capitalize(g.game)} ${g.variant || ""}`,
  fullNote: "Every piece is shown; dashed ones were still hidden from the opponent at that point.",
  draw(root, c) {
    const wasHidden = new Set();
    if (c.full) {
      c.view.board.forEach((cell, sq) => {
        if (cell && cell !== "lake" && !cell.revealed) wasHidden.add(sq);
      });
    }
    const lm = c.s ? c.view.last_move : null;
    drawBoard(root, {
      board: c.view.board,
      perspective: c.perspective,
      me: c.me,
      lastMove: lm ? { from: parseSquare(lm.from), to: parseSquare(lm.to), battle: Boolean(lm.result) } : null,
      wasHidden,
      final: c.full,
    });
  },
  moveLine(s, view) {
    const m = view && view.last_move;
    const parts = [el("b", {}, s.notation)];
    if (m && m.result) parts.push(" ", battleText(m));
    return parts;
  },
  describe(s, view) {
    const m = view.last_move;
    const who = capitalize(SEAT_NAMES[s.player] || "");
    if (!m) return [`${who}: ${s.notation}.`];
    if (!m.result) {
      // The full view shows the piece that moved; a player's own view only what that side could see.
      const cell = view.board[parseSquare(m.to)];
      const rank = cell && cell !== "lake" && cell.rank ? ` (${rankLabel(cell.rank)})` : "";
      return [`${who} moved ${m.from}–${m.to}${rank}.`];
    }
    return describeAttack(m, who, s.player);
  },
  side(view) {
    const nodes = [];
    for (const owner of [0, 1]) {
      const chips = ((view.captured || [])[owner] || []).slice().sort((a, b) => RANK_ORDER.indexOf(a) - RANK_ORDER.indexOf(b));
      nodes.push(el("div", { class: "small muted" }, `${capitalize(SEAT_NAMES[owner])} lost`));
      nodes.push(el("div", { class: "chips", id: `captured-${owner}` },
        ...chips.map((r) => el("span", { class: `chip ${SEAT_NAMES[owner]}`, title: r }, rankSymbol(r)))));
    }
    return { title: "Captured", nodes };
  },
};

// --- one step -------------------------------------------------------------------------------------
function goto(n) {
  if (!replay) return;
  step = Math.max(0, Math.min(replay.steps.length, n));
  const view = views[step];
  const prev = step > 0 ? views[step - 1] : null;
  const s = step > 0 ? replay.steps[step - 1] : null;
  const total = replay.steps.length;
  const word = renderer ? renderer.stepWord : "Move";
  $("step-text").textContent = step === 0 ? `Start · ${total} ${word.toLowerCase()}s` : `${word} ${step} of ${total}`;
  $("turn-dot").className = s ? `dot ${seatClass(s.player)}`.trim() : "dot";
  $input("slider").value = String(step);
  $button("first").disabled = $button("prev").disabled = step === 0;
  $button("next").disabled = $button("last").disabled = step === total;
  // What the step did, in words.
  $("last-move").hidden = !s;
  if (s) {
    $("last-word").textContent = word;
    $("last-n").textContent = String(step);
    $("last-text").replaceChildren(...(renderer ? renderer.describe(s, view, prev) : [`${s.notation}`]));
  }
  // Beside the board: the captured pieces, or the fleets.
  $("side-card").hidden = !renderer;
  if (renderer) {
    const side = renderer.side(view, prev);
    $("side-title").textContent = side.title;
    $("side").replaceChildren(...side.nodes);
  }
  // The move list follows.
  for (const li of $("move-list").querySelectorAll("li.current")) li.classList.remove("current");
  const li = $("move-list").querySelector(`li[data-n="${step}"]`);
  if (li) {
    li.classList.add("current");
    // Scroll the list only (not the page or the panel) so that the current move shows.
    const list = $("move-list");
    const box = list.getBoundingClientRect();
    const row = li.getBoundingClientRect();
    if (row.top < box.top || row.bottom > box.bottom) {
      list.scrollTop += row.top - box.top - (box.height - row.height) / 2;
    }
  } else if (step === 0) {
    $("move-list").scrollTop = 0;
  }
  if (replay.game.id) history.replaceState(null, "", step ? `#move=${step}` : location.pathname);
  renderBoard(view, prev, s);
}

function renderBoard(view, prev, s) {
  $("empty").hidden = Boolean(renderer);
  if (!renderer) {
    $("empty-text").textContent = `No board drawing for ${replay.game.game} here`;
    $("empty-sub").textContent = "The move list, the controls and the record files work.";
    return;
  }
  const full = isFull();
  renderer.draw($("board"), { view, prev, s, step, perspective, me: full ? null : replay.perspective, full });
}

// --- controls -------------------------------------------------------------------------------------
function play() {
  if (!replay) return;
  if (timer) {
    stop();
    return;
  }
  if (step >= replay.steps.length) goto(0);
  $button("play").textContent = "⏸ Pause";
  $button("play").setAttribute("aria-label", "Pause");
  const tick = () => {
    if (step >= replay.steps.length) {
      stop();
      return;
    }
    goto(step + 1);
    timer = setTimeout(tick, Number($select("speed").value));
  };
  timer = setTimeout(tick, Math.min(400, Number($select("speed").value)));
}

function stop() {
  clearTimeout(timer);
  timer = null;
  $button("play").textContent = "▶ Play";
  $button("play").setAttribute("aria-label", "Play");
}

$button("first").addEventListener("click", () => { stop(); goto(0); });
$button("prev").addEventListener("click", () => { stop(); goto(step - 1); });
$button("next").addEventListener("click", () => { stop(); goto(step + 1); });
$("last").addEventListener("click", () => { stop(); goto(replay.steps.length); });
$button("play").addEventListener("click", play);
$input("slider").addEventListener("input", () => { stop(); goto(Number($input("slider").value)); });
$button("flip").addEventListener("click", () => {
  perspective = 1 - perspective;
  goto(step);
});
$input("file").addEventListener("change", () => importFile($input("file").files[0]));
document.addEventListener("keydown", (e) => {
  if (!replay || e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = /** @type {HTMLElement} */ (e.target).tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return; // the slider has its own keys
  const keys = {
    ArrowLeft: () => goto(step - 1),
    ArrowRight: () => goto(step + 1),
    Home: () => goto(0),
    End: () => goto(replay.steps.length),
  };
  if (e.key in keys) {
    stop();
    keys[e.key]();
  } else if (e.key === " " && tag !== "BUTTON") {
    play();
  } else {
    return;
  }
  e.preventDefault();
});

if (gameId) {
  $("empty-text").textContent = "Loading…";
  $("empty-sub").textContent = "";
  loadGame(gameId);
}
