// @ts-check
// The game clocks on screen. The server is the judge of time (it ends a game on time); the page only counts
// down between the server's messages, from the time left each message states, so a slow network never
// makes a clock wrong for more than one message.
import { N_, t } from "./i18n.js";

/** The time control as players write it, in the page's language: "5+3", "2 days a move". */
export function clockLabel(label) {
  const days = /^(\d+) days? a move$/.exec(String(label));
  if (days) return Number(days[1]) === 1 ? t(N_("1 day a move")) : t("{n} days a move", { n: days[1] });
  return String(label);
}

/** Seconds as a clock shows them: "4:05", "0:09.4" in the last ten seconds, "1:02:03" past an hour,
 * "2d 3h" past a day. */
export function formatClock(seconds) {
  const s = Math.max(0, seconds);
  if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
  if (s < 10) return `0:0${(Math.floor(s * 10) / 10).toFixed(1)}`;
  const whole = Math.floor(s);
  const [h, m, sec] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const two = (n) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

/** Each seat's seconds left `elapsed` seconds after a message's clock (its running seat's only goes down). */
export function clockLeft(clock, elapsed) {
  return clock.left.map((left, seat) => (seat === clock.running ? Math.max(0, left - Math.max(0, elapsed)) : left));
}

/** The kind of a time control, as the lobby's filter names them: "untimed", "live" (minutes) or "days". */
export function clockKind(label) {
  if (!label) return "untimed";
  return /a move$/.test(label) ? "days" : "live";
}
