"""What a newcomer reads in the browser: no dead ends, no engine words, no silent surprises (the readability
issue's findings, each checked in a real chromium)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .test_browser_admiral_readable import Seat
from .test_browser_lotr_admiral import create
from .test_browser_play import (
    LAYOUT_PROBLEMS,
    SIZES,
    create_in_lobby,
    new_page,
    open_seat,
    set_up_by_sample,
    sized_page,
)
from .test_browser_setup_replay import drag, finish_a_hotseat_game, rank_on, square

pytestmark = pytest.mark.browser


def test_an_unknown_game_link_says_so_and_leads_back(browser: Any, live_server: str, screenshots: Path) -> None:
    """It said "reconnecting..." forever above empty cards."""
    page = new_page(browser)
    page.goto(f"{live_server}/game/nosuchgame")
    page.wait_for_selector("#result:not([hidden])", timeout=10000)
    page.wait_for_timeout(1500)  # a reconnect would have begun by now
    assert page.inner_text("#title") == "No such game" and "reconnecting" not in page.inner_text("#conn")
    assert "nosuchgame" in page.inner_text("#result-sub")
    assert page.locator("#result a[href='/']").is_visible()  # the way back to the lobby
    page.screenshot(path=str(screenshots / "no-such-game.png"))
    assert not page.errors


def test_a_used_invitation_says_so_instead_of_silently_making_a_spectator(browser: Any, live_server: str) -> None:
    host = new_page(browser)
    create_in_lobby(host, live_server, "invite")
    host.wait_for_selector("#invite:not([hidden])")
    link = host.input_value("#invite-link")
    guest = new_page(browser)
    guest.goto(link)
    guest.wait_for_selector("#join:not([hidden])")
    assert guest.locator("#join-used").is_hidden()
    guest.click("#join-button")
    guest.wait_for_selector("#setup:not([hidden])")
    late = new_page(browser)  # the same link, opened again in another browser
    late.goto(link)
    late.wait_for_selector("#join-used:not([hidden])")
    assert late.locator("#join").is_hidden() and "spectator" in late.inner_text("#join-used")
    for page in (host, guest, late):
        assert not page.errors


def test_the_computer_is_named_as_the_lobby_names_it(browser: Any, live_server: str) -> None:
    """The header said "vs computer (stratego)" for Admiral Stratego."""
    page = new_page(browser)
    create(page, live_server, "admiral", "archipelago", "stratego")
    page.wait_for_selector("#title:has-text('Admiral Stratego')")
    assert "vs Admiral Stratego (computer)" in page.inner_text("#title")
    assert "(stratego)" not in page.inner_text("#title") + page.inner_text("#players")
    assert not page.errors


def test_random_fills_the_rest_and_keeps_what_was_placed(browser: Any, live_server: str) -> None:
    """Random threw away the pieces placed by hand (Stratego and LOTR)."""
    page = new_page(browser)
    body = {"variant": "barrage", "opponent": "random", "color": "red", "options": {"max_moves": 40}}
    open_seat(page, live_server, body)
    page.wait_for_selector("#setup:not([hidden])")
    drag(page, '#setup-tray .tray-piece[data-key="flag"]', square(0))
    drag(page, '#setup-tray .tray-piece[data-key="bomb"]', square(1))
    page.click("#setup-random")
    page.wait_for_function("document.querySelectorAll('#board .piece.red').length === 8")
    assert (rank_on(page, 0), rank_on(page, 1)) == ("flag", "bomb")
    assert page.locator("#setup-tray .tray-piece").count() == 0
    page.click("#setup-random")  # nothing left to place: a whole new army
    page.wait_for_function("document.querySelectorAll('#board .piece.red').length === 8")
    lotr = new_page(browser)
    body = {"game": "lotr", "variant": "classic", "opponent": "random", "color": "evil"}
    open_seat(lotr, live_server, body)
    lotr.wait_for_selector("#setup:not([hidden])")
    drag(lotr, '#setup-tray .tray-piece[data-key="flag"]', square(4))
    lotr.click("#setup-random")
    lotr.wait_for_function("document.querySelectorAll('#board .piece.s0').length === 40")
    assert lotr.locator('#board .piece.s0[data-sq="4"][data-kind="flag"]').count() == 1
    assert not page.errors and not lotr.errors


def test_each_army_shows_what_it_still_has(browser: Any, live_server: str, screenshots: Path) -> None:
    """The terminal says what the enemy still has; the page only listed what was lost."""
    page = new_page(browser)
    body = {"variant": "barrage", "opponent": "random", "color": "red", "options": {"max_moves": 40}}
    open_seat(page, live_server, body)
    page.wait_for_selector("#left-label-1:not([hidden])")
    assert page.locator("#left-1 .chip").count() == 7  # barrage: 8 pieces of 7 ranks
    assert "×2" in page.inner_text("#left-1")  # the two scouts
    lotr = new_page(browser)
    body = {"game": "lotr", "variant": "powers", "opponent": "random", "color": "evil"}
    open_seat(lotr, live_server, body)
    lotr.wait_for_selector("#left-label-1:not([hidden])")
    assert "Gimli" in lotr.inner_text("#left-1") and "Witch-king" in lotr.inner_text("#left-0")
    lotr.screenshot(path=str(screenshots / "lotr-still-has.png"))
    assert not page.errors and not lotr.errors


def test_players_read_no_rule_ids_unless_they_ask(browser: Any, live_server: str) -> None:
    """A refused move said "... (STR-MOVE-2)"; the words stay, the rule id moves to the tooltip."""
    page = new_page(browser)
    create_in_lobby(page, live_server, "random")
    set_up_by_sample(page)
    page.wait_for_selector("#board .piece.movable")
    sq = int(page.get_attribute("#board .piece.red.movable", "data-sq"))
    col, row = sq % 10, sq // 10
    files = "ABCDEFGHJK"
    diagonal = f"{files[col]}{row + 1}-{files[col + 1 if col < 9 else col - 1]}{row + 2}"
    page.fill("#move-input", diagonal)
    page.press("#move-input", "Enter")
    page.wait_for_selector("#toast:not([hidden])")
    assert "not a move along a row or column" in page.inner_text("#toast")
    assert "STR-" not in page.inner_text("#toast") and "STR-MOVE-2" in str(page.get_attribute("#toast", "title"))
    assert not page.errors


def test_the_pages_speak_italian_to_an_italian_browser(browser: Any, live_server: str, screenshots: Path) -> None:
    """The rulebooks of LOTR and Admiral are Italian: a browser that asks for Italian gets the lobby and the game
    pages in Italian, with the rulebooks' terms (Re Stregone, Poteri Speciali); the header switches language."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="it-IT", bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server + "/")
    page.wait_for_selector("#variant option", state="attached")
    assert page.inner_text("main h2") == "Nuova partita" and page.inner_text("#create-button") == "Crea la partita"
    assert page.evaluate("document.documentElement.lang") == "it"
    page.screenshot(path=str(screenshots / "lobby-it.png"))
    body = {"game": "lotr", "variant": "powers", "opponent": "random", "color": "evil"}
    open_seat(page, live_server, body)
    page.wait_for_selector("#setup:not([hidden])")
    assert "Gioco 2, Poteri Speciali" in page.inner_text("#title")
    assert page.locator("#setup-tray .tray-piece .name", has_text="Re Stregone").count() == 1
    assert "Tocca a te" in page.inner_text("#turn-text")
    page.screenshot(path=str(screenshots / "lotr-it.png"))
    page.select_option("#lang", "en")  # the player's choice outlasts the browser's
    page.wait_for_selector("#setup-tray .tray-piece .name:has-text('Witch-king')")
    page.goto(live_server + "/")
    page.wait_for_selector("#variant option", state="attached")
    assert page.inner_text("main h2") == "New game"
    assert not errors
    context.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_game_page_fits_every_screen(browser: Any, live_server: str, screenshots: Path, size: str) -> None:
    """No clipped or nested scrolling at 1280x800, 820x1180 and 390x844: the panel scrolled inside itself (Resign
    and the move box dropping below the fold), the tablet left half the screen empty."""
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    page = context.new_page()
    body = {"variant": "classic", "opponent": "random", "color": "red", "options": {"max_moves": 400}}
    open_seat(page, live_server, body)
    set_up_by_sample(page)
    for _ in range(14):  # enough moves for the move list to fill up
        page.wait_for_selector("#board .piece.movable")
        page.locator("#board .piece.movable").first.click(force=True)
        page.locator("#board .cell-hit.target-hit").first.click()
        page.wait_for_function("!document.querySelector('#board .piece.selected')")
        page.wait_for_timeout(150)
        if page.locator("#result:not([hidden])").count():
            break
    page.screenshot(path=str(screenshots / f"layout-{size}.png"), full_page=True)
    assert page.evaluate(LAYOUT_PROBLEMS) == []
    board = page.locator("#board-wrap").bounding_box()
    assert board is not None
    if height > width:  # upright: the board across the screen (it was beside the panel, half the tablet empty)
        assert board["width"] >= 0.85 * width
    else:
        assert board["height"] >= 0.8 * (height - 52)
    if size == "desktop":  # the controls stay in the first screen beside the board
        for selector in ("#status-card", "#resign-button"):
            box = page.locator(selector).bounding_box()
            assert box is not None and box["y"] + box["height"] <= height, selector
    context.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_pieces_can_be_dragged_in_play(browser: Any, live_server: str, size: str) -> None:
    """Setup had dragging; play had clicks only (Stratego and LOTR), on every screen."""
    page = sized_page(browser, size)
    create_in_lobby(page, live_server, "random")
    set_up_by_sample(page)
    page.wait_for_selector("#board .piece.movable")
    source = int(page.get_attribute("#board .piece.red.movable", "data-sq"))
    page.locator(f'#board .piece[data-sq="{source}"]').click(force=True)  # a click shows the targets...
    target = int(page.get_attribute("#board .cell-hit.target-hit", "data-sq"))
    page.locator(f'#board .piece[data-sq="{source}"]').click(force=True)  # ...and a second click drops them
    moves = page.locator("#move-list li").count()
    drag(page, f'#board .piece[data-sq="{source}"]', square(target))
    page.wait_for_function(f"document.querySelectorAll('#move-list li').length > {moves}")
    assert page.locator(f'#board .piece.red[data-sq="{target}"]').count() == 1 or "×" in page.inner_text("#move-list")
    assert page.evaluate(LAYOUT_PROBLEMS) == []
    lotr = sized_page(browser, size)
    body = {"game": "lotr", "variant": "classic", "opponent": "random", "color": "evil"}
    open_seat(lotr, live_server, body)
    lotr.wait_for_selector("#setup:not([hidden])")
    lotr.click("#setup-random")
    lotr.wait_for_selector("#setup-confirm:not([disabled])")
    lotr.click("#setup-confirm")
    lotr.wait_for_selector("#board .piece.movable")
    source = int(lotr.get_attribute("#board .piece.s0.movable", "data-sq"))
    lotr.locator(f'#board .piece[data-sq="{source}"]').click(force=True)
    target = int(lotr.get_attribute("#board .cell-hit.target-hit", "data-sq"))
    lotr.locator(f'#board .piece[data-sq="{source}"]').click(force=True)
    drag(lotr, f'#board .piece[data-sq="{source}"]', square(target))
    lotr.wait_for_function("document.querySelectorAll('#move-list li').length > 0")
    assert lotr.evaluate(LAYOUT_PROBLEMS) == []
    assert not page.errors and not lotr.errors


