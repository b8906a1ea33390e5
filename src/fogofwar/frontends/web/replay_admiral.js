// @ts-check
// The replay viewer's Admiral: the battlefield with its terrain, both fleets (as their admirals saw them
// in a finished game), submarines and squadrons in the air, and for each step the dice rolled, the
// decision made (a move's arrow, an attack's line from the firing unit to its target), and what came of
// it: the resolution report, the units hit (a burst) and sunk (a cross where they were). Beside: each
// fleet's dice, units, structure and critical markers. `admiralReplay(meta)` takes the lobby's
// description of Admiral (cards, terrain, factions, rules) and returns the renderer replay.js calls.
import { describeOutcome, el, plainEl, plainWords } from "./common.js";
import {
  actionLine, admiralTitle, airLine, centre, diceChips, drawAdmiralBoard, faceText, faceWords, initiativeWords, keyWords,
  orderWords, parseSquare, phaseWords, pips, reportWords, rollWords, SEATS, seatWords, squareName,
} from "./admiral_board.js";
import { N_, t } from "./i18n.js";
import { arrow, svg } from "./svg.js";

const ATTACKS = new Set(["fire", "torpedo", "squadron"]);
/** What the server says of another seat's secret orders in a replay of a game still on (AdmiralAdapter.replay_step). */
const SECRET = N_("orders committed (secret)");
/** Where a unit of a fleet is, when not on the board. */
const WHERE = { reserve: N_("reserve"), to_place: N_("to place"), sunk: N_("sunk") };

