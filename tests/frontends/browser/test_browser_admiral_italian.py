"""Admiral in Italian, in a real (headless) chromium whose browser asks for Italian (the language of Admiral's
rulebook): the solo game against Admiral Stratego at South's first movement decision reads in the Italian
rulebook's words (dado Ammiraglio, corazzata, Sistemi di Puntamento, Banco di Nebbia) on the decision panel, in
the log and on the unit cards, with no English sentence of the decision left, and nothing cut off at 1280x800 or
390x844 (Italian runs longer than English).

Screenshots go to artifacts/screenshots/ (admiral-it-*.png).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .test_browser_admiral_readable import ENGINE_WORDS, Seat, click_square, pay, solo_game, state
from .test_browser_readable import LAYOUT_PROBLEMS
from .test_browser_setup_replay import finish_a_hotseat_game

pytestmark = pytest.mark.browser

ENGLISH = re.compile(
    r"\b(?:Your decision|Your go|Movement die|Admiral die|End my movement|Click a unit|Click a green square"
    r"|Since your last decision|pay with|rolls|moves|from|Pass|move|battleship|destroyer|submarine)\b"
)
"""Words of the decision panel's English sentences (its title, the movement help, the buttons, the hints, the news,
the units' classes): none may be left on an Italian page."""
CLASSES = r"(corazzata|incrociatore pesante|incrociatore leggero|cacciatorpediniere|portaerei|sommergibile)"