COUNT_ANIMATIONS = """
window.__animations = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  window.__animations.push(this.getAttribute("data-sq"));
  return animate.call(this, frames, options);
};
"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_moves_are_animated_unless_the_player_asks_for_less_motion(browser: Any, live_server: str, motion: str) -> None:
    """Pieces jumped and captured ones vanished; now the mover glides (220 ms) and the fallen fade, never for
    reduced motion."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True, reduced_motion=motion)
    context.add_init_script(COUNT_ANIMATIONS)
    page = context.new_page()
    create_in_lobby(page, live_server, "random")
    set_up_by_sample(page)
    page.wait_for_selector("#board .piece.movable")
    page.locator("#board .piece.movable").first.click(force=True)
    target = page.get_attribute("#board .cell-hit.target-hit", "data-sq")
    page.locator("#board .cell-hit.target-hit").first.click()
    page.wait_for_function("document.querySelectorAll('#move-list li').length >= 2")  # ours and the reply
    animated = page.evaluate("window.__animations")
    if motion == "reduce":
        assert animated == []
    else:
        assert target in animated  # our piece glided to its square (and then the reply's)
    context.close()


def test_lotr_characters_can_be_told_apart_on_a_phone(browser: Any, live_server: str, screenshots: Path) -> None:
    """At 390x844 the names on LOTR's pieces were too small to read: the board shows two big letters instead."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = context.new_page()
    body = {"game": "lotr", "variant": "powers", "opponent": "random", "color": "evil"}
    open_seat(page, live_server, body)
    page.wait_for_selector("#setup:not([hidden])")
    page.click("#setup-random")
    page.wait_for_selector("#board.compact .piece .initials")
    king = page.locator("#board .piece[data-kind=witch_king] .initials")
    assert king.text_content() == "WK" and king.is_visible()
    assert page.locator("#board .piece[data-kind=witch_king] .name").is_hidden()
    box = king.bounding_box()
    assert box is not None and box["height"] >= 9  # readable letters, not 4-pixel names
    page.screenshot(path=str(screenshots / "lotr-phone.png"))
    context.close()


def test_a_finished_game_and_its_replay_keep_what_matters_in_view(browser: Any, live_server: str) -> None:
    """A finished game opened with its result card clipped; in a replay, clicking a move scrolled the controls
    away. At 1280x800 the result and the replay controls stay in the first screen."""
    page = new_page(browser)
    gid = finish_a_hotseat_game(page, live_server, "lotr", "classic", {}, 60)
    page.goto(f"{live_server}/game/{gid}")
    page.wait_for_selector("#result:not([hidden])")
    box = page.locator("#result").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 800
    page.goto(f"{live_server}/replay/{gid}")
    page.wait_for_selector("#controls:not([hidden])")
    rows = page.locator("#move-list li")
    rows.nth(rows.count() - 1).click()
    rows.nth(rows.count() // 2).click()
    controls = page.locator("#controls").bounding_box()
    assert controls is not None and controls["y"] >= 0 and controls["y"] + controls["height"] <= 800
    assert not page.errors


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("game", ["lotr", "admiral"])
def test_lotr_and_admiral_fit_every_screen(
    browser: Any, live_server: str, screenshots: Path, game: str, size: str
) -> None:
    """LOTR in play (Game 2) and Admiral at its first movement decision (solo): nothing sticks out of the screen
    and nothing scrolls inside a scroll, at 1280x800, 820x1180 and 390x844."""
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    page = context.new_page()
    if game == "lotr":
        open_seat(page, live_server, {"game": "lotr", "variant": "powers", "opponent": "random", "color": "evil"})
        page.wait_for_selector("#setup:not([hidden])")
        page.click("#setup-random")
        page.wait_for_selector("#setup-confirm:not([disabled])")
        page.click("#setup-confirm")
        page.wait_for_selector("#board .piece.movable")
        page.locator("#board .piece.movable").first.click(force=True)
    else:
        seat = Seat(page, live_server)
        seat.to_movement()
        seat.open(page)
        page.wait_for_selector("#board .unit")
    page.wait_for_timeout(300)
    page.screenshot(path=str(screenshots / f"layout-{game}-{size}.png"), full_page=True)
    assert page.evaluate(LAYOUT_PROBLEMS) == []
    context.close()


def test_help_pages_are_one_click_away_in_the_readers_language(browser: Any, live_server: str) -> None:
    """/help and /rules were 404: the lobby and the game page link a quick guide per game, which links the rules
    reference (rule ids small, beside the rules); an Italian browser reads the Italian guide."""
    page = new_page(browser)
    page.goto(live_server + "/")
    page.click("#help-nav")
    page.wait_for_url(re.compile(r"/help$"))
    assert page.locator("#game [data-lang=en]").is_visible() and page.locator("#game [data-lang=it]").is_hidden()
    assert "Capture the enemy flag" in page.inner_text("#game")
    page.click("#game a[href='/rules/stratego']")
    page.wait_for_selector(".rule-id#STR-MOVE-1")
    small = page.evaluate(
        "parseFloat(getComputedStyle(document.getElementById('STR-MOVE-1')).fontSize)"
        " < parseFloat(getComputedStyle(document.querySelector('main.help')).fontSize)"
    )
    assert small  # the ids stay secondary to the rules' words
    create_in_lobby(page, live_server, "random")
    assert page.get_attribute("#help-nav", "href") == "/help#game"
    context = browser.new_context(locale="it-IT", bypass_csp=True)
    italian = context.new_page()
    italian.goto(live_server + "/help")
    italian.wait_for_selector("#lotr [data-lang=it]:not([hidden])")
    assert "Catturare la Bandiera avversaria" in italian.inner_text("#lotr")
    assert italian.locator("#lotr [data-lang=en]").is_hidden()
    assert italian.inner_text("header .title") == "Come si gioca"
    context.close()
    assert not page.errors


def test_a_finished_game_offers_a_rematch_with_the_sides_swapped(browser: Any, live_server: str) -> None:
    page = new_page(browser)
    create_in_lobby(page, live_server, "random")
    first = page.url
    set_up_by_sample(page)
    assert page.locator("#rematch-button").is_hidden()  # not while the game is on
    page.on("dialog", lambda d: d.accept())
    page.click("#resign-button")
    page.wait_for_selector("#rematch-button:not([hidden])")
    page.click("#rematch-button")
    page.wait_for_url(lambda url: url != first and "/game/" in url)
    page.wait_for_selector("#setup:not([hidden])")
    assert "Blue" in page.inner_text("#players") and "(you)" in page.inner_text("#players")
    assert page.inner_text("#players").index("(you)") > page.inner_text("#players").index("vs")  # now the second seat
    assert not page.errors


COUNT_TONES = """
window.__tones = 0;
window.AudioContext = class extends window.AudioContext {
  createOscillator() { window.__tones += 1; return super.createOscillator(); }
};
"""


def test_your_turn_shows_in_the_tab_and_can_chime(browser: Any, live_server: str) -> None:
    """A player in another tab learns it is their turn from the tab's title, and, if they switch sound on, a
    short tone."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    context.add_init_script(COUNT_TONES)
    page = context.new_page()
    create_in_lobby(page, live_server, "random")
    page.wait_for_selector("#setup:not([hidden])")
    assert page.title().startswith("● Your turn")  # the setup is this player's to do
    assert page.inner_text("#sound-button") == "Sound: off"
    page.click("#sound-button")  # on: it plays the tone once to say so
    assert page.inner_text("#sound-button") == "Sound: on" and page.evaluate("window.__tones") == 1
    set_up_by_sample(page)
    page.wait_for_selector("#board .piece.movable")
    page.wait_for_function("document.title.startsWith('● ')")
    page.locator("#board .piece.movable").first.click(force=True)
    page.locator("#board .cell-hit.target-hit").first.click()
    page.wait_for_function("document.querySelectorAll('#move-list li').length >= 2")
    page.wait_for_function("document.title.startsWith('● ')")
    assert page.evaluate("window.__tones") >= 2  # the turn came back: a tone
    page.reload()
    page.wait_for_selector("#sound-button")
    assert page.inner_text("#sound-button") == "Sound: on"  # the choice is kept in this browser
    context.close()


