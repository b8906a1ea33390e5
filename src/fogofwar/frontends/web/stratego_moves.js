// @ts-check
// Stratego's words for a move, the same on the game page (game.js) and in the replay viewer (replay.js):
// a battle in the move list, and the last move's card for an attack.
import { capitalize, el, rankSymbol, SEAT_NAMES } from "./common.js";

/** A battle in the move list: '9 × B: defender wins'. */
export function battleText(m) {
  const outcome = { attacker_won: "attacker wins", defender_won: "defender wins", both_lost: "both lost" }[m.result];
  return el("span", { class: "battle" }, `${rankSymbol(m.attacker)} × ${rankSymbol(m.defender)}: ${outcome}`);
}

/** An attack in words: who attacked where, the two pieces, the verdict. who: how the attacker is called
 * ("You", "Red"); player: its seat. */
export function describeAttack(m, who, player) {
  const other = capitalize(SEAT_NAMES[1 - player]);
  const verdict = {
    attacker_won: `the ${m.attacker} wins and takes ${m.to}`,
    defender_won: `${other}'s ${m.defender} holds`,
    both_lost: "both pieces are lost",
  }[m.result];
  return [
    el("div", {}, `${who} attacked ${m.from}×${m.to}:`),
    el("div", { class: "big" },
      el("span", { class: `chip ${SEAT_NAMES[player]}` }, rankSymbol(m.attacker)), ` ${m.attacker}  vs  `,
      el("span", { class: `chip ${SEAT_NAMES[1 - player]}` }, rankSymbol(m.defender)), ` ${m.defender}`),
    el("div", {}, `${capitalize(verdict)}.`),
  ];
}
