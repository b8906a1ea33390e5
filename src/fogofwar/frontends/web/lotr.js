// @ts-check
// The game page of Stratego, The Lord of the Rings Trilogy edition: the 10x10 board with its two
// Forbidden Zones (and Mount Doom in Game 3), the characters, and in Games 2 and 3 their powers:
// select a piece, pick "Move / attack" or one of its powers, then a highlighted square (or one of the
// listed choices). Everything legal comes from the server; this page only shows it and sends a choice.
// The board is drawn by lotr_board.js, as in the replay viewer.
import { $, api, $button, capitalize, el, parseSquare, squareName, squareOf } from "./common.js";
import { N_, t } from "./i18n.js";
import { showMoves, startLive, shuffle, toast } from "./live.js";
import {
  battleLines, battleTag, drawLotrBoard, GAME_TITLES, RESULT_WORDS, RING_STATUS, ringNews, SEATS, strikeLines, symbolOf,
} from "./lotr_board.js";
import { savedSetupTools, SetupEditor } from "./setup_editor.js";
import { setupLines, setupStringTools } from "./setup_string.js";
import { enableDragMoves } from "./drag_moves.js";
import { motionOf } from "./animate.js";


let meta = null; // the lobby's description of LOTR: armies, powers, zones
const info = [new Map(), new Map()]; // per seat: character key -> {name, rank, symbol, powers}
let zones = new Set();
let selected = null; // square number of the piece picked to act
let mode = null; // "move" or a power key
let landing = null; // the Dwarven Axe: the square Gimli steps to
let live = null;
let dragCtx = null; // the page on screen and its actions by square, for moves by dragging
let dragActions = new Map();

const editor = new SetupEditor({
  svg: $("board"),
  tray: $("setup-tray"),
  status: $("setup-status"),
  label: (key) => {
    const k = info[currentSeat()].get(key);
    return k ? { sym: k.symbol, name: k.name } : { sym: "?", name: key };
  },
  order: [],
  names: true, // the powers go with the character, not the rank: "8" is Gimli or an Elf
  sideClass: () => `s${currentSeat()}`,
  onChange: () => {
    if (live) live.render();
    strings.checkSoon();
  },
});
let lastCtx = null;
// Saved setups, as in classic Stratego: kept in this browser per game and variant.
const showSaved = savedSetupTools(editor, {
  current: () => (lastCtx && lastCtx.msg.setup ? lastCtx.msg : null),
  redraw: () => live && live.render(),
  say: toast,
});
// Samples and setup strings, as in classic Stratego: the server reads them (one letter per character).
const strings = setupStringTools(editor, { current: () => (lastCtx && lastCtx.setting ? lastCtx.msg : null), say: toast });

function currentSeat() {
  return lastCtx && lastCtx.seat !== null ? lastCtx.seat : 0;
}

function charName(owner, key) {
  return info[owner]?.get(key)?.name ?? key;
}

// --- what the seat may do ---------------------------------------------------------------------------
function actionsBySquare(msg) {
  const by = new Map();
  for (const a of msg.actions || []) {
    if (!a.from) continue;
    const sq = parseSquare(a.from);
    if (!by.has(sq)) by.set(sq, []);
    by.get(sq).push(a);
  }
  return by;
}

function modeOf(a) {
  return a.kind === "move" || a.kind === "attack" ? "move" : a.kind;
}

/** The square a click picks for an action in its mode. */
function clickSquare(a) {
  if (a.kind === "sense_enemy" || a.kind === "long_bow") return parseSquare(a.targets[0]);
  return a.to ? parseSquare(a.to) : null;
}

function modeActions(list) {
  let acts = (list || []).filter((a) => modeOf(a) === mode);
  if (mode === "dwarf_axe" && landing !== null) acts = acts.filter((a) => parseSquare(a.to) === landing);
  return acts;
}

