// @ts-check
// The game page of Admiral: the 8x8 battlefield with its terrain, both fleets' unit cards, the dice
// pools, the phase and whose decision it is, the air war, the log of what happened (each order with what it
// did), the computer's reasoning. The player decides on the board: a click on a unit shows what it may do
// (green squares to move to, red rings on the enemies it may attack), a click on a square or an enemy offers
// the dice that can pay for it. Everything is said in words (admiral_board.js turns the engine's notation
// into them). The server rolls every die. The board is drawn by admiral_board.js, as in the replay viewer.
import { $, api, $button, capitalize, el, plainEl, plainWords, squareOf } from "./common.js";
import {
  actionLine, actionWords, admiralTitle, airLine, diceChips, drawAdmiralBoard, initiativeWords, keyWords, movementHelp,
  orderWords, parseSquare, phaseWords, pips, reportWords, rollWords, SEATS, seatWords, squadronWords, squareName,
} from "./admiral_board.js";
import { N_, t } from "./i18n.js";
import { showMoves, startLive, shuffle } from "./live.js";

// What a phase asks of the seat to decide (its title is PHASES's; the movement phase's is movementHelp's).
const PHASE_HELP = {
  deploy: N_("Place your surface units on the lit squares."),
  initiative: N_("The server rolls the initiative dice."),
  choose_first: N_("You won the initiative: choose who acts first this turn."),
  submarines: N_("Place a submarine, submerged, anywhere in your half of the board: click it, then a green square."),
  reserve: N_("Bring reserve units onto free squares of your last row, or be done."),
  action_dice: N_("The server rolls both pools."),
  reaction: N_("The enemy repairs a unit: answer with its Poor Damage Control (an Admiral die), or decline."),
  launch: N_("Pick the squadrons of this launch one by one: a fighter to protect one of your ships, or a squadron kept in the air to attack later; then Done."),
  air: N_("You may attack with a carrier's squadrons, or make no air attack."),
  strike: N_("Send each squadron against an enemy unit: click the enemy, then the squadron; Done when all are sent."),
  air_react: N_("An air attack is on: you may spend an Admiral die on a feature that helps, or be done."),
  air_roll: N_("The server rolls the fighter duels and the anti-aircraft fire."),
  aa_pick: N_("Your anti-aircraft fire hit: choose the attacking squadron it shoots down."),
  escort_pick: N_("Choose the attack squadron your next protecting fighter takes on."),
  attack: N_("Give your Artillery, Torpedo and Depth-charge dice their targets in secret: click one of your units, then the red-ringed enemy to attack. Commit when you are done: the other side sees your orders only once both have committed."),
  criticals: N_("Your attack scored a critical hit: choose the characteristic the marker goes on."),
  solo_roll: N_("The server rolls for the computer's next unit."),
};
// The decisions that are one button each, and what the button says.
const SIMPLE = {
  commit: N_("Commit your orders"), pass: N_("Pass"), decline: N_("Decline"), reserve_done: N_("Done entering"), air_done: N_("Done"),
  air_pass: N_("No air attack"),
};
// What a unit may do, in the list of units with a decision.
const KIND_WORDS = {
  move: N_("move"), repair: N_("repair"), launch: N_("launch aircraft"), strike: N_("air attack"), hold: N_("hold"), fire: N_("fire"),
  torpedo: N_("torpedo"), depth_charge: N_("depth charges"), activate: N_("special feature"), protect: N_("fighter cover"),
  squadron: N_("air target"), submarine: N_("place"), reserve: N_("enter"), deploy: N_("deploy"),
};
// Where a unit of a fleet is, on its card when it is not on the board.
const WHERE = { reserve: N_("reserve"), to_place: N_("to deploy"), sunk: N_("sunk") };
const NEWS = 5; // at most this many entries under "since your last decision"
const FEW = 4; // as many decisions of units as are listed at once; beyond, the player chooses the unit first

let meta = null;
let live = null;
let lastCtx = null;
/** The unit chosen on the board (or its card), and the square or enemy chosen for it. */
let filter = { unit: null, square: null, target: null };
/** `game:seat:turn` of the turn whose movement the player ended ("End my movement"): later goes pass (kept
 * for the browser tab, so that a reload does not ask again). */
const END_KEY = "fogofwar.admiral.endMovement";
let endMovement = sessionStorage.getItem(END_KEY);
/** The state message the page last sent a decision from: until the next state comes, that decision is on its
 * way (the server's acknowledgement may come first), so nothing of the old state is offered again, and an
 * automatic pass is sent once. A refusal clears it. */
let sentFrom = null;
// The deployment being arranged: square -> unit name.
let deployKey = null;
let deployed = new Map();
let picked = null; // {name} from the list or {sq} on the board

