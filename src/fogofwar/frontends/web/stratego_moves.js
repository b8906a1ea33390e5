// @ts-check
// Stratego's words for a move, the same on the game page (game.js) and in the replay viewer (replay.js):
// a battle in the move list, and the last move's card for an attack.
import { capitalize, el, rankSymbol, SEAT_NAMES } from "./common.js";
import { N_, t } from "./i18n.js";

/** A battle in the move list: '9 × B: defender wins'. */
export function battleText(m) {
  const outcome = t({ attacker_won: N_("attacker wins"), defender_won: N_("defender wins"), both_lost: N_("both lost") }[m.result]);
  return el("span", { class: "battle" }, `${rankSymbol(m.attacker)} × ${rankSymbol(m.defender)}: ${outcome}`);
}

/** An attack in words: who attacked where, the two pieces, the verdict. who: how the attacker is called
 * ("You", "Red"); player: its seat. */
export function describeAttack(m, who, player) {
  const other = capitalize(t(SEAT_NAMES[1 - player]));
  const verdict = {
    attacker_won: t("the {rank} wins and takes {square}", { rank: t(m.attacker), square: m.to }),
    defender_won: t("{seat}'s {rank} holds", { seat: other, rank: t(m.defender) }),
    both_lost: t("both pieces are lost"),
  }[m.result];
  return [
    el("div", {}, t("{who} attacked {from}×{to}:", { who, from: m.from, to: m.to })),
    el("div", { class: "big" },
      el("span", { class: `chip ${SEAT_NAMES[player]}` }, rankSymbol(m.attacker)), ` ${t(m.attacker)}  ${t("vs")}  `,
      el("span", { class: `chip ${SEAT_NAMES[1 - player]}` }, rankSymbol(m.defender)), ` ${t(m.defender)}`),
    el("div", {}, `${capitalize(verdict)}.`),
  ];
}