def test_two_players_can_agree_a_draw(browser: Any, live_server: str) -> None:
    host = new_page(browser)
    create_in_lobby(host, live_server, "invite")
    host.wait_for_selector("#invite:not([hidden])")
    guest = new_page(browser)
    guest.goto(host.input_value("#invite-link"))
    guest.wait_for_selector("#join:not([hidden])")
    guest.click("#join-button")
    set_up_by_sample(guest)
    set_up_by_sample(host)
    host.wait_for_selector("#draw-button:not([hidden])")
    for page in (host, guest):
        page.on("dialog", lambda d: d.accept())
    host.click("#draw-button")
    guest.wait_for_selector("#draw-card:not([hidden])")
    assert "offers a draw" in guest.inner_text("#draw-text")
    host.wait_for_selector("#draw-card:not([hidden])")
    assert "waits for an answer" in host.inner_text("#draw-text") and host.locator("#draw-accept").is_hidden()
    guest.click("#draw-decline")
    host.wait_for_selector("#draw-button:not([hidden])")  # declined: the game goes on, a new offer is possible
    host.click("#draw-button")
    guest.wait_for_selector("#draw-card:not([hidden])")
    guest.click("#draw-accept")
    for page in (host, guest):
        page.wait_for_selector("#result:not([hidden])")
        assert page.inner_text("#result-text").startswith("Draw")
        assert page.locator("#draw-button").is_hidden() and page.locator("#draw-card").is_hidden()
        assert not page.errors


def test_lotr_setups_can_be_saved_and_loaded_as_in_classic(browser: Any, live_server: str) -> None:
    page = new_page(browser)
    open_seat(page, live_server, {"game": "lotr", "variant": "powers", "opponent": "random", "color": "evil"})
    page.wait_for_selector("#setup:not([hidden])")
    assert page.locator("#setup-save").is_disabled()  # nothing placed yet
    page.click("#setup-random")
    page.wait_for_function("document.querySelectorAll('#board .piece.s0').length === 40")
    king = page.get_attribute("#board .piece.s0[data-kind=witch_king]", "data-sq")
    page.fill("#setup-save-name", "my evil")
    page.click("#setup-save")
    assert page.locator('#setup-saved option[value="my evil"]').count() == 1
    page.click("#setup-clear")
    assert page.locator("#board .piece.s0").count() == 0
    page.select_option("#setup-saved", "my evil")
    page.click("#setup-load")
    page.wait_for_function("document.querySelectorAll('#board .piece.s0').length === 40")
    assert page.get_attribute("#board .piece.s0[data-kind=witch_king]", "data-sq") == king
    assert not page.errors