const seatName = seatWords;
const noFilter = () => ({ unit: null, square: null, target: null });

// --- decisions ------------------------------------------------------------------------------------------
/** The legal actions in words, each with the unit it is chosen through (`key`: the acting unit, else the unit
 * it is aimed at: the enemy a squadron attacks, the ship a fighter protects). */
function annotate(msg) {
  const phase = msg.view.phase;
  const critical = msg.view.pending_critical ? msg.view.pending_critical.unit : null;
  return (msg.actions || []).map((a) => {
    const w = actionWords(a.text, meta, { from: a.from, phase, unit: critical });
    return { ...a, what: capitalize(w.what), dice: w.dice, faces: w.faces, key: a.unit || a.target || null };
  });
}

/** The cheaper dice first: a plain symbol before a double face, an Admiral die (the wild one) last. */
function cost(a) {
  const faces = a.faces.flatMap((f) => f.split("+"));
  return (faces.includes("admiral") ? 2 : 0) + (a.faces.some((f) => f.includes("+")) ? 1 : 0);
}

function actButton(ctx, a, label) {
  return el("button", {
    class: ["commit", "pass"].includes(a.kind) ? "act-button primary" : "act-button",
    "data-action": a.id, "data-kind": a.kind, title: a.dice ? `${a.what} (${a.dice})` : a.what,
    onclick: () => decide(ctx, a),
  }, label);
}

/** Decisions as rows: one per thing that happens, with a button for each way of paying for it. */
function rows(ctx, list) {
  const groups = new Map();
  for (const a of list) {
    if (!groups.has(a.what)) groups.set(a.what, []);
    groups.get(a.what).push(a);
  }
  return [...groups].map(([what, acts]) => {
    if (acts.length === 1 && !acts[0].dice) return el("div", { class: "decision-row" }, actButton(ctx, acts[0], what));
    const sorted = [...acts].sort((x, y) => cost(x) - cost(y));
    return el("div", { class: "decision-row" }, el("div", { class: "what" }, what),
      el("div", { class: "pay" }, el("span", { class: "muted small" }, t("pay with:")), ...sorted.map((a) => actButton(ctx, a, a.dice || t("this")))));
  });
}

function ownerOf(msg, name) {
  for (const cell of msg.view.board) for (const u of cell.units) if (u.name === name) return u.owner;
  return msg.view.fleets[msg.seat].to_place?.includes(name) || msg.view.fleets[msg.seat].reserve?.includes(name) ? msg.seat : null;
}

function squareOfUnit(msg, name) {
  const sq = msg.view.board.findIndex((cell) => cell.units.some((u) => u.name === name));
  return sq >= 0 ? sq : null;
}

function unitLabel(msg, name) {
  const card = meta.cards[name];
  const sq = squareOfUnit(msg, name);
  const owner = ownerOf(msg, name);
  const p = { unit: name, class: card ? t(card.class_name) : t("unit"), square: sq !== null ? squareName(sq) : "" };
  if (owner !== null && owner !== msg.seat) return sq !== null ? t("{unit} (enemy {class} on {square})", p) : t("{unit} (enemy {class})", p);
  return sq !== null ? t("{unit} ({class} on {square})", p) : t("{unit} ({class})", p);
}

/** Why the seat's pass is sent for it (it ended its movement, or passing is all it can do), or ''. */
function autoPassReason(ctx) {
  const msg = ctx.msg;
  if (!ctx.myTurn || msg.view.phase !== "movement") return "";
  const pass = (msg.actions || []).find((a) => a.kind === "pass");
  if (!pass) return "";
  if (endMovement === endKey(msg)) return t("you ended your movement for this turn");
  if (msg.view.fleets[msg.seat].forfeited && msg.actions.length === 1) return t("you passed and have no Admiral die left to move with");
  return "";
}

const endKey = (msg) => `${msg.game.id}:${msg.seat}:${msg.view.turn}`;

function unusedAdmirals(fleet) {
  return fleet.dice.filter((d) => !d.used && d.face.split("+").includes("admiral")).length;
}

/** The log's entries since the seat's last decision that others made (or the server rolled). */
function sinceMyLast(msg) {
  const moves = msg.moves;
  let i = moves.length - 1;
  while (i >= 0 && !(moves[i].kind === "action" && moves[i].player === msg.seat)) i--;
  return moves.slice(i + 1).filter((m) => m.kind === "roll" || m.player !== msg.seat);
}

function renderNews(ctx) {
  const msg = ctx.msg;
  const news = msg.seat === null || msg.seat === undefined ? [] : sinceMyLast(msg);
  const box = $("decide-news");
  box.hidden = !news.length;
  if (!news.length) return;
  const shown = logEntries(news.slice(-NEWS)).map((g) => logItem(g, false, "div"));
  const more = news.length > NEWS ? el("div", { class: "muted small" }, t("… and {n} earlier, in the log below.", { n: news.length - NEWS })) : null;
  box.replaceChildren(el("div", { class: "small muted" }, t("Since your last decision:")), ...(more ? [more] : []), ...shown);
}