function targetsOf(list) {
  const targets = new Map();
  for (const a of modeActions(list)) {
    if (mode === "dwarf_axe" && landing !== null) {
      for (const t of a.targets) targets.set(parseSquare(t), "target");
      continue;
    }
    const sq = clickSquare(a);
    if (sq === null) continue;
    const kind = a.kind === "attack" || a.attack ? "attack" : a.kind === "move" ? "move" : a.kind === "sense_enemy" || a.kind === "long_bow" ? "target" : "power";
    if (targets.get(sq) !== "attack") targets.set(sq, kind);
  }
  return targets;
}

function renderAct(ctx, bySquare) {
  const card = $("act");
  const msg = ctx.msg;
  const stop = (msg.actions || []).find((a) => a.kind === "stop");
  card.hidden = !ctx.myTurn || ctx.over;
  if (card.hidden) return;
  const list = selected !== null ? bySquare.get(selected) : null;
  const cell = selected !== null ? msg.view.board[selected] : null;
  const modes = [];
  if (list) {
    for (const a of list) {
      const m = modeOf(a);
      if (!modes.includes(m)) modes.push(m);
    }
  }
  if (msg.view.pending) {
    $("act-piece").replaceChildren(el("div", { class: "small" }, t("Your Uruk-Hai on {square} won: attack again from there, or stop.", { square: msg.view.pending.square })));
  } else if (cell && cell.kind) {
    const k = info[cell.owner].get(cell.kind);
    const powers = k && k.powers.length ? ` · ${t("powers")}: ${k.powers.map((p) => meta.powers[p] || p).join(", ")}` : "";
    $("act-piece").replaceChildren(el("b", {}, `${t(cell.name)} (${cell.rank})`), ` ${t("on {square}", { square: squareName(selected) })}`, el("span", { class: "muted small" }, powers));
  } else {
    $("act-piece").replaceChildren(el("span", { class: "muted small" }, t("Click one of your pieces that can act (outlined), then a highlighted square.")));
  }
  const buttons = modes.map((m) => el("button", {
    class: m === mode ? "mode primary" : "mode",
    "data-mode": m,
    onclick: () => { mode = m; landing = null; ctx.rerender(); },
  }, m === "move" ? t("Move / attack") : meta.powers[m] || m));
  if (stop) buttons.push(el("button", { class: "danger", id: "stop-button", onclick: () => ctx.send({ type: "action", action: stop.id }) }, t("Stop attacking")));
  $("act-modes").replaceChildren(...buttons);
  // The help names the markers targetsOf draws (games.css: .target.move, .attack, .power, .target).
  const help = {
    move: N_("Click a green dot to move there, or an enemy ringed in red to attack it."),
    fly: N_("Fly: click a purple dot to land there (over pieces and the zones)."),
    sense_enemy: N_("Detect Enemy: click an enemy ringed in lavender, up to two squares away."),
    long_bow: N_("Longbow: click an enemy ringed in lavender, up to two squares along a line."),
    swift_steed: N_("Swift Steed: click a purple dot two steps away (an enemy ringed in red: an attack on the way)."),
    rage: N_("Rage: click the purple dot to step to; every enemy around is struck."),
    dwarf_axe: landing === null ? N_("Dwarven Axe: click the purple dot Gimli steps to, then pick the pieces to strike.") : t("Dwarven Axe from {square}: pick 1-3 pieces to strike (ringed in lavender).", { square: squareName(landing) }),
  }[mode] || "";
  $("act-help").textContent = list ? t(help) : "";
  const choices = list ? modeActions(list) : [];
  const shownChoices = mode === "dwarf_axe" && landing === null ? [] : choices.slice(0, 60);
  $("act-choices").replaceChildren(...shownChoices.map((a) => el("button", {
    class: "choice", "data-action": a.id, onclick: () => play(ctx, a),
  }, a.text)));
}

function play(ctx, a) {
  selected = null;
  mode = null;
  landing = null;
  ctx.send({ type: "action", action: a.id });
}

