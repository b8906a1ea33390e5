"""Admiral as a board game a person can follow, in a real (headless) chromium: a whole turn of the solo game
against Admiral Stratego played on the board, read as a newcomer reads it (the readability issue's findings on
Admiral, each checked here):

- after a pass the same panel came back ("Passing gives up your remaining Movement dice", "Move (42)") and
  needed one more pass per computer unit, with nothing saying the computer was moving in between;
- engine identifiers reached the player (`Enterprise.armoured fighters`, `battery:main`, `Jenkins -> G3:smoke-v`,
  `torpedo_bomber`, `Helena@D3`), and the decisions came as lists of up to 153 buttons;
- the log listed orders and dice but not what they did, the outcomes sitting in a card far below;
- "Initiative: North won (0 vs 0 ★)", "North rolls (deployment): Kirishima@A8 ...", and the solo deployment's
  help naming "your two home rows" while only five squares were lit.

Screenshots go to artifacts/screenshots/ (admiral-readable-*.png), at 1280x800 and 390x844.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from .test_browser_play import LAYOUT_PROBLEMS, SIZES, new_page, sized_page

pytestmark = pytest.mark.browser

ENGINE_WORDS = re.compile(
    r"\b[a-z]+_[a-z_]+\b"  # keys: torpedo_bomber, armoured_fighters
    r"|[A-Za-z0-9]>[A-Za-z]|->|→"  # 'Jenkins>G3', 'Wahoo -> C2'
    r"|\w@[A-H][1-8]"  # 'Helena@D3'
    r"|:(?:smoke|dive|surface|draught|done|pass)\b|battery:"  # notation: ':smoke-v', 'battery:main'
    r"|\w\.[a-z]"  # 'Enterprise.armoured fighters'
    r"|\b(?:Move|Artillery|Torpedoes) \(\d+\)"  # a kind's count over a long list: 'Move (153)'
)
MOBILE = {"width": 390, "height": 844}


def engine_words(text: str) -> list[str]:
    return [m.group(0) for m in ENGINE_WORDS.finditer(text)]


TOASTS = """
window.__toasts = [];
new MutationObserver(() => {
  const t = document.getElementById("toast");
  if (t && !t.hidden && t.textContent && window.__toasts[window.__toasts.length - 1] !== t.textContent) {
    window.__toasts.push(t.textContent);
  }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
"""
"""Every toast the page shows, kept in window.__toasts: a refused decision would show there."""


def solo_game(page: Any, base: str, turns: int = 2) -> tuple[str, str]:
    """A solo game (South against Admiral Stratego) opened as South; returns its id and South's token."""
    page.add_init_script(TOASTS)
    body = {"game": "admiral", "variant": "archipelago", "opponent": "stratego", "color": "south"}
    created = page.request.post(base + "/api/games", data={**body, "options": {"max_turns": turns}}).json()
    gid, token = created["game"]["id"], created["seats"]["0"]
    page.goto(f"{base}/game/{gid}#seat=0&token={token}")
    return str(gid), str(token)


class Seat:
    """South's seat of a solo game over the REST API, to bring a game to the moment a test looks at."""

    def __init__(self, page: Any, base: str) -> None:
        body = {"game": "admiral", "variant": "archipelago", "opponent": "stratego", "color": "south"}
        created = page.request.post(base + "/api/games", data={**body, "options": {"max_turns": 2}}).json()
        self.page, self.base = page, base
        self.gid, self.token = str(created["game"]["id"]), str(created["seats"]["0"])
        self.headers = {"Authorization": f"Bearer {self.token}"}

    def act(self, command: dict[str, Any]) -> None:
        r = self.page.request.post(f"{self.base}/api/games/{self.gid}/act", data=command, headers=self.headers)
        assert r.ok, r.text()

    def my_turn(self) -> dict[str, Any]:
        """South's view once it has a decision to make (or the game is over)."""
        deadline = time.monotonic() + 20
        while True:
            msg: dict[str, Any] = self.page.request.get(
                f"{self.base}/api/games/{self.gid}/seat", headers=self.headers
            ).json()
            if msg["game"]["status"] == "over" or (msg["game"]["to_move"] == 0 and msg.get("actions")):
                return msg
            assert time.monotonic() < deadline, "the computer did not answer"
            time.sleep(0.05)

    def to_movement(self) -> None:
        """Deployed at random, the submarine placed: South's first movement decision."""
        self.act({"type": "setup", "setup": "random"})
        msg = self.my_turn()
        assert msg["view"]["phase"] == "submarines"
        self.act({"type": "action", "action": msg["actions"][0]["id"]})
        assert self.my_turn()["view"]["phase"] == "movement"

    def open(self, page: Any) -> None:
        page.goto(f"{self.base}/game/{self.gid}#seat=0&token={self.token}")


def decision(page: Any) -> str:
    """Wait for a decision of the player (or the end); its phase title, '' at the end."""
    page.wait_for_selector("#decide:not([hidden]), #result:not([hidden])", timeout=20_000)
    if page.locator("#result").is_visible():
        return ""
    return str(page.inner_text("#decide-title")).upper()


def state(page: Any) -> tuple[str, str]:
    return page.evaluate("[document.body.dataset.seq, document.body.dataset.draft]")  # type: ignore[no-any-return]


def changed(page: Any, before: tuple[str, str]) -> None:
    seq, draft = before
    page.wait_for_function(
        f"document.body.dataset.seq !== '{seq}' || document.body.dataset.draft !== '{draft}'", timeout=10_000
    )


def click_square(page: Any, sq: int) -> None:
    page.click(f"#board .cell-hit[data-sq='{sq}']")


def pay(page: Any, before: tuple[str, str]) -> None:
    """After a click on the board: the decision was made, or the panel offers the dice to pay with: the first."""
    page.wait_for_timeout(200)
    if state(page) == before:
        page.locator("#action-groups .pay button").first.click()
    changed(page, before)


def test_the_solo_deployment_the_deck_and_the_initiative_read_in_words(browser: Any, live_server: str) -> None:
    """The help said "your two home rows" with five squares lit; the log "North rolls (deployment):
    Kirishima@A8 ..."; the initiative "North won (0 vs 0 ★)"."""
    page = new_page(browser)
    solo_game(page, live_server)
    page.wait_for_selector("#setup:not([hidden])")
    help_text = page.inner_text("#deploy-help")
    named = re.findall(r"\b[A-H][1-8]\b", help_text)
    assert "two home rows" not in help_text and named == ["H1", "G1", "F1", "E1", "D1"], help_text
    assert page.locator("#board .sea.area").count() == len(named)
    page.click("#deploy-random")
    page.click("#deploy-confirm")
    decision(page)
    log = page.inner_text("#move-list")
    assert "North's fleet comes from its shuffled deck" in log and "@" not in log, log
    initiative = page.inner_text("#initiative")
    assert "0 vs 0" not in initiative and "always holds it" in initiative, initiative
    assert not page.errors


def test_decisions_are_made_on_the_board_in_words(browser: Any, live_server: str) -> None:
    """The movement phase offered "Move (52)" (up to 153) buttons in the engine's notation
    ('Jenkins → G3:smoke-v · dice: movement'); now the player clicks a unit, then a green square."""
    seat = Seat(new_page(browser), live_server)
    seat.to_movement()
    page = new_page(browser)
    seat.open(page)
    assert decision(page) == "YOUR DECISION: MOVEMENT"
    panel = page.inner_text("#decide")
    assert not engine_words(panel), engine_words(panel)
    assert page.locator("#action-groups button:visible").count() <= 2 + 6, panel  # Pass, End, a unit each
    click_square(page, int(page.locator("#board .pick.actor").first.get_attribute("data-sq")))
    page.wait_for_selector("#filter-line:not([hidden])")
    unit = page.inner_text("#filter-text").split(" (")[0]
    assert not engine_words(page.inner_text("#decide"))
    to = int(page.locator("#board .pick:not(.actor):not(.enemy)").first.get_attribute("data-sq"))
    before = state(page)
    click_square(page, to)
    pay(page, before)
    square = "ABCDEFGH"[to % 8] + str(to // 8 + 1)
    page.wait_for_selector(f"#move-list li:has-text('South: {unit} moves from')")
    assert f"to {square}" in page.inner_text("#move-list")
    assert not page.errors


def test_after_a_pass_the_page_says_what_is_left_and_shows_the_computer_moving(browser: Any, live_server: str) -> None:
    """After Pass the same panel came back (and again, once per computer unit) with nothing saying the
    computer was moving in between."""
    seat = Seat(new_page(browser), live_server)
    seat.to_movement()
    page = new_page(browser)
    page.add_init_script(TOASTS)
    seat.open(page)
    assert decision(page) == "YOUR DECISION: MOVEMENT"
    page.click("#action-groups button[data-kind=pass]")
    asked = 0
    while decision(page) == "YOUR DECISION: MOVEMENT":
        asked += 1
        help_text = page.inner_text("#decide-help")
        assert help_text.startswith("You passed") and "Admiral die" in help_text, help_text
        assert page.locator("#action-groups button[data-kind=pass]").inner_text() == "Pass again"
        news = page.inner_text("#decide-news")
        assert "North rolls for" in news and "North:" in news, news  # what the computer did since
        page.click("#action-groups button[data-kind=end_movement]")
    assert asked <= 1  # ended at once: not one pass more per computer unit
    log = page.inner_text("#move-list").splitlines()
    after = log[min(i for i, line in enumerate(log) if line.startswith("South: passes")) :]
    assert sum(line.startswith("North rolls for") for line in after) >= 4, log  # its units moved meanwhile
    assert page.evaluate("window.__toasts") == [] and not page.errors


def test_the_log_says_what_each_order_did_under_the_decision(browser: Any, live_server: str) -> None:
    """The log listed orders and dice, not what they did (a bomber attacked Chokai and vanished); the outcomes
    sat in a "Last resolution" card far below."""
    seat = Seat(new_page(browser), live_server)
    seat.to_movement()
    while True:  # South passes, makes no air attack and commits no orders: turn 1 to its end
        msg = seat.my_turn()
        if msg["view"]["turn"] > 1 or msg["game"]["status"] == "over":
            break
        kinds = {a["kind"]: a["id"] for a in msg["actions"]}
        pick = next((kinds[k] for k in ("pass", "air_pass", "commit", "air_done", "decline") if k in kinds), None)
        seat.act({"type": "action", "action": pick if pick is not None else msg["actions"][0]["id"]})
    page = new_page(browser)
    seat.open(page)
    page.wait_for_selector("#move-list li")
    effects = page.locator("#move-list .effects li")
    assert effects.count() > 0, page.inner_text("#move-list")
    log = page.inner_text("#move-list")
    assert "attacks from the air" in log and not engine_words(log), log  # North's carrier always attacks
    assert page.locator("#report-card").count() == 0
    order = page.evaluate("[...document.querySelectorAll('aside.panel > .card')].map((c) => c.id)")
    assert order.index("moves") == order.index("decide") + 1, order  # the log right under the decision
    assert not page.errors


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_whole_solo_turn_played_on_the_board_and_read_in_words(
    browser: Any, live_server: str, screenshots: Path, size: str
) -> None:
    page = sized_page(browser, size)
    gid, token = solo_game(page, live_server)
    # --- Deployment: the help names the squares that are lit (the solo mode fills them from the corner).
    page.wait_for_selector("#setup:not([hidden])")
    lit = page.locator("#board .sea.area").count()
    help_text = page.inner_text("#deploy-help")
    assert "two home rows" not in help_text, help_text  # only five squares are lit in the solo game
    named = re.findall(r"\b[A-H][1-8]\b", help_text)
    assert len(named) == lit == 5 and named[0] == "H1", help_text  # H1 first: South's right-hand corner
    page.screenshot(path=str(screenshots / "admiral-readable-deploy.png"))
    page.click("#deploy-random")
    page.click("#deploy-confirm")
    # --- The solo deck's placements and the initiative, in words.
    assert decision(page) == "YOUR DECISION: SUBMARINES"
    log = page.inner_text("#move-list")
    assert "shuffled deck" in log and "Kirishima on" in log and "@" not in log, log
    initiative = page.inner_text("#initiative")
    assert "0 vs 0" not in initiative and "always holds it" in initiative, initiative
    # The submarine is the only unit to place: it is chosen already, its squares are green on the board.
    assert page.locator("#board .pick[data-sq]").count() > 1
    before = state(page)
    click_square(page, int(page.get_attribute("#board .pick[data-sq]", "data-sq")))
    changed(page, before)
    # --- Movement: a unit is chosen on the board, then the square it goes to.
    assert decision(page) == "YOUR DECISION: MOVEMENT"
    panel = page.inner_text("#decide")
    assert not engine_words(panel), engine_words(panel)
    picks = page.locator("#action-groups .unit-pick")
    assert 0 < picks.count() <= 6 and page.locator("#action-groups button.act-button").count() <= 3, panel
    page.screenshot(path=str(screenshots / "admiral-readable-movement.png"))
    mobile = new_page(browser)
    mobile.set_viewport_size(MOBILE)
    mobile.goto(f"{live_server}/game/{gid}#seat=0&token={token}")
    mobile.wait_for_selector("#decide:not([hidden])")
    mobile.screenshot(path=str(screenshots / "admiral-readable-board-mobile.png"))
    mobile.locator("#decide").scroll_into_view_if_needed()
    mobile.screenshot(path=str(screenshots / "admiral-readable-movement-mobile.png"))
    mover = page.locator("#board .pick.actor").first.get_attribute("data-sq")
    click_square(page, int(mover))
    page.wait_for_selector("#filter-line:not([hidden])")
    unit = page.inner_text("#filter-text").split(" (")[0]
    green = page.locator("#board .pick:not(.actor):not(.enemy)")
    assert green.count() > 0 and "Click a green square" in page.inner_text("#decide")
    to = int(green.first.get_attribute("data-sq"))
    before = state(page)
    click_square(page, to)
    page.screenshot(path=str(screenshots / "admiral-readable-pay.png"))
    pay(page, before)
    square = "ABCDEFGH"[to % 8] + str(to // 8 + 1)
    page.wait_for_selector(f"#move-list li:has-text('South: {unit} moves from')")
    assert f"to {square}" in page.inner_text("#move-list")
    # --- Passing: the question that comes back is a new one, and the computer's moves show in between.
    assert decision(page) == "YOUR DECISION: MOVEMENT"
    news = page.inner_text("#decide-news")
    assert "North rolls for" in news and "North:" in news, news  # the computer moved since the last decision
    page.click("#action-groups button[data-kind=pass]")
    again = decision(page)
    if again == "YOUR DECISION: MOVEMENT":  # Admiral dice left: the rules ask again, and the page says why
        help_text = page.inner_text("#decide-help")
        assert help_text.startswith("You passed") and "Admiral die" in help_text, help_text
        assert page.locator("#action-groups button[data-kind=pass]").inner_text() == "Pass again"
        assert "North" in page.inner_text("#decide-news")
        page.screenshot(path=str(screenshots / "admiral-readable-passed.png"))
        page.click("#action-groups button[data-kind=end_movement]")  # ends the player's movement at once
        again = decision(page)
    assert again != "YOUR DECISION: MOVEMENT", "asked to move again after ending the movement"
    moves = page.inner_text("#move-list").splitlines()
    passed = max(i for i, line in enumerate(moves) if line.startswith("South: passes"))
    first_pass = min(i for i, line in enumerate(moves) if line.startswith("South: passes"))
    assert any(line.startswith("North:") for line in moves[first_pass:passed] + moves[passed:]), moves
    # --- The rest of the turn: air attacks, the secret orders, criticals, in words and on the board.
    seen: set[str] = set()
    for _ in range(60):
        phase = again or decision(page)
        again = ""
        if not phase or "TURN 2" in page.inner_text("#players").upper():
            break
        seen.add(phase)
        panel = page.inner_text("#decide")
        assert not engine_words(panel), (phase, engine_words(panel))
        before = state(page)
        if "ATTACK ASSIGNMENT" in phase and "attack" not in seen:
            seen.add("attack")  # an order by the board (a unit, then the enemy in a red ring), or one listed
            ordered = False
            shooters = page.locator("#action-groups .unit-pick")
            direct = page.locator("#action-groups .decision-row button.act-button")
            if not shooters.count() and direct.count():  # a few orders: listed at once
                direct.first.click()
                ordered = True
            for i in range(shooters.count()):
                shooters.nth(i).click()
                enemy = page.locator("#board .pick.enemy[data-sq]")
                if enemy.count():
                    click_square(page, int(enemy.first.get_attribute("data-sq")))
                    pay(page, before)
                    ordered = True
                    break
                page.click("#filter-clear")
            if not ordered and shooters.count():  # no enemy in reach: a special feature of a unit, then
                shooters.first.click()
                direct.first.click()
                ordered = True
            if ordered:
                changed(page, before)
                page.wait_for_selector("#draft-orders li:not(.muted)")
                order = page.inner_text("#draft-orders")
                assert re.search(r"fires at|torpedo at|depth charges| on ", order) and not engine_words(order), order
                page.screenshot(path=str(screenshots / "admiral-readable-orders.png"))
                before = state(page)
            page.click("#action-groups button[data-kind=commit]")
            changed(page, before)
            continue
        simple = page.locator("#action-groups button[data-kind=air_pass], #action-groups button[data-kind=commit]")
        if simple.count():
            simple.first.click()
        elif page.locator("#action-groups .unit-pick").count():
            page.locator("#action-groups .unit-pick").first.click()
            page.locator("#action-groups button.act-button:visible").first.click()
        else:
            page.locator("#action-groups button.act-button:visible").first.click()
        changed(page, before)
    page.wait_for_function("document.querySelector('#players').innerText.includes('Turn 2')", timeout=20_000)
    # --- The log says what the orders did, under each order, near the decision.
    log = page.inner_text("#move-list")
    assert page.locator("#move-list .effects li").count() > 0, log
    assert not engine_words(log), engine_words(log)
    assert page.locator("#report-card").count() == 0  # no "Last resolution" card far below: the log says it
    order = page.evaluate("[...document.querySelectorAll('aside.panel > .card')].map((c) => c.id)")
    assert order.index("moves") == order.index("decide") + 1, order  # the log right under the decision
    page.locator("#moves").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "admiral-readable-log.png"))
    mobile.reload()
    mobile.wait_for_selector("#move-list .effects li")
    mobile.locator("#moves").scroll_into_view_if_needed()
    mobile.screenshot(path=str(screenshots / "admiral-readable-log-mobile.png"))
    assert page.evaluate("window.__toasts") == []  # no decision the server refused, none sent out of turn
    assert page.evaluate(LAYOUT_PROBLEMS) == []  # the turn's end fits this screen
    assert page.errors == [] and mobile.errors == []