function renderDecide(ctx) {
  const msg = ctx.msg;
  const card = $("decide");
  const auto = autoPassReason(ctx);
  const sent = sentFrom === msg;
  card.hidden = !ctx.myTurn || ctx.over || Boolean(auto) || sent;
  if (auto) {
    const pass = msg.actions.find((a) => a.kind === "pass");
    if (!sent) {
      sentFrom = msg;
      setTimeout(() => ctx.send({ type: "action", action: pass.id }), 0);
    }
    $("turn-text").textContent = t("Passing for you: {reason}.", { reason: auto });
  }
  if (card.hidden) return [];
  const view = msg.view;
  const phase = view.phase;
  const title = phaseWords(phase);
  const fleet = view.fleets[msg.seat];
  const all = annotate(msg);
  let help = phase in PHASE_HELP ? t(PHASE_HELP[phase]) : "";
  if (phase === "movement") {
    const other = view.solo ? t("{seat} (the computer)", { seat: seatName(view.solo.seat) }) : seatName(1 - msg.seat);
    help = movementHelp({ forfeited: fleet.forfeited, admirals: unusedAdmirals(fleet), moves: all.some((a) => a.kind !== "pass"), other });
  }
  if (view.pending_critical) help = t("{help} The marker goes on {unit}.", { help, unit: view.pending_critical.unit });
  if (phase === "attack" && !all.some((a) => ["fire", "torpedo", "depth_charge"].includes(a.kind))) {
    help = t("None of your units can reach an enemy with the dice you have. You may still turn on special features (an Admiral die each), then commit: the other side sees your orders only once both have committed.");
  }
  $("decide-title").textContent = ctx.hotseat ? `${seatName(msg.seat)}: ${title}` : t("Your decision: {phase}", { phase: title });
  $("decide-help").textContent = help;
  renderNews(ctx);
  const orders = fleet.orders || [];
  $("draft").hidden = phase !== "attack";
  $("draft-orders").replaceChildren(...(orders.length ? orders.map((o) => el("li", {}, orderWords(o, meta))) : [el("li", { class: "muted" }, t("none yet"))]));
  $button("undo-button").disabled = !(msg.draft && msg.draft.length);
  const keys = new Set(all.map((a) => a.key));
  if (!filter.unit && keys.size === 1 && !keys.has(null) && ["submarines", "reserve"].includes(phase)) {
    filter = { unit: [...keys][0], square: null, target: null }; // one unit to place: it is chosen already
  }
  $("filter-line").hidden = !filter.unit;
  $("filter-text").textContent = filter.unit ? unitLabel(msg, filter.unit) : "";
  const nodes = filter.unit ? unitPanel(ctx, all) : overview(ctx, all);
  $("action-groups").replaceChildren(...nodes);
  return all.filter((a) => a.key === filter.unit);
}

/** No unit chosen: the one-button decisions, the units that have a decision, the decisions of no unit. */
function overview(ctx, all) {
  const msg = ctx.msg;
  const nodes = [];
  const simple = all.filter((a) => a.kind in SIMPLE);
  const buttons = simple.map((a) => {
    const label = a.kind === "pass" && msg.view.fleets[msg.seat].forfeited ? t("Pass again") : t(SIMPLE[a.kind]);
    return actButton(ctx, a, label);
  });
  const pass = simple.find((a) => a.kind === "pass");
  if (pass && msg.view.phase === "movement" && all.some((a) => a.kind !== "pass")) {
    buttons.push(el("button", {
      class: "act-button", "data-kind": "end_movement",
      title: t("Pass now, and at every later go of this movement phase (no move with an Admiral die)"),
      onclick: () => {
        endMovement = endKey(msg);
        sessionStorage.setItem(END_KEY, endMovement);
        decide(ctx, pass);
      },
    }, t("End my movement for this turn")));
  }
  if (buttons.length) nodes.push(el("div", { class: "row wrap simple-actions" }, ...buttons));
  const keyed = all.filter((a) => a.key);
  const units = [...new Set(keyed.map((a) => a.key))];
  units.sort((x, y) => Number(ownerOf(msg, x) !== msg.seat) - Number(ownerOf(msg, y) !== msg.seat));
  if (keyed.length <= FEW) {
    nodes.push(...rows(ctx, keyed)); // a few: each says what it does, no need to choose the unit first
  } else if (units.length) {
    nodes.push(el("div", { class: "small muted" }, t("Click a unit on the board (or here) to see what it can do:")));
    nodes.push(el("div", { class: "unit-picks" }, ...units.map((name) => {
      const kinds = [...new Set(keyed.filter((a) => a.key === name).map((a) => (a.kind in KIND_WORDS ? t(KIND_WORDS[a.kind]) : a.kind)))];
      return el("button", { class: "unit-pick", "data-unit": name, onclick: () => select(ctx, name) },
        el("span", {}, unitLabel(msg, name)), el("span", { class: "muted small" }, kinds.join(" · ")));
    })));
  }
  const loose = all.filter((a) => !a.key && !(a.kind in SIMPLE));
  if (loose.length) nodes.push(...rows(ctx, loose));
  if (!nodes.length) nodes.push(el("p", { class: "muted small" }, t("Nothing to decide.")));
  return nodes;
}

