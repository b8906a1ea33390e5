// @ts-check
// The game page of Admiral: the 8x8 battlefield with its terrain, both fleets' unit cards, the dice
// pools, the phase and whose decision it is, the air war, the resolution report, the computer's
// reasoning, and the legal decisions listed with the engine's words. A click on a unit or a square
// (on the board or on a card) keeps only the decisions that involve it. The server rolls every die.
// The board is drawn by admiral_board.js, as in the replay viewer.
import { $, api, $button, capitalize, el, plainEl, plainWords, squareOf } from "./common.js";
import {
  admiralTitle, airLine, diceChips, drawAdmiralBoard, faceText, parseSquare, PHASES, pips, pretty, SEATS, squareName,
} from "./admiral_board.js";
import { showMoves, startLive, shuffle } from "./live.js";

// What a phase asks of the seat to decide (its title is PHASES's).
const PHASE_HELP = {
  deploy: "Place your surface units face down on your two home rows.",
  initiative: "The server rolls the initiative dice.",
  choose_first: "Choose who acts first this turn.",
  submarines: "Place a submarine, submerged, anywhere in your half of the board.",
  reserve: "Bring reserve units onto free squares of your last row, or be done.",
  action_dice: "The server rolls both pools.",
  movement: "One go each in turn: move a unit (one Movement die per unit), repair, launch aircraft, or pass. Passing gives up your remaining Movement dice.",
  reaction: "Answer the repair: Poor Damage Control, or decline.",
  launch: "Pick the squadrons of the launch: a fighter to protect a ship, a squadron kept in the air, or done.",
  air: "Attack with a carrier's squadrons, or pass.",
  strike: "Send each squadron against a target, then done.",
  air_react: "Spend Admiral dice on air features, or done.",
  air_roll: "The server rolls the duels and the anti-aircraft fire.",
  aa_pick: "Choose the attacking squadron a hit shoots down.",
  escort_pick: "Choose the attack squadron your next protecting fighter takes on.",
  attack: "Assign Artillery, Torpedo and Depth-charge dice in secret, then commit. The other side sees your orders only once both have committed.",
  criticals: "Choose the characteristic the critical marker goes on.",
  solo_roll: "The server rolls for the automatic admiral.",
};
const KIND_LABELS = {
  commit: "Commit your orders", pass: "Pass", decline: "Decline", reserve_done: "Done entering", air_done: "Done",
  air_pass: "No air attack", choose_first: "Who acts first", submarine: "Place a submarine", reserve: "Enter from reserve",
  move: "Move", repair: "Repair", launch: "Launch aircraft", fire: "Artillery", torpedo: "Torpedoes",
  depth_charge: "Depth charges", activate: "Special features", critical: "Critical marker", strike: "Air attack",
  protect: "Fighter protects a ship", airborne: "Squadron kept in the air", squadron: "Send a squadron",
  aa_pick: "Shoot down", escort_pick: "Intercept", hold: "Hold", deploy: "Deploy",
};
const KIND_ORDER = ["commit", "pass", "decline", "reserve_done", "air_done", "air_pass", "choose_first", "critical", "aa_pick",
  "escort_pick", "move", "repair", "launch", "strike", "squadron", "protect", "airborne", "fire", "torpedo", "depth_charge",
  "activate", "submarine", "reserve", "hold", "deploy"];
const BIG_GROUP = 10;
const SIMPLE = ["commit", "pass", "decline", "reserve_done", "air_done", "air_pass"];

let meta = null;
let live = null;
let lastCtx = null;
let filter = { unit: null, square: null };
// The deployment being arranged: square -> unit name.
let deployKey = null;
let deployed = new Map();
let picked = null; // {name} from the list or {sq} on the board

// --- decisions ------------------------------------------------------------------------------------------
function matches(a) {
  if (filter.unit && !a.units.includes(filter.unit)) return false;
  if (filter.square && a.square !== filter.square && !a.squares.includes(filter.square)) return false;
  return true;
}