export function admiralReplay(meta) {
  const who = seatWords;
  const phaseName = phaseWords;

  /** Where each unit is: "owner:name" -> square. */
  function where(v) {
    const at = new Map();
    v.board.forEach((cell, sq) => {
      for (const u of cell.units) at.set(`${u.owner}:${u.name}`, sq);
    });
    return at;
  }

  function units(v) {
    const all = new Map();
    v.board.forEach((cell) => {
      for (const u of cell.units) all.set(`${u.owner}:${u.name}`, u);
    });
    return all;
  }

  /** A decision's parts: kind, acting unit, target unit, target square ('fire:Washington.main>Yamato/artillery'). */
  function parse(text) {
    const placed = /^([^:@>]+)@([A-H][1-8])$/.exec(text); // a submarine placed: 'Wahoo@C3'
    if (placed) return { kind: "place", actor: placed[1], target: null, square: placed[2] };
    const m = /^(\w+):([^>/.:@,]+)(?:[.:][^>/@]*)?(?:>([^/@:]+))?(?:@([A-H][1-8]))?/.exec(text);
    if (!m) return { kind: text.split(":")[0] };
    const target = m[3] ? m[3].trim() : null;
    const square = target && /^[A-H][1-8]$/.test(target) ? target : m[4] || null;
    return { kind: m[1], actor: m[2].trim(), target: square === target ? null : target, square };
  }

  /** An order of an attack assignment: 'Chokai.main > Wahoo (artillery)' -> [Chokai, Wahoo]; null for a feature. */
  function orderUnits(order) {
    const m = /^(.+?)(?:\.[^>]+| torpedo| depth charges)\s*>\s*(.+?)\s*\(/.exec(order);
    return m ? [m[1], m[2]] : null;
  }

  /** A decision in words (admiral_board.js's), `prev` the view before it: where the acting unit was, which
   * unit a critical marker goes on. */
  function words(text, s, prev) {
    const d = parse(text);
    const at = prev && d.actor ? where(prev).get(`${s.player}:${d.actor}`) : undefined;
    const from = at !== undefined && at !== null ? squareName(at) : null;
    const unit = prev && prev.pending_critical ? prev.pending_critical.unit : null;
    return actionLine(text, meta, { from, unit, phase: s.phase });
  }

  function texts(s) {
    return s.texts || [s.notation];
  }

  function newReport(v, prev) {
    const now = v.report || [];
    const before = (prev && prev.report) || [];
    const same = before.length <= now.length && before.every((line, i) => now[i] === line);
    return same ? now.slice(before.length) : now;
  }

  function newlySunk(v, prev) {
    const out = [];
    for (const p of [0, 1]) {
      const before = new Set((prev && prev.fleets[p].sunk) || []);
      for (const name of v.fleets[p].sunk || []) if (!before.has(name)) out.push([p, name]);
    }
    return out;
  }

  function draw(root, c) {
    const v = c.view;
    const prev = c.prev;
    const s = c.s;
    const last = new Set();
    const arrows = [];
    const before = prev ? where(prev) : null; // where each unit was before the step
    if (s && prev && s.player >= 0 && !s.hidden) {
      const after = where(v);
      for (const text of texts(s)) {
        const d = parse(text);
        const mine = `${s.player}:${d.actor}`;
        const theirs = `${1 - s.player}:${d.actor}`; // a feature activated on an enemy unit
        const from = before.get(mine) ?? after.get(mine) ?? before.get(theirs);
        if (from !== undefined) last.add(from);
        if (d.kind === "move" && d.square && from !== undefined) {
          const to = parseSquare(d.square);
          last.add(to);
          if (to !== from) arrows.push([from, to, ""]);
        } else if (ATTACKS.has(d.kind) && d.target) {
          const key = `${1 - s.player}:${d.target}`;
          const to = after.get(key) ?? before.get(key);
          const shooter = d.kind === "squadron" && v.strike ? before.get(`${s.player}:${v.strike.carrier}`) ?? from : from;
          if (to !== undefined && shooter !== undefined) arrows.push([shooter, to, "fire"]);
          if (to !== undefined) last.add(to);
        } else if (d.square) {
          last.add(parseSquare(d.square));
        }
      }
    }
    if (s && prev && s.phase === "attack" && texts(s).includes("commit") && newReport(v, prev).length) {
      // The resolution: every order of both assignments, from the firing unit to its target.
      for (const p of [0, 1]) {
        for (const order of v.fleets[p].orders || prev.fleets[p].orders || []) {
          const pair = orderUnits(order);
          const a = pair && before.get(`${p}:${pair[0]}`);
          const b = pair && before.get(`${1 - p}:${pair[1]}`);
          if (a === undefined || b === undefined || a === null || b === null) continue;
          arrows.push([a, b, "fire"]);
          last.add(a);
          last.add(b);
        }
      }
    }
    const { overlay } = drawAdmiralBoard(root, { board: v.board, perspective: c.perspective, air: v.air || [], last: [...last] }, meta);
    for (const [a, b, cls] of arrows) overlay.append(arrow(centre(a, c.perspective), centre(b, c.perspective), cls, 40, cls ? 30 : 0));
    if (!s || !prev) return;
    // What the step did to the fleets: a burst on each unit that lost structure, a cross where one sank.
    const hulls = units(prev);
    const at = where(v);
    for (const [key, u] of units(v)) {
      const old = hulls.get(key);
      if (old && u.structure < old.structure) {
        const { x, y } = centre(at.get(key), c.perspective);
        overlay.append(svg("circle", { class: "burst hit", cx: x, cy: y, r: 46 }));
      }
    }
    for (const [p, name] of newlySunk(v, prev)) {
      const sq = before.get(`${p}:${name}`);
      if (sq === undefined) continue;
      const { x, y } = centre(sq, c.perspective);
      overlay.append(svg("path", { class: "sunk-mark", d: `M${x - 30} ${y - 30} L${x + 30} ${y + 30} M${x + 30} ${y - 30} L${x - 30} ${y + 30}` }));
    }
  }

  function faceChips(p, faces) {
    return faces.map((f) => el("span", { class: `die s${p}`, title: faceWords(f) }, faceText(f)));
  }

  function rolls(s, v) {
    const out = [];
    if (s.phase === "initiative") {
      const init = v.initiative;
      for (const p of [0, 1]) {
        out.push(el("div", { class: "small" }, `${who(p)}: ${init.admirals[p]} ★`), el("div", { class: "dice" }, ...faceChips(p, init.rolls[p])));
      }
      if (init.winner !== null && init.winner !== undefined) out.push(el("div", {}, t("{seat} wins the initiative.", { seat: who(init.winner) })));
      return out;
    }
    if (s.phase === "action_dice") {
      for (const p of [0, 1]) {
        out.push(el("div", { class: "small" }, t("{seat}: {n} dice", { seat: who(p), n: v.fleets[p].dice.length })), el("div", { class: "dice" }, ...faceChips(p, v.fleets[p].dice.map((d) => d.face))));
      }
      return out;
    }
    const faces = texts(s).map((n) => n.replace(/^roll:/, ""));
    out.push(el("div", { class: "dice" }, ...faces.map((f) => el("span", { class: "die", title: faceWords(f) }, faceText(f)))));
    return out;
  }

  function describe(s, v, prev) {
    const out = [];
    const turn = s.turn ? t(" · turn {n}", { n: s.turn }) : "";
    if (s.player < 0) {
      out.push(el("div", {}, t("Dice rolled — {phase}{turn}:", { phase: phaseName(s.phase), turn })), ...rolls(s, v));
    } else if (s.hidden) {
      out.push(el("div", {}, t("{seat} committed its attack orders{turn}: secret from you until both had committed.", { seat: who(s.player), turn })));
    } else {
      out.push(el("div", {}, `${who(s.player)} — ${phaseName(s.phase)}${turn}:`));
      for (const text of texts(s)) out.push(el("div", { class: "big-line" }, words(text, s, prev)));
    }
    const report = newReport(v, prev);
    if (report.length) out.push(el("ul", { class: "report" }, ...report.map((line) => plainEl(reportWords(line, meta), "li"))));
    for (const [p, name] of newlySunk(v, prev)) {
      if (!report.some((line) => line.includes(name))) out.push(el("div", { class: "ring-news" }, t("{seat}'s {unit} sinks.", { seat: who(p), unit: name })));
    }
    if (s.player >= 0 && s.phase === "attack" && texts(s).includes("commit") && prev) {
      const orders = v.fleets[s.player].orders || prev.fleets[s.player].orders || [];
      if (orders.length) out.push(el("div", { class: "small muted" }, t("Orders: {list}", { list: orders.map((o) => orderWords(o, meta)).join("; ") })));
    }
    if (v.outcome && !(prev && prev.outcome)) out.push(el("div", { class: "ring-news" }, describeOutcome(v.outcome, null, who)));
    return out;
  }

  function moveLine(s, v, prev) {
    let text;
    if (s.player < 0) {
      const faces = texts(s).map((n) => faceText(n.replace(/^roll:/, "")));
      const shown = faces.length > 8 ? t("{dice} … ({n} dice)", { dice: faces.slice(0, 8).join(" "), n: faces.length }) : faces.join(" ");
      text = t("dice ({phase}): {dice}", { phase: phaseName(s.phase).toLowerCase(), dice: shown });
    }
    else if (s.hidden) text = `${who(s.player)}: ${s.notation === SECRET ? t(SECRET) : s.notation}`;
    else text = `${who(s.player)}: ${texts(s).map((t) => words(t, s, prev)).join("; ")}`;
    const parts = [el("b", {}, text)];
    const report = v ? newReport(v, prev) : [];
    if (report.length) parts.push(" ", el("span", { class: "battle" }, report.length === 1 ? plainWords(reportWords(report[0], meta)).text : t("{n} results", { n: report.length })));
    return parts;
  }

  function side(v) {
    const nodes = [];
    nodes.push(el("div", { class: "small muted" }, t("Turn {turn} · {phase}", { turn: v.turn, phase: phaseName(v.phase) })));
    const init = initiativeWords(v, who);
    if (init) nodes.push(el("div", { class: "small muted" }, init));
    const on = units(v);
    const at = where(v);
    for (const p of [0, 1]) {
      const fleet = v.fleets[p];
      nodes.push(el("h4", {}, el("span", { class: `dot s${p}` }), `${who(p)} — ${t(meta.factions[fleet.faction] || fleet.faction)}`));
      if (fleet.dice.length) nodes.push(el("div", { class: "dice" }, ...diceChips(p, fleet.dice)));
      const rows = [];
      for (const [key, u] of on) {
        if (u.owner === p) rows.push(unitRow(u.name, u, u.submerged ? t("{square} (submerged)", { square: squareName(at.get(key)) }) : squareName(at.get(key)), p));
      }
      for (const where of ["reserve", "to_place", "sunk"]) {
        for (const name of fleet[where] || []) rows.push(unitRow(name, null, where, p));
      }
      nodes.push(...rows);
      if (fleet.orders && fleet.orders.length) nodes.push(el("div", { class: "small muted" }, t("Orders: {list}", { list: fleet.orders.map((o) => orderWords(o, meta)).join("; ") })));
    }
    const air = (v.air || []).filter((s) => s.alive);
    if (air.length) {
      nodes.push(el("h4", {}, t("In the air")), el("ul", { class: "report" }, ...air.map((s) => el("li", {}, airLine(s)))));
    }
    return { title: t("Fleets"), nodes };
  }

  /** A unit's line: `place` its square, or where it is off the board (a key of WHERE). */
  function unitRow(name, u, place, p) {
    const c = meta.cards[name];
    const max = c ? c.structure : 0;
    const structure = u ? u.structure : place === "sunk" ? 0 : max;
    const list = u && u.criticals ? u.criticals.map((x) => keyWords(x[0], meta)).join(", ") : "";
    const crits = list ? el("span", { class: "critical" }, ` ${t("Critical marker on: {list}", { list })}`) : null;
    return el("div", { class: `ucard s${p}${place === "sunk" ? " sunk" : ""}`, "data-unit": name },
      el("div", { class: "uhead" }, el("span", {}, `${name} · ${c ? c.class : "?"}`), el("span", { class: "muted" }, place in WHERE ? t(WHERE[place]) : place)),
      el("div", {}, pips(structure, max), crits));
  }

  return {
    seats: SEATS,
    seatClass: (seat) => `s${seat}`,
    bodyClass: "admiral",
    viewBox: "0 0 840 840",
    stepWord: "Step",
    title: (g) => admiralTitle(meta, g),
    fullNote: t("Both fleets are shown as their admirals saw them; a step is one decision or one roll of the dice."),
    draw,
    describe,
    moveLine,
    side,
  };
}