/** A unit chosen: what it may do; with a square or an enemy chosen too, the ways to do that. */
function unitPanel(ctx, all) {
  const msg = ctx.msg;
  const mine = all.filter((a) => a.key === filter.unit);
  const nodes = [];
  if (filter.square || filter.target) {
    const here = mine.filter((a) => (filter.square ? a.square === filter.square : a.target === filter.target));
    nodes.push(...rows(ctx, here));
    nodes.push(el("button", { class: "link-button", onclick: () => { filter = { ...filter, square: null, target: null }; ctx.rerender(); } }, t("Other choices for {unit}", { unit: filter.unit })));
    return nodes;
  }
  if (!mine.length) return [el("p", { class: "muted small" }, t("{unit} has nothing to decide now.", { unit: filter.unit }))];
  const placed = mine.filter((a) => a.square);
  const aimed = mine.filter((a) => !a.square && a.target && a.target !== filter.unit);
  const other = mine.filter((a) => !placed.includes(a) && !aimed.includes(a));
  const hints = [];
  if (placed.length) hints.push(placed[0].kind === "move" ? t("Click a green square on the board to move it there.") : t("Click a green square on the board to put it there."));
  if (aimed.length) hints.push(t("Click an enemy in a red ring to attack it."));
  if (hints.length) nodes.push(el("p", { class: "small" }, hints.join(" ")));
  nodes.push(...rows(ctx, other));
  if (aimed.length) nodes.push(...rows(ctx, aimed));
  if (placed.length) {
    const squares = new Set(placed.map((a) => a.square)).size;
    const summary = squares === 1 ? t("Or choose from a list (1 square)") : t("Or choose from a list ({n} squares)", { n: squares });
    nodes.push(el("details", { class: "action-group" }, el("summary", {}, summary),
      el("div", { class: "action-list" }, ...rows(ctx, placed))));
  }
  return nodes;
}

function select(ctx, name) {
  filter = filter.unit === name ? noFilter() : { unit: name, square: null, target: null };
  ctx.rerender();
}

function decide(ctx, a) {
  filter = noFilter();
  sentFrom = ctx.msg;
  ctx.send({ type: "action", action: a.id });
}

/** A square or an enemy picked for the chosen unit: done at once when only one decision fits, else offered. */
function pickFrom(ctx, list, next) {
  if (list.length === 1) {
    decide(ctx, list[0]);
    return;
  }
  filter = next;
  ctx.rerender();
  $("decide").scrollIntoView({ block: "nearest" });
}

$button("filter-clear").addEventListener("click", () => {
  filter = noFilter();
  if (live) live.render();
});
$button("undo-button").addEventListener("click", () => lastCtx && lastCtx.send({ type: "undo" }));

function clickSquare(ctx, sq) {
  const name = squareName(sq);
  const msg = ctx.msg;
  const all = annotate(msg);
  const here = msg.view.board[sq].units;
  if (filter.unit) {
    const mine = all.filter((a) => a.key === filter.unit);
    const to = mine.filter((a) => a.square === name);
    if (to.length) {
      pickFrom(ctx, to, { unit: filter.unit, square: name, target: null });
      return;
    }
    const at = mine.filter((a) => a.target && a.target !== filter.unit && here.some((u) => u.name === a.target));
    if (at.length) {
      pickFrom(ctx, at, { unit: filter.unit, square: null, target: at[0].target });
      return;
    }
  }
  const mineFirst = [...here.filter((u) => u.owner === msg.seat), ...here.filter((u) => u.owner !== msg.seat)];
  const choosable = mineFirst.filter((u) => all.some((a) => a.key === u.name));
  if (choosable.length) {
    const at = choosable.findIndex((u) => u.name === filter.unit);
    const next = at >= 0 && at + 1 >= choosable.length ? null : choosable[at + 1];
    filter = next ? { unit: next.name, square: null, target: null } : noFilter();
  } else {
    filter = noFilter();
  }
  ctx.rerender();
}

