// @ts-check
// The replay viewer's Stratego LOTR: the board with its zones (and Mount Doom), every character of a
// finished game, the last move's squares, arrow and struck pieces, and in words the battle, the power
// used and what it struck, the Ring's fate; the captured pieces beside. `lotrReplay(meta)` takes the
// lobby's description of LOTR (armies, powers, zones) and returns the renderer replay.js calls.
import { capitalize, describeOutcome, el, parseSquare } from "./common.js";
import {
  battleLines, battleTag, centre, drawLotrBoard, GAME_TITLES, RESULT_WORDS, RING_STATUS, ringNews, SEATS, strikeLines, symbolOf,
} from "./lotr_board.js";
import { arrow, svg } from "./svg.js";

export function lotrReplay(meta) {
  const info = [new Map(), new Map()]; // per seat: character key -> {name, rank, symbol, powers}
  meta.armies.forEach((army, seat) => {
    for (const k of army.kinds) info[seat].set(k.key, k);
  });
  const zones = new Set(meta.zones.map(parseSquare));
  const charName = (owner, key) => info[owner]?.get(key)?.name ?? key;
  const who = (seat) => capitalize(SEATS[seat] ?? "");

  function draw(root, c) {
    const v = c.view;
    const m = c.s ? v.last_move : null;
    const wasHidden = new Set();
    if (c.full) {
      v.board.forEach((cell, sq) => {
        if (cell && typeof cell === "object" && !cell.revealed) wasHidden.add(sq);
      });
    }
    const { overlay } = drawLotrBoard(root, {
      board: v.board,
      zones,
      doom: v.ring ? parseSquare(v.ring.mount_doom) : null,
      perspective: c.perspective,
      me: c.me,
      final: c.full,
      wasHidden,
      lastSquares: m ? [m.from, m.to].filter(Boolean).map(parseSquare) : [],
      struck: m ? (m.targets || []).map((t) => parseSquare(t.square)) : [],
    });
    if (!m || !m.from) return;
    const from = parseSquare(m.from);
    if (m.to) overlay.append(arrow(centre(from, c.perspective), centre(parseSquare(m.to), c.perspective)));
    const shooter = parseSquare(m.to || m.from);
    for (const t of m.targets || []) {
      overlay.append(arrow(centre(shooter, c.perspective), centre(parseSquare(t.square), c.perspective), "shot", 36, 34));
    }
    if (m.defender && m.to) {
      const { x, y } = centre(parseSquare(m.to), c.perspective);
      overlay.append(svg("circle", { class: "burst", cx: x, cy: y, r: 47 }));
    }
  }

  function describe(s, v, prev) {
    const out = [...say(s, v)];
    const o = v.outcome;
    if (o && !(prev && prev.outcome)) out.push(el("div", { class: "ring-news" }, `${describeOutcome(o, null, who)}.`));
    return out;
  }

  function say(s, v) {
    const m = v.last_move;
    if (!m) return [el("div", {}, `${who(s.player)}: ${s.notation}.`)];
    const out = [];
    if (m.stop) {
      out.push(el("div", {}, `${who(m.player)} stopped the Uruk-Hai's attacks.`));
    } else if (m.power && m.power !== "repeat_attack") {
      const name = meta.powers[m.power] || m.power;
      const by = m.attacker ? `${charName(m.player, m.attacker)} (${m.attacker_rank})` : "a piece";
      out.push(el("div", {}, `${who(m.player)} used ${name}: ${by} from ${m.from}${m.to ? ` to ${m.to}` : ""}.`));
      out.push(...strikeLines(m, charName));
      if (m.defender) out.push(...battleLines(m, charName));
    } else if (m.defender) {
      out.push(el("div", {}, `${who(m.player)} attacked ${m.from}×${m.to}${m.power === "repeat_attack" ? " (again)" : ""}:`));
      out.push(...battleLines(m, charName));
    } else {
      const cell = v.board[parseSquare(m.to)];
      const piece = cell && typeof cell === "object" && cell.kind && cell.owner === m.player ? ` — ${cell.name} (${cell.rank})` : "";
      out.push(el("div", {}, `${who(m.player)} moved ${m.from}–${m.to}${piece}.`));
    }
    out.push(...ringNews(m));
    return out;
  }

  function moveLine(s, v) {
    const m = v && v.last_move;
    const parts = [el("b", {}, s.notation)];
    if (!m) return parts;
    if (m.defender) {
      parts.push(" ", battleTag(m));
    } else if (m.targets) {
      const enemy = 1 - m.player;
      parts.push(" ", el("span", { class: "battle" }, m.targets.map((t) => `${charName(enemy, t.defender)} (${symbolOf(t.defender_rank)}) ${RESULT_WORDS[t.result] || t.result}`).join(", ")));
    }
    if (m.ring) parts.push(" ", el("span", { class: "ring-news" }, m.ring === "destroyed" ? "Ring destroyed" : "Ring taken"));
    return parts;
  }

  function side(v) {
    const nodes = [];
    for (const owner of [0, 1]) {
      const lost = (v.captured || [])[owner];
      nodes.push(el("div", { class: "small muted" }, `${who(owner)} lost ${(v.captured_count || [0, 0])[owner]}`));
      const chips = lost === null || lost === undefined
        ? [el("span", { class: "muted small" }, `kept hidden (${v.captured_mode})`)]
        : lost.map((key) => {
          const k = info[owner].get(key);
          return el("span", { class: `chip s${owner}`, title: k ? k.name : key }, k ? k.symbol : "?");
        });
      nodes.push(el("div", { class: "chips", id: `captured-${owner}` }, ...chips));
    }
    if (v.ring) {
      nodes.push(el("div", { class: "small" }, `${RING_STATUS[v.ring.status]} (Mount Doom: ${v.ring.mount_doom}).`));
    }
    return { title: "Captured", nodes };
  }

  return {
    seats: SEATS,
    seatClass: (seat) => `s${seat}`,
    bodyClass: "lotr",
    viewBox: "0 0 1040 1040",
    stepWord: "Move",
    title: (g) => `Stratego LOTR · ${GAME_TITLES[g.variant] || g.variant || ""}`,
    fullNote: "Every character is shown; dashed ones were still hidden from the opponent at that point.",
    draw,
    describe,
    moveLine,
    side,
  };
}
