"""The accounts' routes: sign-up, sign-in and out, claiming this browser's games, profiles and leaderboards.

- `GET  /api/account`                 the signed-in player ({"name": null} if none) and its CSRF token
- `POST /api/account/signup`          {name, password}: a new account, signed in
- `POST /api/account/signin`          {name, password}; failed attempts are limited per name and per address
- `POST /api/account/signout`         (CSRF)
- `POST /api/account/claim`           {games: [{id, token}]} (CSRF): this browser's seats become the account's
- `GET  /api/players/{name}`          a profile: ratings per game mode and the player's games
- `GET  /api/leaderboard?mode=M`      the best ratings of a game mode, and the modes there are
- `GET  /api/games/{id}/accounts`     who sits where (account names), whether the game is rated, and once it is
                                      over what it did to each account's rating
- `GET  /account`, `/player/{name}`, `/leaderboard`   their pages

A request that acts for the signed-in player (signing out, claiming, creating or accepting a game as the
player) must carry the session's CSRF token in the `X-CSRF-Token` header (`signed_in`); the session
cookie is HttpOnly, SameSite=Lax, and Secure when the site is served over https.
"""

from __future__ import annotations

import asyncio
import hmac
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from fogofwar.frontends.server.account_store import AccountStore, NameTaken, User
from fogofwar.frontends.server.accounts import (
    CSRF_HEADER,
    SESSION_COOKIE,
    SESSION_DAYS,
    AccountError,
    check_name,
    check_password,
    hash_password,
    name_key,
    new_token,
    token_hash,
    verify_password,
)
from fogofwar.frontends.server.limits import SlidingWindow
from fogofwar.frontends.server.session import ClientError, game_info
from fogofwar.frontends.server.store import Summary

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
MAX_CLAIMS = 100

router = APIRouter()


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=40)
    password: str = Field(max_length=200)