// --- the log --------------------------------------------------------------------------------------------
/** The log's entries, with an air attack's or a launch's decisions (one entry each) joined into one. */
function logEntries(moves) {
  const out = [];
  for (const m of moves) {
    const last = out[out.length - 1];
    const joins = last && m.kind === "action" && last.kind === "action" && !m.hidden && !last.hidden
      && m.player === last.player && m.turn === last.turn
      && ((m.phase === "strike" && ["air", "strike"].includes(last.phase)) || (m.phase === "launch" && ["movement", "launch"].includes(last.phase)));
    if (joins) {
      out[out.length - 1] = {
        ...last, phase: m.phase, texts: [...(last.texts || []), ...(m.texts || [])],
        from: [...(last.from || (last.texts || []).map(() => null)), ...(m.from || (m.texts || []).map(() => null))],
        effects: [...(last.effects || []), ...(m.effects || [])],
      };
    } else {
      out.push(m);
    }
  }
  return out;
}

/** One entry of the log in words. */
function logText(m) {
  const who = seatName(m.player);
  if (m.kind === "roll") return rollWords(m, who);
  if (m.kind === "deploy") return t("{seat} deploys its fleet face down", { seat: who });
  if (m.kind === "resign") return t("{seat} resigns", { seat: who });
  if (m.kind === "forfeit") return m.reason ? t("{seat} forfeits: {reason}", { seat: who, reason: m.reason }) : t("{seat} forfeits", { seat: who });
  if (m.hidden) return t("{seat} commits its attack orders (secret until both have committed)", { seat: who });
  const texts = m.texts || [];
  const keep = texts.length > 1 ? texts.map((n) => n !== "air:done") : texts.map(() => true); // "done" ends a list
  const words = [];
  texts.forEach((notation, i) => {
    if (!keep[i]) return;
    const line = actionLine(notation, meta, { from: m.from ? m.from[i] : null, phase: m.phase, unit: m.unit });
    const last = words[words.length - 1];
    if (last && last.line === line) last.n += 1; // two fighters sent at one ship: one line, counted
    else words.push({ line, n: 1 });
  });
  return `${who}: ${words.map((w) => (w.n > 1 ? `${w.line} (×${w.n})` : w.line)).join("; ")}`;
}

/** An entry with what it did (hits, damage, sinkings, squadrons shot down) below it. */
function logItem(m, fresh, tag = "li") {
  const text = plainWords(logText(m)).text;
  const said = text.toLowerCase();
  const effects = (m.effects || []).map((line) => reportWords(line, meta))
    .filter((line) => !said.includes(plainWords(line).text.toLowerCase())) // a critical marker's line says it already
    .map((line) => plainEl(line, "li"));
  return el(tag, { class: `log-entry s${m.player ?? ""}${fresh ? " fresh" : ""}`, value: tag === "li" ? m.n : null },
    el("span", {}, text), effects.length ? el("ul", { class: "effects" }, ...effects) : null);
}

