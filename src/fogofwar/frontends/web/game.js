// @ts-check
// The game page of Stratego: the board (board.js), the setup editor (setup_editor.js), the last move,
// the captured pieces and the move list. The connections, the seat on screen, the hot-seat curtain, the
// status line and the result, join, invite and tools boxes are live.js's, as on every game's page.
// The server is the only judge: this page sends what the player intends and draws whatever state the
// server pushes back; it never decides a rule on its own.
import { $, api, $button, capitalize, el, notation, parseSquare, RANK_ORDER, rankLabel, rankSymbol, SEAT_NAMES, setNotation, squareOf } from "./common.js";
import { drawBoard } from "./board.js";
import { enableDragMoves } from "./drag_moves.js";
import { motionOf } from "./animate.js";
import { t } from "./i18n.js";
import { showMoves, shuffle, startLive, toast } from "./live.js";
import { savedSetupTools, SetupEditor } from "./setup_editor.js";
import { setupLines, setupStringTools } from "./setup_string.js";
import { battleText, describeAttack } from "./stratego_moves.js";

let ctx = null; // what live.js put on screen last: the message, the seat shown, send() (see startLive)
/** @type {Map<number, Map<number, number>>} */
let playable = new Map(); // the moves on screen: from-square -> {to-square: action id}
/** @type {Record<string, Record<string, number>>} */
const rosters = {}; // variant -> {rank: pieces}, from /api/meta: what each army starts with
api("/api/meta").then((meta) => {
  for (const v of meta.games.find((g) => g.name === "stratego")?.variants || []) rosters[v.name] = v.roster;
  if (ctx) ctx.rerender();
}).catch(() => {}); // without it the page only lacks the "still has" lines
let selected = null;
// The setup being arranged (drag and drop, keys, or loaded from random / sample / string / saved).
const editor = new SetupEditor({
  svg: $("board"),
  tray: $("setup-tray"),
  status: $("setup-status"),
  label: (rank) => ({ sym: rankSymbol(rank), name: t(rank) }),
  order: RANK_ORDER,
  sideClass: () => SEAT_NAMES[ctx?.shown ?? 0],
  onChange: () => {
    live.render();
    strings.checkSoon();
  },
});

// --- rendering ----------------------------------------------------------------------------------
function render(c) {
  ctx = c;
  if (ctx.curtainUp) selected = null;
  renderPanels(ctx.msg);
  renderBoard(ctx.msg);
}

function renderPanels(msg) {
  const me = msg.seat;
  // Setup.
  $("setup").hidden = !ctx.setting;
  editor.setActive(ctx.setting);
  if (ctx.setting) renderSetup(msg);
  // Last move.
  const last = msg.view.last_move;
  $("last").hidden = !last;
  if (last) $("last-text").replaceChildren(...describeMove(last, me));
  // Captured.
  for (const owner of [0, 1]) {
    const chips = (msg.view.captured[owner] || []).slice().sort((a, b) => RANK_ORDER.indexOf(a) - RANK_ORDER.indexOf(b));
    $(`captured-${owner}`).replaceChildren(...chips.map((r) => el("span", { class: `chip ${SEAT_NAMES[owner]}`, title: r }, rankSymbol(r))));
    // What each army still has: its roster less what it lost (the terminal's "still has" line).
    const roster = rosters[msg.game.variant];
    $(`left-label-${owner}`).hidden = !roster;
    const left = roster ? RANK_ORDER.filter((r) => roster[r]).map((r) => ({ r, n: roster[r] - chips.filter((c) => c === r).length })) : [];
    $(`left-${owner}`).replaceChildren(...left.filter(({ n }) => n > 0).map(({ r, n }) => el("span",
      { class: `chip ${SEAT_NAMES[owner]}`, title: t("{rank}: {n} in play", { rank: t(r), n }) }, rankSymbol(r), el("span", { class: "count" }, `×${n}`))));
  }
  showMoves(msg.moves.map((m) => el("li", { class: SEAT_NAMES[m.player] }, ...moveLine(m))));
  $button("notation-button").textContent = t(notation() === "classic" ? "Ranks: 1 = marshal" : "Ranks: 10 = marshal");
}