function onBoardClick(ctx, sq, bySquare) {
  const list = selected !== null ? bySquare.get(selected) : null;
  if (list && mode) {
    const acts = modeActions(list);
    if (mode === "dwarf_axe" && landing === null) {
      if (acts.some((a) => parseSquare(a.to) === sq)) {
        landing = sq;
        ctx.rerender();
        return;
      }
    } else if (mode === "dwarf_axe") {
      const hit = acts.filter((a) => a.targets.length === 1 && parseSquare(a.targets[0]) === sq);
      if (hit.length === 1) return play(ctx, hit[0]);
    } else {
      const hit = acts.filter((a) => clickSquare(a) === sq);
      if (hit.length === 1) return play(ctx, hit[0]);
      if (hit.length > 1) return; // pick one in the list
    }
  }
  if (bySquare.has(sq)) {
    if (selected === sq) {
      selected = null;
    } else {
      selected = sq;
      const modes = bySquare.get(sq).map(modeOf);
      mode = modes.includes("move") ? "move" : modes[0];
    }
    landing = null;
  } else {
    selected = null;
    mode = null;
    landing = null;
  }
  ctx.rerender();
}

// --- panels -----------------------------------------------------------------------------------------
function describeLast(m, ctx) {
  const seat = capitalize(t(SEATS[m.player]));
  const who = ctx.seat === null || ctx.hotseat ? seat : m.player === ctx.seat ? t("You") : seat;
  const out = [];
  if (m.stop) {
    out.push(el("div", {}, t("{who} stopped the Uruk-Hai's attacks.", { who })));
  } else if (m.power && m.power !== "repeat_attack") {
    const name = meta.powers[m.power] || m.power;
    const by = m.attacker ? `${charName(m.player, m.attacker)} (${m.attacker_rank})` : t("a piece");
    const to = m.to ? t(" to {square}", { square: m.to }) : "";
    out.push(el("div", {}, t("{who} used {power}: {by} from {from}{to}.", { who, power: name, by, from: m.from, to })));
    out.push(...strikeLines(m, charName));
  } else if (m.defender) {
    out.push(el("div", {}, t("{who} attacked {from}×{to}:", { who, from: m.from, to: `${m.to}${m.power === "repeat_attack" ? t(" (again)") : ""}` })));
    out.push(...battleLines(m, charName));
  } else {
    const run = m.attacker ? t(" — {name}, shown by its long move", { name: charName(m.player, m.attacker) }) : "";
    out.push(el("div", {}, t("{who} moved {from}–{to}{scout}.", { who, from: m.from, to: m.to, scout: run })));
  }
  out.push(...ringNews(m));
  return out;
}

function moveLine(m) {
  const parts = [el("b", {}, m.notation)];
  if (m.defender) {
    parts.push(" ", battleTag(m));
  } else if (m.targets) {
    parts.push(" ", el("span", { class: "battle" }, m.targets.map((hit) => `${symbolOf(hit.defender_rank)} ${t(RESULT_WORDS[hit.result] || hit.result)}`).join(", ")));
  }
  if (m.ring) parts.push(" ", el("span", { class: "ring-news" }, t(m.ring === "destroyed" ? "Ring destroyed" : "Ring taken")));
  return parts;
}

function renderPanels(ctx) {
  const msg = ctx.msg;
  const view = msg.view;
  const last = view.last_move;
  $("last").hidden = !last;
  if (last) $("last-text").replaceChildren(...describeLast(last, ctx));
  $("ring").hidden = !view.ring;
  if (view.ring) {
    $("ring-text").textContent = `${RING_STATUS[view.ring.status]} (Mount Doom: ${view.ring.mount_doom}).`;
  }
  const final = ctx.over && msg.final ? msg.final : null;
  for (const owner of [0, 1]) {
    const lost = (final || view).captured[owner];
    $(`captured-label-${owner}`).textContent = t("{seat} lost {n}", { seat: capitalize(t(SEATS[owner])), n: view.captured_count[owner] });
    const chips = lost === null
      ? [el("span", { class: "muted small" }, t("kept hidden ({mode})", { mode: t(view.captured_mode) }))]
      : lost.map((key) => {
        const k = info[owner].get(key);
        return el("span", { class: `chip named s${owner}`, title: k ? `${k.name} (${k.rank})` : key }, k ? k.symbol : "?",
          el("span", { class: "name" }, k ? k.name : key));
      });
    $(`captured-${owner}`).replaceChildren(...chips);
    // What each army still has: its characters less those it lost, when the captured-piece mode shows them.
    const known = lost !== null && info[owner].size > 0;
    $(`left-label-${owner}`).hidden = !known;
    const left = known ? [...info[owner].values()].map((k) => [k, k.count - lost.filter((key) => key === k.key).length]) : [];
    $(`left-${owner}`).replaceChildren(...left.filter(([, n]) => n > 0).map(([k, n]) => el("span",
      { class: `chip named s${owner}`, title: t("{rank}: {n} in play", { rank: `${k.name} (${k.rank})`, n }) }, k.symbol, el("span", { class: "name" }, k.name),
      el("span", { class: "count" }, `×${n}`))));
  }
  showMoves(msg.moves.map((m) => el("li", { class: `s${m.player}` }, ...moveLine(m))));
}