class Claim(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(max_length=32)
    token: str = Field(max_length=100)


class Claims(BaseModel):
    model_config = ConfigDict(extra="forbid")
    games: list[Claim] = Field(max_length=MAX_CLAIMS)


def accounts_of(request: Request) -> AccountStore:
    store: AccountStore = request.app.state.accounts
    return store


def _limits(request: Request) -> tuple[SlidingWindow, SlidingWindow]:
    """Failed sign-ins (per name and per address) and sign-ups (per address), kept with the app."""
    state = request.app.state
    if not hasattr(state, "signin_attempts"):
        state.signin_attempts = SlidingWindow(limit=5, window=300.0)
        state.signup_attempts = SlidingWindow(limit=5, window=3600.0)
    return state.signin_attempts, state.signup_attempts


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


async def current_user(request: Request) -> tuple[User, str] | None:
    """The signed-in player of the request's session cookie and its CSRF token, or None."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token or len(token) > 100:
        return None
    return await asyncio.to_thread(accounts_of(request).session_user, token_hash(token))


async def signed_in(request: Request, required: bool = True) -> User | None:
    """The signed-in player acting through this request, its CSRF token checked; None if nobody is signed in
    and `required` is False. A missing or stale token is refused: the request may come from another site."""
    found = await current_user(request)
    if found is None:
        if required:
            raise ClientError("unauthorized", "sign in first", 401)
        return None
    user, csrf = found
    sent = request.headers.get(CSRF_HEADER, "")
    if not sent or not hmac.compare_digest(sent, csrf):
        raise ClientError("csrf", "missing or stale CSRF token: reload the page and try again", 403)
    return user


async def acting_user(request: Request, required: bool = False) -> User | None:
    """The signed-in player a game request acts for (its CSRF token checked), or None: a request without the
    session, or without its token, acts anonymously, unless the account is `required` (a rated game)."""
    try:
        return await signed_in(request, required)
    except ClientError:
        if required:
            raise
        return None


def _refuse(exc: AccountError) -> ClientError:
    return ClientError(exc.code, exc.message, exc.status)


async def _sign_in(request: Request, response: Response, user: User) -> dict[str, Any]:
    """Open a session: a fresh cookie and a fresh CSRF token (a token of an earlier session goes stale)."""
    token, csrf = new_token(), new_token()
    await asyncio.to_thread(accounts_of(request).open_session, user.id, token_hash(token), csrf, SESSION_DAYS)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=SESSION_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )
    return {"name": user.name, "csrf": csrf}


@router.get("/api/account")
async def account(request: Request) -> dict[str, Any]:
    found = await current_user(request)
    if found is None:
        return {"name": None, "csrf": None}
    return {"name": found[0].name, "csrf": found[1]}


@router.post("/api/account/signup", status_code=201)
async def signup(request: Request, response: Response, body: Credentials) -> dict[str, Any]:
    _, signups = _limits(request)
    wait = signups.wait(_address(request))
    if wait:
        raise ClientError("rate_limited", f"too many new accounts from this address: try again in {wait:.0f} s", 429)
    try:
        name = check_name(body.name)
        check_password(body.password, name)
    except AccountError as exc:
        raise _refuse(exc) from None
    signups.add(_address(request))  # every sign-up counts
    hashed = await asyncio.to_thread(hash_password, body.password)
    try:
        user = await asyncio.to_thread(accounts_of(request).create_user, name, name_key(name), hashed)
    except NameTaken:
        raise ClientError("name_taken", f"the name {name!r} is taken: choose another", 409) from None
    return await _sign_in(request, response, user)


@router.post("/api/account/signin")
async def signin(request: Request, response: Response, body: Credentials) -> dict[str, Any]:
    attempts, _ = _limits(request)
    key, address = name_key(body.name), _address(request)
    wait = max(attempts.wait("name:" + key), attempts.wait("addr:" + address))
    if wait:
        raise ClientError("rate_limited", f"too many failed sign-ins: try again in {wait:.0f} s", 429)
    found = await asyncio.to_thread(accounts_of(request).credentials, key)
    # A name nobody has costs a hash too, so that timing does not tell which names exist.
    stored = found[1] if found is not None else await asyncio.to_thread(hash_password, "no such player")
    good = await asyncio.to_thread(verify_password, stored, body.password[:200])
    if found is None or not good:
        attempts.add("name:" + key)
        attempts.add("addr:" + address)
        raise ClientError("bad_credentials", "wrong name or password", 401)
    attempts.forget("name:" + key)
    return await _sign_in(request, response, found[0])


@router.post("/api/account/signout")
async def signout(request: Request, response: Response) -> dict[str, Any]:
    await signed_in(request)
    token = request.cookies.get(SESSION_COOKIE, "")
    await asyncio.to_thread(accounts_of(request).close_session, token_hash(token))
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"name": None}


@router.post("/api/account/claim")
async def claim(request: Request, body: Claims) -> dict[str, Any]:
    """The games this browser played without an account become the account's (each seat proven by its token)."""
    user = await signed_in(request)
    assert user is not None
    manager = request.app.state.manager
    claimed: list[str] = []
    for item in body.games:
        seat = await manager.stored_seat(item.id, item.token)  # any worker's game: read from the database
        if seat is not None and await asyncio.to_thread(accounts_of(request).bind_seat, item.id, seat, user.id, False):
            claimed.append(item.id)
    return {"claimed": claimed}


@router.get("/api/players/{name}")
async def player(request: Request, name: str) -> dict[str, Any]:
    store = accounts_of(request)
    user = await asyncio.to_thread(store.user, name_key(name[:40]))
    if user is None:
        raise ClientError("not_found", f"no player named {name[:40]!r}", 404)
    ratings = await asyncio.to_thread(store.ratings_of, user.id)
    games: list[dict[str, Any]] = []
    metas = request.app.state.manager.store
    for game_id, seat in await asyncio.to_thread(store.games_of, user.id, 50):
        meta = await asyncio.to_thread(metas.game, game_id)
        if meta is not None:
            info = game_info(meta, Summary(meta.status, meta.to_move, meta.move_count, meta.outcome), meta.seq)
            games.append({**info, "your_seat": seat})
    return {
        "name": user.name,
        "since": user.created_at,
        "ratings": {mode: r.to_json() for mode, r in ratings.items()},
        "games": games,
    }


@router.get("/api/leaderboard")
async def leaderboard(request: Request, mode: str = Query("", max_length=64)) -> dict[str, Any]:
    store = accounts_of(request)
    modes = await asyncio.to_thread(store.modes)
    chosen = mode or (modes[0] if modes else "")
    rows = await asyncio.to_thread(store.leaderboard, chosen, 50) if chosen else []
    return {"modes": modes, "mode": chosen, "players": [{"name": u.name, **r.to_json()} for u, r in rows]}


@router.get("/api/games/{game_id}/accounts")
async def game_accounts(request: Request, game_id: str) -> dict[str, Any]:
    store = accounts_of(request)
    game_id = game_id[:32]
    seats = await asyncio.to_thread(store.seats, game_id)
    changes = await asyncio.to_thread(store.rating_changes, game_id)
    out: dict[str, Any] = {}
    for seat, (user, _rated) in sorted(seats.items()):
        entry: dict[str, Any] = {"name": user.name}
        if user.id in changes:
            entry["rating"] = {"before": changes[user.id][0], "after": changes[user.id][1]}
        out[str(seat)] = entry
    return {"rated": any(rated for _, rated in seats.values()), "seats": out}


def _page(name: str) -> FileResponse:
    return FileResponse(WEB_DIR / name, media_type="text/html")


@router.get("/account", include_in_schema=False)
async def account_page() -> FileResponse:
    return _page("account.html")


@router.get("/player/{name}", include_in_schema=False)
async def player_page(name: str) -> FileResponse:
    return _page("player.html")


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_page() -> FileResponse:
    return _page("leaderboard.html")