function moveLine(m) {
  const parts = [el("b", {}, m.notation)];
  if (m.result) {
    parts.push(" ", battleText(m));
  } else if (m.attacker) {
    parts.push(" ", el("span", { class: "battle" }, `(${t(m.attacker)})`));
  }
  return parts;
}

function describeMove(m, me) {
  const seat = capitalize(t(SEAT_NAMES[m.player]));
  const who = me === null || ctx.hotseat ? seat : m.player === me ? t("You") : seat;
  if (!m.result) {
    const scout = m.attacker ? t(" — a {rank}, shown by its long move", { rank: rankLabel(m.attacker) }) : "";
    return [t("{who} moved {from}–{to}{scout}.", { who, from: m.from, to: m.to, scout })];
  }
  return describeAttack(m, who, m.player);
}

function renderSetup(msg) {
  const setup = msg.setup;
  editor.configure(`${ctx.gameId}:${msg.seat}`, { area: setup.area, roster: setup.roster });
  // The symbols as the board shows them now (the notation button switches 1 = marshal and 10 = marshal).
  $("setup-symbols").textContent = ["marshal", "scout", "spy", "bomb", "flag"]
    .map((r, i) => `${rankSymbol(r)} ${t(r)}${i === 0 ? " …" : ","}`).join(" ").replace(/,$/, "");
  $button("setup-random").disabled = !setup.random;
  strings.render(msg);
  showSaved(msg);
  $button("setup-confirm").disabled = editor.placed() === 0 || ctx.waiting;
}

/** The game and seat on screen: a move is animated once per game and seat (hot-seat shows two). */
function gameKey(msg) {
  return `${msg.game.id}:${msg.seat}`;
}

function renderBoard(msg) {
  const root = $("board");
  if (ctx.curtainUp) {
    drawBoard(root, { board: new Array(100).fill(null), perspective: ctx.shown ?? 0 });
    return;
  }
  const g = msg.game;
  const me = msg.seat;
  const perspective = me ?? 0;
  const over = g.status === "over";
  let board = msg.view.board;
  const wasHidden = new Set();
  let isPreview = false;
  let area = new Set();
  if (over && msg.final) {
    msg.view.board.forEach((cell, sq) => {
      const full = msg.final.board[sq];
      if (full && full !== "lake" && !full.revealed && (me === null || full.owner !== me)) wasHidden.add(sq);
    });
    board = msg.final.board;
  } else if (msg.setup) {
    const placement = msg.setup.done ? msg.setup.placement : editor.active ? editor.placement() : null;
    if (placement && Object.keys(placement).length) {
      board = board.slice();
      for (const [name, rank] of Object.entries(placement)) {
        board[parseSquare(name)] = { owner: me, rank, moved: false, revealed: false };
      }
      isPreview = !msg.setup.done;
    }
    if (!msg.setup.done) area = new Set(msg.setup.area);
  }
  // Legal moves of the seat on screen: from-square -> {to-square: action id}.
  const moves = new Map();
  if (!over && ctx.myTurn) {
    for (const a of msg.legal) {
      const from = Math.floor(a / 100);
      if (!moves.has(from)) moves.set(from, new Map());
      moves.get(from).set(a % 100, a);
    }
  }
  playable = moves;
  if (selected !== null && !moves.has(selected)) selected = null;
  const targets = new Map();
  if (selected !== null) {
    for (const to of moves.get(selected).keys()) {
      const cell = board[to];
      targets.set(to, cell && cell !== "lake" && cell.owner !== me ? "attack" : "move");
    }
  }
  const lm = msg.view.last_move;
  const lastMove = lm && !isPreview ? { from: parseSquare(lm.from), to: parseSquare(lm.to), battle: Boolean(lm.result) } : null;
  const clickable = new Set([...moves.keys(), ...targets.keys(), ...(editor.active ? area : [])]);
  const animate = motionOf(root, lastMove ? lm : null); // the last move glides in once it is drawn
  drawBoard(root, {
    board, perspective, me, selected, targets, movable: new Set(moves.keys()), lastMove, area, wasHidden,
    preview: isPreview, final: over, clickable,
  });
  editor.decorate();
  animate(`${gameKey(msg)}:${g.move_count}`);
  root.onclick = (event) => {
    const sq = squareOf(event);
    if (sq === null) return;
    if (selected !== null && moves.get(selected)?.has(sq)) {
      const action = moves.get(selected).get(sq);
      selected = null;
      ctx.send({ type: "action", action }); // and live.js draws the page again
    } else if (moves.has(sq)) {
      selected = sq === selected ? null : sq;
      live.render();
    } else if (selected !== null) {
      selected = null;
      live.render();
    }
  };
}