function renderDecide(ctx) {
  const msg = ctx.msg;
  const card = $("decide");
  card.hidden = !ctx.myTurn || ctx.over;
  if (card.hidden) return [];
  const phase = msg.view.phase;
  const title = PHASES[phase] || phase;
  const help = PHASE_HELP[phase] || "";
  $("decide-title").textContent = ctx.hotseat ? `${capitalize(SEATS[msg.seat])}: ${title}` : `Your decision: ${title}`;
  const extra = msg.view.pending_critical ? ` The marker goes on ${msg.view.pending_critical.unit}.` : "";
  $("decide-help").textContent = help + extra;
  const orders = msg.view.fleets[msg.seat].orders || [];
  $("draft").hidden = phase !== "attack";
  $("draft-orders").replaceChildren(...(orders.length ? orders.map((t) => el("li", {}, t)) : [el("li", { class: "muted" }, "none yet")]));
  $button("undo-button").disabled = !(msg.draft && msg.draft.length);
  const active = filter.unit || filter.square;
  $("filter-line").hidden = !active;
  $("filter-text").textContent = active ? `Only decisions for ${[filter.unit, filter.square].filter(Boolean).join(" on ")}` : "";
  const shown = msg.actions.filter(matches);
  const groups = new Map();
  for (const a of shown) {
    if (!groups.has(a.kind)) groups.set(a.kind, []);
    groups.get(a.kind).push(a);
  }
  const kinds = [...groups.keys()].sort((x, y) => KIND_ORDER.indexOf(x) - KIND_ORDER.indexOf(y));
  const nodes = [];
  const simple = [];
  for (const kind of kinds) {
    const list = groups.get(kind);
    if (list.length === 1 && SIMPLE.includes(kind)) {
      const a = list[0];
      simple.push(el("button", {
        class: ["commit", "pass"].includes(kind) ? "act-button primary" : "act-button",
        "data-action": a.id, "data-kind": kind, title: a.text, onclick: () => decide(ctx, a),
      }, KIND_LABELS[kind]));
      continue;
    }
    const buttons = list.map((a) => el("button", {
      class: ["commit", "pass"].includes(kind) ? "act-button primary" : "act-button",
      "data-action": a.id,
      "data-kind": kind,
      title: a.text,
      onclick: () => decide(ctx, a),
    }, pretty(a.text)));
    const head = `${KIND_LABELS[kind] || kind} (${list.length})`;
    if (list.length > BIG_GROUP && !active) {
      nodes.push(el("details", { class: "action-group" }, el("summary", {}, head), el("div", { class: "action-list" }, ...buttons)));
    } else {
      nodes.push(el("div", { class: "action-group" }, el("h4", {}, head), el("div", { class: "action-list" }, ...buttons)));
    }
  }
  if (simple.length) nodes.unshift(el("div", { class: "row simple-actions" }, ...simple));
  if (!nodes.length) nodes.push(el("p", { class: "muted small" }, "No decision involves this: show all."));
  if (!active && msg.actions.length > BIG_GROUP) {
    nodes.unshift(el("p", { class: "muted small" }, "Click a unit (on the board or its card) or a square to see only its decisions."));
  }
  $("action-groups").replaceChildren(...nodes);
  return shown;
}

function decide(ctx, a) {
  filter = { unit: null, square: null };
  ctx.send({ type: "action", action: a.id });
}

$button("filter-clear").addEventListener("click", () => {
  filter = { unit: null, square: null };
  if (live) live.render();
});
$button("undo-button").addEventListener("click", () => lastCtx && lastCtx.send({ type: "undo" }));

