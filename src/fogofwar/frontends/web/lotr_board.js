// @ts-check
// The Stratego LOTR board, drawn from one seat's chair: the 10x10 squares with the two Forbidden Zones
// (and Mount Doom in Game 3), the characters, the marks of the last move. Pure drawing, no page state:
// the game page (lotr.js) and the replay viewer (replay_lotr.js) both draw with it, the zones passed in.
import { capitalize, el, squareName } from "./common.js";
import { N_, t } from "./i18n.js";
import { CELL, drawGrid, squareCentre, squareOrigin } from "./grid_board.js";
import { svg, svgText } from "./svg.js";

export const FILES = "ABCDEFGHIK";
export const SEATS = ["evil", "good"];
export const GAME_TITLES = { classic: N_("Game 1, Classic"), powers: N_("Game 2, Special Powers"), ring: N_("Game 3, Destroy the Ring") };
export const RESULT_WORDS = { captured: N_("captured"), survived: N_("survives"), immune: N_("is immune"), both_lost: N_("falls with the attacker") };

// What became of the Ring (the Ring card's words).
export const RING_STATUS = { carried: N_("Frodo still carries the Ring towards Mount Doom"), destroyed: N_("The Ring has been destroyed"), taken: N_("Evil holds the Ring") };

/** A battle in words, the same on the game page and in the replay viewer: the two characters and the verdict.
 * charName(seat, key): a character's name. */
export function battleLines(m, charName) {
  const enemy = 1 - m.player;
  const verdict = t({ attacker_won: N_("the attacker wins"), defender_won: N_("the defender holds"), both_lost: N_("both are captured"), both_stayed: N_("both stay") }[m.result] || m.result);
  return [
    el("div", { class: "big" },
      el("span", { class: `chip s${m.player}` }, symbolOf(m.attacker_rank)), ` ${charName(m.player, m.attacker)}  ${t("vs")}  `,
      el("span", { class: `chip s${enemy}` }, symbolOf(m.defender_rank)), ` ${charName(enemy, m.defender)}`),
    el("div", {}, `${capitalize(verdict)}.`),
  ];
}

/** What a power struck, in lines: each target and what became of it, and the attacker if it fell too. */
export function strikeLines(m, charName) {
  const enemy = 1 - m.player;
  const out = (m.targets || []).map((hit) => el("div", { class: "hit-line" }, el("span", { class: `chip s${enemy}` }, symbolOf(hit.defender_rank)),
    " ", t("{name} on {square} {result}.", { name: charName(enemy, hit.defender), square: hit.square, result: t(RESULT_WORDS[hit.result] || hit.result) })));
  if (m.targets && m.attacker_survived === false) out.push(el("div", {}, t("{name} fell too.", { name: charName(m.player, m.attacker) })));
  return out;
}

/** A battle in the move list: '3 × 5: wins'. */
export function battleTag(m) {
  const verdict = t({ attacker_won: N_("wins"), defender_won: N_("loses"), both_lost: N_("both lost"), both_stayed: N_("both stay") }[m.result]);
  return el("span", { class: "battle" }, `${symbolOf(m.attacker_rank)} × ${symbolOf(m.defender_rank)}: ${verdict}`);
}

/** The Ring's news of a move (destroyed or taken), in lines. */
export function ringNews(m) {
  if (m.ring === "destroyed") return [el("div", { class: "ring-news" }, t("The Ring is destroyed on Mount Doom! {n} Evil pieces are swept away.", { n: m.removed ? m.removed.length : 0 }))];
  if (m.ring === "taken") return [el("div", { class: "ring-news" }, t("Frodo is taken: Evil holds the Ring, and every Evil piece gains a rank."))];
  return [];
}

export function symbolOf(rank) {
  return { flag: "F", spy: "S", fortress: "B" }[rank] ?? rank;
}

/** Two letters that tell characters apart where a name cannot be read (a phone's board): 'Witch-king' -> 'WK',
 * 'Knight of Rohan' -> 'KR', 'Re Stregone' -> 'RS', 'Aragorn' -> 'Ar'. */
export function initials(name) {
  const words = name.split(/[\s-]+/).filter((w) => w && !["of", "the", "di", "del", "dell'", "della", "sul", "dei"].includes(w.toLowerCase()));
  if (words.length >= 2) return (words[0][0] + words[1][0]).toUpperCase();
  const word = words[0] || name;
  return word.slice(0, 2);
}

/** A name that fits on a piece: 'Knights of Rohan' -> 'Knights'. */
export function shortName(name) {
  if (name.length <= 11) return name;
  const head = name.split(" of ")[0];
  return head.length <= 11 ? head : `${head.slice(0, 10)}.`;
}