// --- panels ---------------------------------------------------------------------------------------------
function unitCards(ctx, p) {
  const msg = ctx.msg;
  const view = ctx.over && msg.final ? msg.final : msg.view;
  const fleet = view.fleets[p];
  const onBoard = new Map();
  view.board.forEach((cell, sq) => {
    for (const u of cell.units) if (u.owner === p) onBoard.set(u.name, { u, sq });
  });
  const active = new Set(view.features.filter((f) => f.owner === p).map((f) => `${f.unit}.${f.feature}`));
  const entries = [...onBoard.keys()].map((n) => [n, "board"]);
  for (const key of ["reserve", "to_place", "sunk"]) {
    for (const n of fleet[key] || []) entries.push([n, key]);
  }
  const head = el("h4", {}, el("span", { class: `dot s${p}` }), `${seatName(p)}${ctx.you(p)} — ${t(meta.factions[fleet.faction] || fleet.faction)}`);
  if (!entries.length) return [head, el("p", { class: "muted small" }, t("{n} units, deployed face down.", { n: fleet.units }))];
  return [head, ...entries.map(([name, where]) => {
    const c = meta.cards[name];
    const here = onBoard.get(name);
    const u = here ? here.u : null;
    const sub = u && u.submerged && c.submerged;
    const side = sub ? c.submerged : c;
    const structure = u ? u.structure : where === "sunk" ? 0 : c.structure;
    const bats = side.batteries.map((b) => `${t("{name} {coefficient}/r{range}", { name: t(b.name), coefficient: b.coefficient, range: b.range })}${b.slots === 2 ? "×2" : ""}`).join(", ");
    const stats = [
      t("armour {n}", { n: side.armour }), t("move {n}", { n: side.movement }), side.anti_aircraft ? t("anti-aircraft {n}", { n: side.anti_aircraft }) : null,
      c.torpedo_mounts ? t("torpedoes {n}/{max}", { n: u ? u.torpedoes : c.torpedo_mounts, max: c.torpedo_mounts }) : null,
      c.depth_charges ? t("depth charges {n}", { n: c.depth_charges }) : null, c.admiral ? t("★ admiral") : null,
    ].filter(Boolean).join(" · ");
    const air = u && u.squadrons ? Object.entries(u.squadrons).filter(([, n]) => n).map(([k, n]) => squadronWords(k, n)).join(", ") : "";
    const feats = [...c.green.map((k) => ["green", k]), ...c.red.map((k) => ["red", k])].map(([colour, k]) => el("span", {
      class: `feat ${colour}${active.has(`${name}.${k}`) ? " on" : ""}`,
      title: `${meta.rules[k]?.id || ""} ${meta.rules[k] ? t(meta.rules[k].summary) : ""}`,
    }, meta.rules[k] ? t(meta.rules[k].name) : k));
    const crits = u && u.criticals.length ? el("div", { class: "critical" }, t("Critical marker on: {list}", { list: u.criticals.map((x) => keyWords(x[0], meta)).join(", ") })) : null;
    const place = here ? (u.submerged ? t("{square} (submerged)", { square: squareName(here.sq) }) : squareName(here.sq)) : t(WHERE[where]);
    return el("div", {
      class: `ucard s${p}${where === "sunk" ? " sunk" : ""}${filter.unit === name ? " selected" : ""}`,
      "data-unit": name,
      onclick: () => {
        filter = filter.unit === name ? noFilter() : { unit: name, square: null, target: null };
        ctx.rerender();
        if (!$("decide").hidden) $("decide").scrollIntoView({ block: "nearest" });
      },
    },
    el("div", { class: "uhead" }, el("span", {}, `${name} · ${t(c.class_name)}`), el("span", { class: "muted" }, place)),
    el("div", {}, pips(structure, c.structure), " ", el("span", { class: "stats" }, stats)),
    bats ? el("div", { class: "stats" }, t("Guns (coefficient/range): {list}", { list: bats })) : null,
    air ? el("div", { class: "stats" }, t("Aboard: {list}", { list: air })) : null,
    crits,
    feats.length ? el("div", {}, ...feats) : null);
  })];
}

function renderPanels(ctx) {
  const msg = ctx.msg;
  const view = msg.view;
  for (const p of [0, 1]) {
    const fleet = view.fleets[p];
    const free = fleet.dice.filter((d) => !d.used).length;
    const parts = [t("{seat}: {n} dice, {free} unused", { seat: `${seatName(p)}${ctx.you(p)}`, n: fleet.dice.length, free })];
    if (fleet.forfeited) parts.push(t("passed: its Movement dice are given up"));
    if (fleet.committed) parts.push(t("orders committed"));
    $(`dice-label-${p}`).textContent = parts.join(", ");
    $(`dice-${p}`).replaceChildren(...diceChips(p, fleet.dice));
  }
  $("initiative").textContent = initiativeWords(view, seatName);
  const air = view.air.filter((s) => s.alive);
  $("air-card").hidden = !air.length && !view.strike;
  const lines = air.map((s) => el("li", {}, s.held ? t("{squadron} (held off)", { squadron: airLine(s) }) : airLine(s)));
  if (view.strike) {
    const p = { seat: seatName(view.strike.attacker), carrier: view.strike.carrier, target: view.strike.target };
    lines.unshift(el("li", {}, p.target ? t("{seat}'s air attack from {carrier} on {target}", p) : t("{seat}'s air attack from {carrier}", p)));
  }
  $("air").replaceChildren(...lines);
  const notes = msg.explanations || [];
  $("explain-card").hidden = !notes.length;
  const box = $("explain");
  box.replaceChildren(...notes.slice(-30).map((n) => {
    const { text, ids } = plainWords(n.text); // the rule ids on demand (a tooltip), the words in the line
    return el("li", { title: t("Rules: {ids}", { ids: [n.rule, ...ids].filter(Boolean).join(", ") }) }, n.turn ? `${t("Turn {n}", { n: n.turn })}: ` : "", text);
  }));
  box.scrollTop = box.scrollHeight;
  $("fleet-0").replaceChildren(...unitCards(ctx, msg.seat === 1 ? 1 : 0));
  $("fleet-1").replaceChildren(...unitCards(ctx, msg.seat === 1 ? 0 : 1));
  const entries = logEntries(msg.moves.slice(-150));
  const fresh = new Set(msg.seat === null || msg.seat === undefined ? [] : sinceMyLast(msg).map((m) => m.n));
  showMoves(entries.map((m) => logItem(m, fresh.has(m.n))));
}