def italian_page(browser: Any, width: int, height: int) -> Any:
    """A page of a browser context that asks for Italian; its page errors in `page.errors`."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale="it-IT", bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def test_an_admiral_solo_game_reads_in_the_italian_rulebooks_words(
    browser: Any, live_server: str, screenshots: Path
) -> None:
    page = italian_page(browser, 1280, 800)
    seat = Seat(page, live_server)
    seat.to_movement()
    seat.open(page)
    page.wait_for_selector("#decide:not([hidden])", timeout=20_000)
    assert page.evaluate("document.documentElement.lang") == "it"
    assert page.inner_text("#title").startswith("Admiral · Arcipelago · contro Ammiraglio Stratego (computer)")
    assert "Turno 1 di al massimo 2 · Movimento" in page.inner_text("#players")
    # --- The decision panel: its title, the movement phase's question, the buttons, the news since the last one.
    assert page.inner_text("#decide-title").upper() == "LA TUA DECISIONE: MOVIMENTO"
    help_text = page.inner_text("#decide-help")
    assert help_text.startswith("Tocca a te: muovi un'unità") and "dado Ammiraglio" in help_text, help_text
    assert page.inner_text("#action-groups button[data-kind=pass]") == "Passa"
    end = page.inner_text("#action-groups button[data-kind=end_movement]")
    assert end == "Termina il mio movimento per questo turno"
    assert "Clicca un'unità sul campo (o qui) per vedere cosa può fare:" in page.inner_text("#action-groups")
    news = page.inner_text("#decide-news")
    assert news.startswith("Dalla tua ultima decisione:") and "dadi azione" in news, news
    panel = page.inner_text("#decide")
    assert not ENGLISH.findall(panel), (ENGLISH.findall(panel), panel)
    assert not ENGINE_WORDS.findall(panel), panel
    # --- The log, the dice and the initiative.
    assert page.inner_text("#moves-title").upper() == "COSA È SUCCESSO"
    log = page.inner_text("#move-list")
    assert "La flotta di Nord esce dal suo mazzo mescolato" in log and "Kirishima in " in log, log
    assert "Sud schiera la sua flotta a faccia in giù" in log, log
    assert "l'ammiraglio del computer, la vince sempre" in page.inner_text("#initiative")
    dice = page.inner_text("#dice-label-0")
    assert re.match(r"Sud \(tu\): \d+ dadi, \d+ non usati", dice), dice
    legend = "M Movimento · A Artiglieria · T Siluro · AA Contraerea · DC Bombe di Profondità · ★ Ammiraglio"
    assert legend in page.inner_text("#dice-card")
    # --- The unit cards: the class, the characteristics, the special features by the rulebook's names.
    assert "Marina degli Stati Uniti" in page.inner_text("#fleet-0 h4")
    washington = page.inner_text("#fleet-0 .ucard[data-unit='Washington']")
    for said in (
        "Washington · corazzata",
        "corazza 5",
        "Batterie (coefficiente/gittata): principale 5/g4×2",
        "Sistemi di Puntamento",
        "Cintura di Protezione",
        "★ ammiraglio",
    ):
        assert said in washington, (said, washington)
    assert "A bordo: " in page.inner_text("#fleet-0 .ucard[data-unit='Enterprise']")
    assert "Marina imperiale giapponese" in page.inner_text("#fleet-1 h4")
    terrain = page.evaluate("[...document.querySelectorAll('#board .terrain-label')].map((e) => e.textContent)")
    assert {"Isola", "Banco di Nebbia", "Basso Fondale", "Banco di Sabbia"} <= set(terrain), terrain
    page.screenshot(path=str(screenshots / "admiral-it-movement.png"))
    assert page.evaluate(LAYOUT_PROBLEMS) == []
    # --- A move made on the board: the unit, the hint, the dice to pay with, and the log's line.
    click_square(page, int(page.locator("#board .pick.actor").first.get_attribute("data-sq")))
    page.wait_for_selector("#filter-line:not([hidden])")
    chosen = page.inner_text("#filter-text")
    assert re.match(rf"^[\w -]+ \({CLASSES} in [A-H][1-8]\)$", chosen), chosen
    unit = chosen.split(" (")[0]
    assert "Clicca una casella verde sul campo per muoverla lì." in page.inner_text("#decide")
    assert page.inner_text("#filter-clear") == "Tutte le unità"
    to = int(page.locator("#board .pick:not(.actor):not(.enemy)").first.get_attribute("data-sq"))
    before = state(page)
    click_square(page, to)
    page.wait_for_timeout(200)
    if state(page) == before:  # the dice to pay with are offered, in words
        assert "paga con:" in page.inner_text("#action-groups")
        assert page.locator("#action-groups .pay button", has_text="dado Movimento").count() >= 1
        page.screenshot(path=str(screenshots / "admiral-it-pay.png"))
    pay(page, before)
    square = "ABCDEFGH"[to % 8] + str(to // 8 + 1)
    page.wait_for_selector(f"#move-list li:has-text('Sud: {unit} muove da')")
    assert f" a {square} (dado " in page.inner_text("#move-list")
    page.wait_for_selector("#decide:not([hidden])", timeout=20_000)
    page.locator("#moves").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "admiral-it-log.png"))
    # --- A phone: the same page, nothing cut off or sticking out.
    phone = italian_page(browser, 390, 844)
    seat.open(phone)
    phone.wait_for_selector("#decide:not([hidden])", timeout=20_000)
    phone.wait_for_timeout(300)
    phone.screenshot(path=str(screenshots / "admiral-it-phone-board.png"))
    phone.locator("#decide").scroll_into_view_if_needed()
    phone.screenshot(path=str(screenshots / "admiral-it-phone-decision.png"))
    phone.locator("#fleets").scroll_into_view_if_needed()
    phone.screenshot(path=str(screenshots / "admiral-it-phone-fleets.png"))
    phone.screenshot(path=str(screenshots / "admiral-it-phone-full.png"), full_page=True)
    assert phone.evaluate(LAYOUT_PROBLEMS) == []
    # The deployment of another solo game: its long help and its three buttons on a phone.
    deploy = italian_page(browser, 390, 844)
    solo_game(deploy, live_server)
    deploy.wait_for_selector("#setup:not([hidden])")
    assert deploy.inner_text("#setup h2").upper() == "SCHIERA LA TUA FLOTTA"
    assert deploy.inner_text("#deploy-help").startswith("Partita in solitaria: la tua flotta si schiera dal tuo angolo")
    assert deploy.inner_text("#deploy-confirm") == "Conferma"  # "Conferma lo schieramento" stuck out of a phone
    deploy.locator("#setup").scroll_into_view_if_needed()
    deploy.screenshot(path=str(screenshots / "admiral-it-phone-deploy.png"))
    assert deploy.evaluate(LAYOUT_PROBLEMS) == []
    assert page.errors == [] and phone.errors == [] and deploy.errors == []


def test_the_replay_of_an_admiral_game_reads_in_italian(browser: Any, live_server: str, screenshots: Path) -> None:
    """The replay viewer's Admiral (replay_admiral.js): the rolls, the decisions, the report and the fleets in the
    Italian words of the game page."""
    page = italian_page(browser, 1280, 800)
    gid = finish_a_hotseat_game(page, live_server, "admiral", "archipelago", {"max_turns": 2}, 400)
    steps = page.request.get(f"{live_server}/api/games/{gid}/replay").json()["steps"]
    page.goto(f"{live_server}/replay/{gid}")
    page.wait_for_selector("#controls:not([hidden])")
    page.keyboard.press("ArrowRight")  # the initiative roll
    assert page.inner_text("#last-text").startswith("Dadi lanciati — Iniziativa · turno 1:"), page.inner_text(
        "#last-text"
    )
    move = next(s["n"] for s in steps if s["notation"].startswith("move:"))
    page.click(f'#move-list li[data-n="{move}"]')
    said = page.inner_text("#last-text")
    assert re.search(r"(Sud|Nord) — Movimento · turno \d+:\n.+ muove (da [A-H][1-8] )?a [A-H][1-8]", said), said
    side = page.inner_text("#side")
    assert page.inner_text("#side-title").upper() == "FLOTTE" and "Sud — Marina degli Stati Uniti" in side, side
    reported = [s["n"] for s in steps if s["set"].get("report")]
    if reported:
        page.click(f'#move-list li[data-n="{reported[0]}"]')
        report = page.inner_text("#last-text .report")
        assert not ENGLISH.findall(report) and not ENGINE_WORDS.findall(report), report
    page.screenshot(path=str(screenshots / "admiral-it-replay.png"))
    assert page.errors == []