// --- setup ------------------------------------------------------------------------------------------
function renderSetup(ctx) {
  const msg = ctx.msg;
  const setup = msg.setup;
  $("setup").hidden = !ctx.setting;
  editor.setActive(ctx.setting);
  if (!ctx.setting) return false;
  const order = [...info[msg.seat].values()].sort((a, b) => rankValue(b.rank) - rankValue(a.rank)).map((k) => k.key);
  editor.order = order;
  editor.configure(`${location.pathname}:${msg.seat}`, { area: setup.area, roster: setup.roster });
  strings.render(msg);
  $("setup-letters").replaceChildren(...[...info[msg.seat].values()].flatMap((k, i) => [i ? ", " : "", el("b", {}, k.letter), ` ${k.name}`]));
  showSaved(msg);
  $button("setup-confirm").disabled = editor.leftCount() > 0 || ctx.waiting;
  if (!editor.leftCount() && editor.status && !editor.status.textContent) editor.say(t("Ready: confirm to play."), "good");
  return true;
}

function rankValue(rank) {
  return { flag: 0, spy: 1, fortress: 0.5 }[rank] ?? Number(rank);
}

$button("setup-random").addEventListener("click", () => {
  const msg = lastCtx && lastCtx.msg;
  if (!msg || !msg.setup) return;
  // The pieces placed by hand stay and the rest fill the free squares; with nothing placed (or nothing left),
  // the server's random army, with its setup string.
  if (editor.placed() > 0 && editor.leftCount() > 0) editor.fillRest(shuffle);
  else strings.preview("random");
});
$button("setup-confirm").addEventListener("click", () => {
  if (!lastCtx || editor.leftCount() > 0) return;
  strings.cancel();
  if (lastCtx.send({ type: "setup", setup: editor.placement() })) {
    editor.say(t("Sent…"));
    $("board").scrollIntoView({ block: "nearest" }); // upright screens: back up to the board, where play begins
  }
});