// --- deployment -----------------------------------------------------------------------------------------
/** The squares of a deployment area in the order the solo mode fills them (SOLO-SET-1): from the seat's
 * right-hand corner along its back row, then the next row. */
function cornerOrder(area, seat) {
  const rank = (sq) => (seat === 0 ? Math.floor(sq / 8) * 8 + (7 - (sq % 8)) : (7 - Math.floor(sq / 8)) * 8 + (sq % 8));
  return [...area].sort((a, b) => rank(a) - rank(b));
}

function renderDeploy(ctx) {
  const msg = ctx.msg;
  const setup = msg.setup;
  $("setup").hidden = !ctx.setting;
  if (!ctx.setting) return false;
  const key = `${location.pathname}:${msg.seat}`;
  if (deployKey !== key) {
    deployKey = key;
    deployed = new Map();
    picked = null;
  }
  const squares = cornerOrder(setup.area, msg.seat).map(squareName);
  $("deploy-help").textContent = msg.view.solo
    ? t("Solo game: your fleet deploys from your right-hand corner along your back row, one unit on each lit square ({squares}). Pick a unit, then a lit square; click a placed unit to move it. Submarines are placed after the first initiative.", { squares: squares.join(", ") })
    : t("Pick a unit, then a lit square of your two home rows; click a placed unit to move it. Submarines are placed after the first initiative roll.");
  const placedNames = new Set(deployed.values());
  $("deploy-units").replaceChildren(...setup.units.map((name) => el("button", {
    class: `${placedNames.has(name) ? "placed" : ""}${picked && picked.name === name ? " picked" : ""}`.trim(),
    "data-unit": name,
    onclick: () => {
      picked = picked && picked.name === name ? null : { name };
      ctx.rerender();
    },
  }, `${meta.cards[name].class} ${name}`)));
  const need = setup.count;
  $button("deploy-confirm").disabled = deployed.size !== need || ctx.waiting;
  const said = [deployed.size === need ? t("Ready: confirm to deploy.") : t("{n} of {need} units placed.", { n: deployed.size, need })];
  if (setup.units.length > need) said.push(t("The other {n} wait in reserve.", { n: setup.units.length - need }));
  $("deploy-status").textContent = said.join(" ");
  $("deploy-status").className = `setup-status small${deployed.size === need ? " good" : ""}`;
  return true;
}

function deployClick(ctx, sq) {
  const area = new Set(ctx.msg.setup.area);
  if (!area.has(sq)) {
    picked = null;
    ctx.rerender();
    return;
  }
  if (picked && picked.name) {
    for (const [s, n] of deployed) if (n === picked.name) deployed.delete(s);
    deployed.set(sq, picked.name);
    picked = null;
  } else if (picked && picked.sq !== undefined) {
    const a = deployed.get(picked.sq);
    const b = deployed.get(sq);
    if (a !== undefined) {
      deployed.set(sq, a);
      if (b === undefined) deployed.delete(picked.sq);
      else deployed.set(picked.sq, b);
    }
    picked = null;
  } else if (deployed.has(sq)) {
    picked = { sq };
  }
  ctx.rerender();
}

$button("deploy-random").addEventListener("click", () => {
  const setup = lastCtx && lastCtx.msg.setup;
  if (!setup) return;
  // The units deployed by hand stay while some are left to place; the rest go to free squares at random.
  if (deployed.size >= setup.count) deployed = new Map();
  const placed = new Set(deployed.values());
  const squares = shuffle(setup.area.filter((sq) => !deployed.has(sq)));
  const units = shuffle(setup.units.filter((n) => !placed.has(n))).slice(0, setup.count - deployed.size);
  units.forEach((n, i) => deployed.set(squares[i], n));
  picked = null;
  live.render();
});
$button("deploy-clear").addEventListener("click", () => {
  deployed = new Map();
  picked = null;
  live.render();
});
$button("deploy-confirm").addEventListener("click", () => {
  if (!lastCtx) return;
  const placement = {};
  for (const [sq, name] of [...deployed].sort((a, b) => a[0] - b[0])) placement[squareName(sq)] = name;
  lastCtx.send({ type: "setup", setup: placement });
});

// --- the page -------------------------------------------------------------------------------------------
function lastSquares(msg) {
  for (let i = msg.moves.length - 1; i >= 0; i--) {
    const m = msg.moves[i];
    if (m.kind !== "action" || !m.texts) continue;
    const found = new Set();
    for (const sq of m.from || []) if (sq) found.add(parseSquare(sq));
    for (const t of m.texts) {
      for (const match of t.matchAll(/[>@]([A-H][1-8])/g)) found.add(parseSquare(match[1]));
    }
    if (found.size) return [...found];
    return [];
  }
  return [];
}