function clickSquare(ctx, sq) {
  const name = squareName(sq);
  const msg = ctx.msg;
  if (filter.unit && msg.actions.some((a) => a.units.includes(filter.unit) && a.square === name)) {
    filter = { unit: filter.unit, square: name };
  } else {
    const here = msg.view.board[sq].units;
    const mine = here.filter((u) => u.owner === msg.seat);
    const ordered = [...mine, ...here.filter((u) => u.owner !== msg.seat)];
    if (ordered.length) {
      const at = ordered.findIndex((u) => u.name === filter.unit);
      const next = ordered[(at + 1) % ordered.length];
      filter = { unit: next.name, square: null };
    } else {
      filter = filter.square === name ? { unit: null, square: null } : { unit: null, square: name };
    }
  }
  ctx.rerender();
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
  for (const [key, label] of [["reserve", "reserve"], ["to_place", "to deploy"], ["sunk", "sunk"]]) {
    for (const n of fleet[key] || []) entries.push([n, label]);
  }
  const head = el("h4", {}, el("span", { class: `dot s${p}` }), `${capitalize(SEATS[p])}${ctx.you(p)} — ${meta.factions[fleet.faction] || fleet.faction}`);
  if (!entries.length) return [head, el("p", { class: "muted small" }, `${fleet.units} units, deployed face down.`)];
  return [head, ...entries.map(([name, where]) => {
    const c = meta.cards[name];
    const here = onBoard.get(name);
    const u = here ? here.u : null;
    const sub = u && u.submerged && c.submerged;
    const side = sub ? c.submerged : c;
    const structure = u ? u.structure : where === "sunk" ? 0 : c.structure;
    const bats = side.batteries.map((b) => `${b.name} ${b.coefficient}/r${b.range}${b.slots === 2 ? "×2" : ""}`).join(", ");
    const stats = [
      `armour ${side.armour}`, `move ${side.movement}`, side.anti_aircraft ? `AA ${side.anti_aircraft}` : null,
      c.torpedo_mounts ? `torpedoes ${u ? u.torpedoes : c.torpedo_mounts}/${c.torpedo_mounts}` : null,
      c.depth_charges ? `depth charges ${c.depth_charges}` : null, c.admiral ? "★ admiral" : null,
    ].filter(Boolean).join(" · ");
    const air = u && u.squadrons ? Object.entries(u.squadrons).filter(([, n]) => n).map(([k, n]) => `${n} ${k.replace("_", " ")}`).join(", ") : "";
    const feats = [...c.green.map((k) => ["green", k]), ...c.red.map((k) => ["red", k])].map(([colour, k]) => el("span", {
      class: `feat ${colour}${active.has(`${name}.${k}`) ? " on" : ""}`,
      title: `${meta.rules[k]?.id || ""} ${meta.rules[k]?.summary || ""}`,
    }, meta.rules[k]?.name || k));
    const crits = u && u.criticals.length ? el("div", { class: "critical" }, `Critical: ${u.criticals.map((x) => x[0].replace("battery:", "")).join(", ")}`) : null;
    const place = here ? `${squareName(here.sq)}${u.submerged ? " (submerged)" : ""}` : where;
    return el("div", {
      class: `ucard s${p}${where === "sunk" ? " sunk" : ""}${filter.unit === name ? " selected" : ""}`,
      "data-unit": name,
      onclick: () => {
        filter = filter.unit === name ? { unit: null, square: null } : { unit: name, square: null };
        ctx.rerender();
        if (!$("decide").hidden) $("decide").scrollIntoView({ block: "nearest" });
      },
    },
    el("div", { class: "uhead" }, el("span", {}, `${name} · ${c.class}`), el("span", { class: "muted" }, place)),
    el("div", {}, pips(structure, c.structure), " ", el("span", { class: "stats" }, stats)),
    bats ? el("div", { class: "stats" }, `Guns: ${bats}`) : null,
    air ? el("div", { class: "stats" }, `Aboard: ${air}`) : null,
    crits,
    feats.length ? el("div", {}, ...feats) : null);
  })];
}

function logLine(m) {
  const who = m.player === null || m.player === undefined ? "" : capitalize(SEATS[m.player]);
  const phase = PHASES[m.phase] || m.phase;
  if (m.kind === "roll") return `${who} rolls (${phase.toLowerCase()}): ${m.faces.map(faceText).join(" ")}`;
  if (m.kind === "deploy") return `${who} deploys its fleet face down`;
  if (m.kind === "resign") return `${who} resigns`;
  if (m.kind === "forfeit") return `${who} forfeits${m.reason ? `: ${m.reason}` : ""}`;
  if (m.hidden) return `${who} commits its attack orders (secret until both have committed)`;
  return `${who}: ${(m.texts || []).map((t) => pretty(t)).join("; ")}`;
}