// --- setup actions ---------------------------------------------------------------------------------
// The server reads every setup: random, sample and string setups come from it, and an arrangement
// made by hand is checked by it (the setup string appears once it is complete and legal): setup_string.js.
function setupMsg() {
  return ctx && ctx.shown !== null && ctx.msg.seat === ctx.shown ? ctx.msg : null;
}
const strings = setupStringTools(editor, { current: setupMsg, say: toast });

// Random keeps what the player placed and fills the rest; with nothing placed (or nothing left) the server's
// random army, which keeps the flag back behind its bombs.
$button("setup-random").addEventListener("click", () => {
  if (editor.placed() > 0 && editor.leftCount() > 0) {
    editor.fillRest(shuffle);
    strings.checkSoon();
  } else {
    strings.preview("random");
  }
});
const showSaved = savedSetupTools(editor, { current: setupMsg, redraw: () => live.render(), say: toast });
$button("setup-confirm").addEventListener("click", () => {
  if (!setupMsg() || !editor.placed()) return;
  // Sent as it stands: the server checks it and answers with an error if it is not a legal setup.
  strings.cancel();
  if (ctx.send({ type: "setup", setup: editor.placement() })) {
    $("board").scrollIntoView({ block: "nearest" }); // upright screens: back up to the board, where play begins
    $button("setup-confirm").disabled = true;
    editor.say(t("Sent…"));
  }
});

// --- the rank notation (a tool of Stratego's page) -----------------------------------------------
$button("notation-button").hidden = false;
$button("notation-button").addEventListener("click", () => {
  setNotation(notation() === "classic" ? "modern" : "classic");
  live.render();
});

const live = startLive({
  seatNames: SEAT_NAMES,
  typedMoves: true,
  seatClass: (s) => SEAT_NAMES[s],
  words: {
    name: (s) => t(SEAT_NAMES[s]), // "Waiting for blue…"
    yourSetup: () => t("Set up your army"),
    seatSetup: (s) => t("{seat}: set up your army", { seat: capitalize(t(SEAT_NAMES[s])) }),
    toPlay: (s) => t("{seat} to move", { seat: capitalize(t(SEAT_NAMES[s])) }),
    yourTurn: () => t("Your move"),
    secret: t("these pieces"),
    screen: t("board"),
  },
  title: (g) => `Stratego ${t(g.variant)}`,
  progress: (msg) => t("Move {n}", { n: msg.game.move_count }) + (msg.game.options.max_moves ? t(" of at most {cap}", { cap: msg.game.options.max_moves }) : ""),
  resultNote: (msg) => [
    msg.game.move_count === 1 ? t("1 move. Every piece is shown now; dashed ones stayed hidden to the end.") : t("{n} moves. Every piece is shown now; dashed ones stayed hidden to the end.", { n: msg.game.move_count }),
    ...setupLines(msg, (s) => capitalize(t(SEAT_NAMES[s]))),
  ],
  replay: true,
  gravon: (g) => g.game === "stratego",
  onError: (msg) => {
    if (msg.error === "bad_setup") editor.say(msg.message, "bad");
  },
  render,
});

// Drag a piece onto its target, as well as click it and then the target.
enableDragMoves($("board"), {
  canDrag: (sq) => playable.has(sq),
  pick: (sq) => {
    selected = sq;
    ctx?.rerender();
  },
  isTarget: (from, to) => Boolean(playable.get(from)?.has(to)),
  move: (from, to) => {
    const action = playable.get(from)?.get(to);
    selected = null;
    if (action !== undefined && ctx) ctx.send({ type: "action", action });
  },
});