function render(ctx) {
  lastCtx = ctx;
  if (!meta) return;
  const msg = ctx.msg;
  const root = $("board");
  const perspective = msg.seat ?? 0;
  const empty = Array.from({ length: 64 }, () => ({ terrain: null, units: [], smoke: false }));
  const o = { perspective, board: empty, area: new Set(), last: [], air: [], picks: new Map(), focus: null, selected: null, clickable: false };
  if (ctx.curtainUp) {
    drawAdmiralBoard(root, o, meta);
    return;
  }
  const view = ctx.over && msg.final ? msg.final : msg.view;
  const setting = renderDeploy(ctx);
  if (!ctx.myTurn) filter = noFilter();
  renderPanels(ctx);
  const shown = renderDecide(ctx);
  o.board = view.board;
  o.air = view.air;
  if (setting) {
    o.board = view.board.map((cell) => ({ ...cell, units: [...cell.units] }));
    for (const [sq, name] of deployed) o.board[sq].units.push({ owner: msg.seat, name, structure: meta.cards[name].structure, submerged: false, criticals: [], moved: false, preview: true });
    o.area = new Set(msg.setup.area);
    if (picked && picked.sq !== undefined) o.focus = picked.sq;
    o.clickable = true;
  } else {
    o.last = lastSquares(msg);
    if (ctx.myTurn && !$("decide").hidden) {
      o.clickable = true;
      o.selected = filter.unit;
      if (filter.square) o.focus = parseSquare(filter.square);
      if (filter.unit) {
        for (const a of shown) {
          if (a.square) o.picks.set(parseSquare(a.square), "");
          if (a.target && a.target !== filter.unit) {
            const at = squareOfUnit(msg, a.target);
            if (at !== null) o.picks.set(at, ownerOf(msg, a.target) === msg.seat ? "" : "enemy");
          }
        }
      } else {
        for (const a of annotate(msg)) { // the units that have a decision
          const at = a.key ? squareOfUnit(msg, a.key) : null;
          if (at !== null) o.picks.set(at, "actor");
        }
      }
    }
  }
  drawAdmiralBoard(root, o, meta);
  root.onclick = (event) => {
    const sq = squareOf(event);
    if (sq === null || !lastCtx) return;
    if (setting) deployClick(lastCtx, sq);
    else if (lastCtx.myTurn) clickSquare(lastCtx, sq);
  };
}

/** What the computer is doing while it is not the player's turn (the solo mode moves its units one at a time). */
function statusDetail(msg) {
  const v = msg.view;
  const solo = v.solo;
  if (!solo || msg.game.status !== "play" || msg.game.to_move === msg.seat || !["movement", "solo_roll"].includes(v.phase)) return "";
  const left = solo.to_act.length;
  const p = { seat: seatName(solo.seat), unit: solo.acting, n: left - 1 };
  if (solo.acting) {
    if (left > 2) return ` ${t("{seat} moves {unit} now, then {n} more units, slowest first.", p)}`;
    return ` ${left === 2 ? t("{seat} moves {unit} now, then 1 more unit, slowest first.", p) : t("{seat} moves {unit} now.", p)}`;
  }
  if (!left) return "";
  return ` ${left > 1 ? t("{seat} has {n} units still to move, slowest first.", { ...p, n: left }) : t("{seat} has 1 unit still to move, slowest first.", p)}`;
}

async function main() {
  $("board").setAttribute("viewBox", "0 0 840 840"); // 8 squares and the margin (page.html sizes it for 10)
  $("moves-title").textContent = t("What happened");
  $("decide").after($("moves")); // the log where the player looks: under the decision
  const all = await api("/api/meta");
  meta = all.games.find((g) => g.name === "admiral");
  live = startLive({
    seatNames: SEATS,
    title: (g) => admiralTitle(meta, g),
    setupVerb: N_("deploy"),
    progress: (msg) => {
      const g = msg.game;
      const phase = g.status === "over" ? t("game over") : phaseWords(msg.view.phase);
      const p = { turn: msg.view.turn, cap: g.options.max_turns, phase };
      return g.options.max_turns ? t("Turn {turn} of at most {cap} · {phase}", p) : t("Turn {turn} · {phase}", p);
    },
    statusDetail,
    onError: () => {
      sentFrom = null; // refused: the decision is the player's again
    },
    resultNote: (msg) => t("{n} turns. Both fleets are shown as their admirals saw them.", { n: msg.view.turn }),
    replay: true,
    // Hot-seat: pass the device only when the two screens differ (a deployment, secret orders).
    sameScreen: (a, b) => !a.draft && !b.draft && !a.setup && !b.setup
      && JSON.stringify({ ...a.view, player: null }) === JSON.stringify({ ...b.view, player: null }),
    render,
  });
}

main().catch((err) => {
  $("turn-text").textContent = t("Cannot load the game: {error}", { error: err.message });
});