/** The top-left corner of a square for the seat at the bottom. */
export const place = (/** @type {number} */ sq, /** @type {number} */ perspective) => squareOrigin(sq, 10, perspective);
export const centre = (/** @type {number} */ sq, /** @type {number} */ perspective) => squareCentre(sq, 10, perspective);

function pieceNode(sq, cell, o) {
  const { x, y } = place(sq, o.perspective);
  const known = Boolean(cell.kind);
  const classes = ["piece", `s${cell.owner}`];
  if (!known) classes.push("unknown");
  if (o.movable.has(sq)) classes.push("movable");
  if (o.selected === sq) classes.push("selected");
  if (o.wasHidden.has(sq)) classes.push("was-hidden");
  if (o.preview) classes.push("preview");
  const g = svg("g", { class: classes.join(" "), "data-sq": sq, "data-kind": cell.kind || "", transform: `translate(${x} ${y})` });
  g.append(svg("rect", { class: "body", x: 8, y: 8, width: 84, height: 84, rx: 14 }));
  if (known) {
    g.append(svgText({ class: "sym", x: 50, y: 42 }, symbolOf(cell.rank)));
    g.append(svgText({ class: "name", x: 50, y: 80 }, shortName(t(cell.name))));
    g.append(svgText({ class: "initials", x: 50, y: 74 }, initials(t(cell.name)))); // for small boards (.compact)
  } else {
    g.append(svg("path", { class: "emblem", d: "M50 26 L74 50 L50 74 L26 50 Z" }));
  }
  if (cell.owner !== o.me && !known && cell.moved) g.append(svg("circle", { class: "moved-mark", cx: 78, cy: 22, r: 7 }));
  if (cell.owner === o.me && cell.revealed && !o.final) g.append(svg("circle", { class: "seen-mark", cx: 22, cy: 22, r: 8 }));
  const side = capitalize(t(SEATS[cell.owner]));
  const title = known ? `${side} ${t(cell.name)} (${cell.rank})` : `${side} ${t(cell.moved ? "unknown piece, has moved" : "unknown piece")}`;
  const tip = svg("title");
  tip.textContent = `${squareName(sq)}: ${title}${cell.revealed && cell.owner === o.me ? t(", known to the enemy") : ""}`;
  g.append(tip);
  return g;
}

/**
 * Draw the board.
 * o: board (100 cells: null, "zone" or a piece), zones (Set of squares), doom (square or null), perspective,
 * me (seat or null), lastSquares, struck (squares), targets (Map square -> kind), movable, clickable, area,
 * wasHidden (Sets), selected (square or null), preview, final (bools).
 */
export function drawLotrBoard(root, opts) {
  const o = {
    zones: new Set(), doom: null, perspective: 0, me: null, selected: null, targets: new Map(), movable: new Set(),
    lastSquares: [], struck: [], area: new Set(), wasHidden: new Set(), preview: false, final: false, clickable: new Set(),
    ...opts,
  };
  /** @type {import("./grid_board.js").GridRenderer} */
  const renderer = {
    size: 10,
    files: FILES,
    blocked: (sq) => o.zones.has(sq) && sq !== o.doom,
    ground(sq, { x, y }, { squares }) {
      if (o.zones.has(sq)) {
        squares.append(svg("rect", { class: `zone${o.doom === sq ? " doom" : ""}`, x, y, width: CELL, height: CELL }));
        if (o.doom === sq) {
          squares.append(svg("path", { class: "doom-peak", d: `M${x + 18} ${y + 80} L${x + 50} ${y + 22} L${x + 82} ${y + 80} Z` }));
        }
        return;
      }
      const alt = (Math.floor(sq / 10) + (sq % 10)) % 2 === 1;
      squares.append(svg("rect", { class: ["land", alt ? "alt" : "", o.area.has(sq) ? "area" : ""].join(" ").trim(), x, y, width: CELL, height: CELL }));
    },
    piece(sq, _at, { pieces }) {
      const cell = o.board[sq];
      if (cell && typeof cell === "object") pieces.append(pieceNode(sq, cell, o));
    },
  };
  const { marks, overlay } = drawGrid(root, renderer, {
    perspective: o.perspective,
    last: o.lastSquares,
    targets: o.targets,
    clickable: o.clickable,
    decorate({ marks: under }) {
      for (const sq of o.struck) {
        const { x, y } = place(sq, o.perspective);
        under.append(svg("rect", { class: "struck", x: x + 6, y: y + 6, width: CELL - 12, height: CELL - 12, rx: 12 }));
      }
    },
  });
  return { marks, overlay };
}