// --- the page ---------------------------------------------------------------------------------------
function render(ctx) {
  lastCtx = ctx;
  if (!meta) return;
  const msg = ctx.msg;
  const root = $("board");
  const perspective = msg.seat ?? 0;
  const base = {
    perspective, me: msg.seat, selected: null, targets: new Map(), movable: new Set(), lastSquares: [], struck: [],
    area: new Set(), wasHidden: new Set(), preview: false, final: false, clickable: new Set(), zones, doom: null,
  };
  if (ctx.curtainUp) {
    drawLotrBoard(root, { ...base, board: new Array(100).fill(null) });
    return;
  }
  const view = msg.view;
  const doom = view.ring ? parseSquare(view.ring.mount_doom) : null;
  const setting = renderSetup(ctx);
  renderPanels(ctx);
  let board = view.board;
  /** @type {Record<string, any>} */
  const o = { ...base, doom };
  if (ctx.over && msg.final) {
    view.board.forEach((cell, sq) => {
      const full = msg.final.board[sq];
      if (full && typeof full === "object" && !full.revealed && (msg.seat === null || full.owner !== msg.seat)) o.wasHidden.add(sq);
    });
    board = msg.final.board;
    o.final = true;
  } else if (msg.setup) {
    const placement = msg.setup.done ? msg.setup.placement : setting ? editor.placement() : {};
    board = board.slice();
    for (const [name, key] of Object.entries(placement)) {
      const k = info[msg.seat].get(key);
      board[parseSquare(name)] = { owner: msg.seat, kind: key, name: k ? k.name : key, rank: k ? k.rank : "?", moved: false, revealed: false };
    }
    o.preview = setting;
    if (setting) o.area = new Set(msg.setup.area);
  }
  const last = view.last_move;
  if (last && !setting) {
    o.lastSquares = [last.from, last.to].filter(Boolean).map(parseSquare);
    o.struck = (last.targets || []).map((t) => parseSquare(t.square));
  }
  const bySquare = ctx.myTurn && !setting ? actionsBySquare(msg) : new Map();
  dragCtx = ctx;
  dragActions = bySquare;
  if (selected !== null && !bySquare.has(selected)) {
    selected = null;
    mode = null;
    landing = null;
  }
  if (selected !== null) o.targets = targetsOf(bySquare.get(selected));
  o.selected = selected;
  o.movable = new Set(bySquare.keys());
  o.clickable = new Set([...bySquare.keys(), ...o.targets.keys(), ...(setting ? o.area : [])]);
  o.board = board;
  // The last move glides in once it is drawn (a power that strikes from afar moves nobody).
  const moved = last && !setting && last.from && last.to && !(last.targets && last.targets.length) ? last : null;
  const animate = motionOf(root, moved);
  drawLotrBoard(root, o);
  root.classList.toggle("compact", root.getBoundingClientRect().width < 600); // names give way to initials
  editor.decorate();
  animate(`${msg.game.id}:${msg.seat}:${msg.game.move_count}`);
  renderAct(ctx, bySquare);
  root.onclick = setting ? null : (event) => {
    const sq = squareOf(event);
    if (sq !== null && ctx.myTurn) onBoardClick(ctx, sq, bySquare);
  };
}

async function main() {
  const all = await api("/api/meta");
  meta = all.games.find((g) => g.name === "lotr");
  zones = new Set(meta.zones.map(parseSquare));
  // The characters' and powers' names in the page's language (the Italian rulebook's: Re Stregone, Volare).
  for (const key of Object.keys(meta.powers)) meta.powers[key] = t(meta.powers[key]);
  meta.armies.forEach((army, seat) => {
    for (const k of army.kinds) info[seat].set(k.key, { ...k, name: t(k.name) });
  });
  live = startLive({
    seatNames: SEATS,
    typedMoves: true,
    title: (g) => `Stratego LOTR · ${t(GAME_TITLES[g.variant] || g.variant)}`,
    progress: (msg) => {
      const g = msg.game;
      const cap = g.options.max_moves ? t(" of at most {cap}", { cap: g.options.max_moves }) : "";
      const mode = msg.view.captured_mode ? ` · ${t("captured pieces")}: ${t(msg.view.captured_mode)}` : "";
      return `${t("Move {n}", { n: g.move_count })}${cap}${mode}`;
    },
    resultNote: (msg) => [
      msg.game.move_count === 1 ? t("1 move. Every piece is shown now; dashed ones stayed hidden to the end.") : t("{n} moves. Every piece is shown now; dashed ones stayed hidden to the end.", { n: msg.game.move_count }),
      ...setupLines(msg, (s) => capitalize(t(SEATS[s]))),
    ],
    replay: true,
    render,
  });
}

// Drag a piece onto the square it moves to or attacks (the ordinary move; powers are chosen by click).
const dragMoves = (from, to) => (dragActions.get(from) || []).filter((a) => modeOf(a) === "move" && clickSquare(a) === to);
enableDragMoves($("board"), {
  canDrag: (sq) => (dragActions.get(sq) || []).some((a) => modeOf(a) === "move"),
  pick: (sq) => {
    selected = sq;
    mode = "move";
    landing = null;
    dragCtx?.rerender();
  },
  isTarget: (from, to) => dragMoves(from, to).length === 1,
  move: (from, to) => {
    const hit = dragMoves(from, to);
    if (hit.length === 1 && dragCtx) play(dragCtx, hit[0]);
  },
});

main().catch((err) => {
  $("turn-text").textContent = t("Cannot load the game: {error}", { error: err.message });
});