function renderPanels(ctx) {
  const msg = ctx.msg;
  const view = msg.view;
  for (const p of [0, 1]) {
    const fleet = view.fleets[p];
    const free = fleet.dice.filter((d) => !d.used).length;
    $(`dice-label-${p}`).textContent = `${capitalize(SEATS[p])}${ctx.you(p)}: ${fleet.dice.length} dice, ${free} unused${fleet.forfeited ? ", movement given up" : ""}${fleet.committed ? ", orders committed" : ""}`;
    $(`dice-${p}`).replaceChildren(...diceChips(p, fleet.dice));
  }
  const init = view.initiative;
  const first = view.first_player !== null && view.first_player !== undefined ? ` · ${capitalize(SEATS[view.first_player])} acts first` : "";
  $("initiative").textContent = init.winner !== null && init.winner !== undefined
    ? `Initiative: ${capitalize(SEATS[init.winner])} won (${init.admirals[0]} vs ${init.admirals[1]} ★)${first}`
    : "";
  $("report-card").hidden = !view.report.length;
  $("report").replaceChildren(...view.report.map((line) => plainEl(line, "li")));
  const air = view.air.filter((s) => s.alive);
  $("air-card").hidden = !air.length && !view.strike;
  const lines = air.map((s) => el("li", {}, `${airLine(s)}${s.held ? " (held)" : ""}`));
  if (view.strike) lines.unshift(el("li", {}, `${capitalize(SEATS[view.strike.attacker])}'s air attack from ${view.strike.carrier}${view.strike.target ? ` on ${view.strike.target}` : ""}`));
  $("air").replaceChildren(...lines);
  const notes = msg.explanations || [];
  $("explain-card").hidden = !notes.length;
  const box = $("explain");
  box.replaceChildren(...notes.slice(-30).map((n) => {
    const { text, ids } = plainWords(n.text); // the rule ids on demand (a tooltip), the words in the line
    return el("li", { title: `Rules: ${[n.rule, ...ids].filter(Boolean).join(", ")}` }, n.turn ? `Turn ${n.turn}: ` : "", text);
  }));
  box.scrollTop = box.scrollHeight;
  $("fleet-0").replaceChildren(...unitCards(ctx, msg.seat === 1 ? 1 : 0));
  $("fleet-1").replaceChildren(...unitCards(ctx, msg.seat === 1 ? 0 : 1));
  showMoves(msg.moves.slice(-150).map((m) => el("li", { class: `s${m.player ?? ""}`, value: m.n }, logLine(m))));
}

// --- deployment -----------------------------------------------------------------------------------------
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
  const reserve = setup.units.length > need ? ` The other ${setup.units.length - need} wait in reserve.` : "";
  $("deploy-status").textContent = deployed.size === need ? `Ready: confirm to deploy.${reserve}` : `${deployed.size} of ${need} units placed.${reserve}`;
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
  renderPanels(ctx);
  if (!ctx.myTurn) filter = { unit: null, square: null };
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
    if (ctx.myTurn) {
      o.clickable = true;
      o.selected = filter.unit;
      if (filter.square) o.focus = parseSquare(filter.square);
      if (filter.unit || filter.square) {
        for (const a of shown) {
          if (a.square) o.picks.set(parseSquare(a.square), "");
          if (a.target) {
            const at = view.board.findIndex((c) => c.units.some((u) => u.name === a.target && u.owner !== msg.seat));
            if (at >= 0) o.picks.set(at, "enemy");
          }
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

async function main() {
  $("board").setAttribute("viewBox", "0 0 840 840"); // 8 squares and the margin (page.html sizes it for 10)
  $("moves-title").textContent = "Log";
  const all = await api("/api/meta");
  meta = all.games.find((g) => g.name === "admiral");
  live = startLive({
    seatNames: SEATS,
    title: (g) => admiralTitle(meta, g),
    setupVerb: "deploy",
    progress: (msg) => {
      const g = msg.game;
      const phase = g.status === "over" ? "game over" : PHASES[msg.view.phase] || msg.view.phase;
      const cap = g.options.max_turns ? ` of at most ${g.options.max_turns}` : "";
      return `Turn ${msg.view.turn}${cap} · ${phase}`;
    },
    resultNote: (msg) => `${msg.view.turn} turns. Both fleets are shown as their admirals saw them.`,
    replay: true,
    // Hot-seat: pass the device only when the two screens differ (a deployment, secret orders).
    sameScreen: (a, b) => !a.draft && !b.draft && !a.setup && !b.setup
      && JSON.stringify({ ...a.view, player: null }) === JSON.stringify({ ...b.view, player: null }),
    render,
  });
}

main().catch((err) => {
  $("turn-text").textContent = `Cannot load the game: ${err.message}`;
});
