"""Hostile record files: every bad input is a `RecordError` (a violation in `fogofwar replay --check`), never a
traceback, and reading stays bounded in memory and time.

Findings reproduced here: a non-UTF-8, deeply nested or huge-integer JSON record aborted the whole replay batch
with a traceback (and a 5,000-digit integer was a ValueError, a 500 in the web app); a small zip holding a huge
entry was inflated whole into memory; XML with a DTD (billion laughs) or deep nesting was parsed as given.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import struct
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.tiny_barrage import MOVES, PIECES
from typer.testing import CliRunner

from fogofwar.core import records
from fogofwar.core.agents import RandomAgent
from fogofwar.core.match import play_match
from fogofwar.core.protocol import RecordError
from fogofwar.core.records import FORMAT, GameRecord
from fogofwar.frontends.cli import app
from fogofwar.games.stratego.formats import gravon
from fogofwar.games.stratego.formats.gravon import GravonGame, format_field, parse_gravon_xml, read_gravon
from fogofwar.games.stratego.rules import StrategoGame
from fogofwar.tools.replay_check import GameCheck, check_files

runner = CliRunner()

GOOD_XML = (
    f'<?xml version="1.0" encoding="UTF-8"?><stratego><game type="barrage"><field content="{format_field(PIECES)}"/>'
    + "".join(f'<move id="{i}" source="{a}" target="{b}"/>' for i, (a, b) in enumerate(MOVES, 1))
    + '<player id="1">red</player><player id="2">blue</player><result type="1" winner="1"/></game></stratego>'
)
BILLION_LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">'
    + "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10))
    + "]><stratego><game type='barrage'><field content='&lol9;'/></game></stratego>"
)


def good_record() -> GameRecord:
    """A short finished barrage game (random play, seeded)."""
    return play_match(StrategoGame("barrage", max_moves=60), [RandomAgent(), RandomAgent()], seed=3)


GOOD = good_record()
GOOD_JSON = GOOD.to_json()


def zip_bytes(entries: dict[str, str | bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return out.getvalue()


def write_zip(path: Path, entries: dict[str, str | bytes]) -> Path:
    path.write_bytes(zip_bytes(entries))
    return path


def zeros_zip(path: Path, size: int) -> Path:
    """A zip with one entry of `size` zero bytes, written in 1 MiB pieces (deflate makes it ~1000 times smaller)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z, z.open("bomb.xml", "w") as f:
        block = b"\0" * (1 << 20)
        left = size
        while left:
            f.write(block[: min(left, len(block))])
            left -= min(left, len(block))
    return path


def with_declared_size(data: bytes, size: int) -> bytes:
    """A one-entry zip whose headers (local and central) claim `size` uncompressed bytes."""
    out = bytearray(data)
    out[22:26] = struct.pack("<I", size)
    central = out.index(b"PK\x01\x02")
    out[central + 24 : central + 28] = struct.pack("<I", size)
    return bytes(out)


def record_text(**fields: Any) -> str:
    return json.dumps({**GOOD_JSON, **fields}, ensure_ascii=False)


def checks(paths: list[Path]) -> list[GameCheck]:
    return list(check_files(paths))


def flat(text: str) -> str:
    """The output with rich's line wrapping undone."""
    return " ".join(text.split())


# --- JSON records: the three findings ------------------------------------------------------------------------


def test_a_good_record_still_loads_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "good.json"
    GOOD.save(path)
    record = GameRecord.load(path)
    assert record.to_json() == GOOD_JSON
    assert record.replay().to_json() == GOOD.replay().to_json()
    assert GameRecord.loads(GOOD.dumps().encode("utf-8")).to_json() == GOOD_JSON


def test_a_non_utf8_record_is_a_record_error(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(record_text(players=["é", "b"]).encode("latin-1"))
    with pytest.raises(RecordError, match="not UTF-8"):
        GameRecord.load(path)
    with pytest.raises(RecordError, match="not UTF-8"):
        GameRecord.loads(b'{"format": "\xff"}')


def test_a_deeply_nested_record_is_a_record_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 2000 + "]" * 2000, encoding="utf-8")
    with pytest.raises(RecordError, match="nested"):
        GameRecord.load(path)
    # Deep, but within the JSON parser's reach: the record's own depth cap refuses it.
    deep = "[" * (records.MAX_RECORD_DEPTH + 5) + "]" * (records.MAX_RECORD_DEPTH + 5)
    with pytest.raises(RecordError, match=f"nested deeper than {records.MAX_RECORD_DEPTH}"):
        GameRecord.loads(record_text()[:-1] + f', "metadata": {{"x": {deep}}}}}')
    # Built in Python far deeper than any recursion limit.
    value: Any = []
    for _ in range(100_000):
        value = [value]
    with pytest.raises(RecordError, match="nested deeper"):
        GameRecord.from_json({**GOOD_JSON, "metadata": {"x": value}})


def test_a_huge_integer_is_a_record_error(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_text(record_text()[:-1] + ', "version": ' + "1" * 5000 + "}", encoding="utf-8")
    with pytest.raises(RecordError, match="integer"):
        GameRecord.load(path)
    with pytest.raises(RecordError, match="integer"):
        GameRecord.loads(record_text()[:-1] + ', "actions": [' + "9" * 5000 + "]}")
    for field in ("version", "actions", "metadata", "outcome", "options"):
        big: Any = 10**5000
        value = {"actions": [big], "metadata": {"seed": big}, "outcome": {"termination": "resignation", "winner": big}}
        with pytest.raises(RecordError) as caught:
            GameRecord.from_json({**GOOD_JSON, field: value.get(field, big)})
        str(caught.value).encode("utf-8")  # the message itself never prints the integer
    # Integers of up to MAX_INT_DIGITS digits are fine (seeds, counts).
    seed = 10**records.MAX_INT_DIGITS - 1
    assert GameRecord.loads(record_text(metadata={"seed": seed})).metadata == {"seed": seed}


def test_a_record_over_the_size_cap_is_refused_before_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.json"
    path.write_text(record_text(metadata={"pad": "x" * 5000}), encoding="utf-8")
    monkeypatch.setattr("fogofwar.core.records.MAX_RECORD_BYTES", 4096)
    with pytest.raises(RecordError, match=r"over the cap of 4,096 bytes"):
        GameRecord.load(path)
    with pytest.raises(RecordError, match=r"over the cap of 100"):
        GameRecord.loads(path.read_text(encoding="utf-8"), max_bytes=100)
    assert GameRecord.load(path, max_bytes=1 << 20).metadata["pad"] == "x" * 5000


BAD_FIELDS: list[tuple[str, Any, str]] = [
    ("options", [], '"options" must be an object'),
    ("options", "classic", '"options" must be an object'),
    ("actions", {"0": 1}, '"actions" must be a list'),
    ("actions", ["1"], "action 1 must be an integer"),
    ("actions", [True], "action 1 must be an integer"),
    ("actions", [-1], "action 1 must be an integer from 0"),
    ("actions", [2**40], "action 1 must be an integer from 0"),
    ("actions", [1.5], "action 1 must be an integer"),
    ("game", 7, '"game" must be a string'),
    ("game", ["stratego"], '"game" must be a string'),
    ("game", "chess", "cannot build game 'chess'"),
    ("version", "1", "version '1' is not supported"),
    ("version", True, "version true is not supported"),
    ("players", "ab", '"players" must be a list of strings'),
    ("players", [1, 2], '"players" must be a list of strings'),
    ("notation", [[]], '"notation" must be a list of strings'),
    ("outcome", [], '"outcome" must be an object'),
    ("outcome", {"termination": "nonsense"}, "termination"),
    ("outcome", {"termination": "resignation", "winner": "0"}, "winner"),
    ("outcome", {"termination": "resignation", "winner": 0, "reason": 5}, "reason"),
    ("start", [], '"start" must be an object'),
    ("metadata", ["x"], '"metadata" must be an object'),
    ("metadata", {"x": float("nan")}, "NaN"),
    ("players", ["\ud800", "b"], "surrogate"),
    ("metadata", {"\udcff": 1}, "surrogate"),
    ("metadata", {1: 1}, "key"),
    ("metadata", {"x": (1, 2)}, "not a JSON value"),
    ("metadata", {"x": b"bytes"}, "not a JSON value"),
]


@pytest.mark.parametrize(("field", "value", "words"), BAD_FIELDS)
def test_a_wrong_type_anywhere_is_a_record_error(field: str, value: Any, words: str) -> None:
    with pytest.raises(RecordError, match=re.escape(words)):
        GameRecord.from_json({**GOOD_JSON, field: value})


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "not JSON"),
        ("[1, 2]", "not a fogofwar record"),
        ('"\\ud800"', "not a fogofwar record"),
        (record_text()[:-1] + ', "metadata": {"x": NaN}}', "NaN"),
        (record_text()[:-1] + ', "metadata": {"x": -Infinity}}', "Infinity"),
        (record_text()[:-1] + ', "players": ["\\ud800x", "b"]}', "surrogate"),
        ("\ufeff" + record_text()[:-1] + ', "players": ["\\udfff", "b"]}', "surrogate"),
    ],
)
def test_bad_json_text_is_a_record_error(text: str, words: str) -> None:
    with pytest.raises(RecordError, match=re.escape(words)):
        GameRecord.loads(text)


# --- Gravon archives and XML files ---------------------------------------------------------------------------


def games(path: Path) -> list[GravonGame | RecordError]:
    return list(read_gravon(path))


def test_a_good_archive_still_reads(tmp_path: Path) -> None:
    items = games(write_zip(tmp_path / "good.zip", {"a.xml": GOOD_XML, "b.xml": GOOD_XML.encode()}))
    assert [type(i) for i in items] == [GravonGame, GravonGame]
    game = items[0]
    assert isinstance(game, GravonGame)
    assert game.moves == tuple(MOVES) and game.players == ("red", "blue") and (game.result_type, game.winner) == (1, 1)


def test_a_zip_bomb_entry_is_refused_at_the_cap(tmp_path: Path) -> None:
    """An entry of MAX_ENTRY_BYTES + 1 zeros (a few KiB compressed) is refused; the next entry is still read."""
    bomb = zeros_zip(tmp_path / "bomb.zip", gravon.MAX_ENTRY_BYTES + 1)
    assert bomb.stat().st_size < 64 << 10
    data = bomb.read_bytes()
    zeros = b"\0" * (gravon.MAX_ENTRY_BYTES + 1)
    items = games(write_zip(tmp_path / "mixed.zip", {"a.xml": GOOD_XML, "bomb.xml": zeros, "c.xml": GOOD_XML}))
    assert [type(i) for i in items] == [GravonGame, gravon.UnreadableGame, GravonGame]
    assert re.search(r"mixed\.zip:bomb\.xml: .*over the cap of [\d,]+ bytes", str(items[1]))
    # The same entry whose headers claim 10 bytes: the reader stops, it never trusts the header alone.
    (tmp_path / "liar.zip").write_bytes(with_declared_size(data, 10))
    [item] = games(tmp_path / "liar.zip")
    assert isinstance(item, gravon.UnreadableGame), item


def test_a_huge_entry_is_read_in_bounded_pieces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the cap lowered, a 32 MiB entry whose headers claim only 1 KiB stops right after the cap."""
    monkeypatch.setattr(gravon, "MAX_ENTRY_BYTES", 256 << 10)
    path = zeros_zip(tmp_path / "big.zip", 32 << 20)
    [item] = games(path)
    assert isinstance(item, gravon.UnreadableGame) and "over the cap of 262,144 bytes" in str(item)
    path.write_bytes(with_declared_size(path.read_bytes(), 1024))
    [item] = games(path)
    assert isinstance(item, gravon.UnreadableGame)


class Endless(io.RawIOBase):
    """A stream of well-formed XML that never ends: `<stratego>` and then spaces forever."""

    def __init__(self) -> None:
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        head = b"<stratego>" if self.given == 0 else b""
        n = len(buffer)
        buffer[:n] = (head + b" " * n)[:n]
        self.given += n
        return n


def test_a_stream_is_read_only_up_to_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever a header says, the reader itself stops one chunk after MAX_ENTRY_BYTES."""
    monkeypatch.setattr(gravon, "MAX_ENTRY_BYTES", 1 << 20)
    stream = Endless()
    with pytest.raises(gravon.UnreadableGame, match="over the cap of 1,048,576 bytes"):
        gravon.read_gravon_stream(stream, "endless.xml")
    assert stream.given <= (1 << 20) + (1 << 17)


def test_a_header_declaring_a_huge_entry_is_refused_without_reading(tmp_path: Path) -> None:
    path = write_zip(tmp_path / "claims.zip", {"a.xml": GOOD_XML})
    path.write_bytes(with_declared_size(path.read_bytes(), 1 << 30))
    [item] = games(path)
    assert (
        isinstance(item, gravon.UnreadableGame) and "1,073,741,824 bytes" in str(item) and "over the cap" in str(item)
    )


def test_too_many_entries_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gravon, "MAX_ARCHIVE_ENTRIES", 3)
    path = write_zip(tmp_path / "many.zip", {f"{i}.xml": GOOD_XML for i in range(5)})
    [item] = games(path)
    assert isinstance(item, gravon.UnreadableGame) and "5 entries, over the cap of 3" in str(item)


def test_other_compression_methods_and_encryption_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "bz.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_BZIP2) as z:
        z.writestr("a.xml", GOOD_XML)
    [item] = games(path)
    assert isinstance(item, gravon.UnreadableGame) and "compression" in str(item)
    data = bytearray(write_zip(tmp_path / "enc.zip", {"a.xml": GOOD_XML}).read_bytes())
    data[6] |= 1  # the "encrypted" flag, in the local and the central header
    data[data.index(b"PK\x01\x02") + 8] |= 1
    (tmp_path / "enc.zip").write_bytes(bytes(data))
    [item] = games(tmp_path / "enc.zip")
    assert isinstance(item, gravon.UnreadableGame) and "encrypted" in str(item)


@pytest.mark.parametrize(
    ("xml", "words"),
    [
        (BILLION_LAUGHS, "DOCTYPE"),
        ('<!DOCTYPE s SYSTEM "file:///etc/passwd"><stratego/>', "DOCTYPE"),
        ("<a>" * 5000 + "</a>" * 5000, "nested deeper than"),
        ("<stratego><game>" + "<x>" * 100 + "</x>" * 100 + "</game></stratego>", "nested deeper than"),
        (GOOD_XML.replace('winner="1"', 'winner="' + "1" * 5000 + '"'), ""),
        (GOOD_XML.replace('type="1"', 'type="' + "1" * 5000 + '"'), ""),
        (GOOD_XML.replace('winner="1"', 'winner="²"'), ""),
        ("<stratego><game><field/><move source='A1' target='A2'/></game></stratego>", "no <field content"),
        ("<stratego/>", "no <game> element"),
        ("\ufffe", "not well-formed XML"),
        ("<a>\ud800</a>", "not well-formed XML"),
    ],
)
def test_hostile_xml_is_an_unreadable_game(tmp_path: Path, xml: str, words: str) -> None:
    path = tmp_path / "x.xml"
    path.write_bytes(xml.encode("utf-8", "surrogatepass"))
    [item] = games(path)
    assert isinstance(item, (GravonGame, RecordError))
    if words:
        assert isinstance(item, gravon.UnreadableGame) and words in str(item), item
        with pytest.raises(RecordError, match=re.escape(words) if "\ud800" not in xml else "not UTF-8"):
            parse_gravon_xml(xml, "x.xml")
    else:  # odd result attributes are read as "no result", as before
        assert isinstance(item, GravonGame) and (item.winner is None or item.result_type is None)


def test_an_xml_file_over_the_cap_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gravon, "MAX_ENTRY_BYTES", 100)
    path = tmp_path / "big.xml"
    path.write_text(GOOD_XML, encoding="utf-8")
    [item] = games(path)
    assert isinstance(item, gravon.UnreadableGame) and "over the cap of 100 bytes" in str(item)
    with pytest.raises(gravon.UnreadableGame, match="over the cap of 100 bytes"):
        parse_gravon_xml(GOOD_XML, "big.xml")


# --- the batch goes on --------------------------------------------------------------------------------------


def bad_files(tmp_path: Path) -> dict[str, Path]:
    """One file per finding, each named for what is wrong with it."""
    files = {
        "latin1.json": record_text(players=["é", "b"]).encode("latin-1"),
        "deep.json": ("[" * 2000 + "]" * 2000).encode(),
        "huge.json": (record_text()[:-1] + ', "metadata": {"n": ' + "7" * 5000 + "}}").encode(),
        "types.json": record_text(options=[], actions="none").encode(),
        "laughs.xml": BILLION_LAUGHS.encode(),
        "notazip.zip": b"PK\x03\x04 not a zip",
    }
    out = {}
    for name, data in files.items():
        out[name] = tmp_path / name
        out[name].write_bytes(data)
    out["bomb.zip"] = zeros_zip(tmp_path / "bomb.zip", gravon.MAX_ENTRY_BYTES + 1)
    return out


def test_check_files_reports_each_bad_file_and_goes_on(tmp_path: Path) -> None:
    first = write_zip(tmp_path / "first.zip", {"a.xml": GOOD_XML})
    last = tmp_path / "last.json"
    GOOD.save(last)
    bad = bad_files(tmp_path)
    results = checks([first, *bad.values(), last])
    assert results[0].source == "first.zip:a.xml" and results[0].moves == len(MOVES) and not results[0].violations
    assert results[-1].source == "last.json" and results[-1].moves > 0 and not results[-1].violations
    middle = results[1:-1]
    assert len(middle) == len(bad) and all(r.unreadable and len(r.violations) == 1 for r in middle)
    reasons = {r.source.split(":")[0]: r.violations[0] for r in middle}
    assert "not UTF-8" in reasons["latin1.json"]
    assert "nested" in reasons["deep.json"]
    assert "integer" in reasons["huge.json"]
    assert '"options" must be an object' in reasons["types.json"]
    assert "DOCTYPE" in reasons["laughs.xml"]
    assert "cannot open the archive" in reasons["notazip.zip"]
    assert "over the cap" in reasons["bomb.zip"]


def test_the_cli_reports_each_bad_file_and_goes_on(tmp_path: Path) -> None:
    first = write_zip(tmp_path / "first.zip", {"a.xml": GOOD_XML})
    last = tmp_path / "last.json"
    GOOD.save(last)
    bad = bad_files(tmp_path)
    result = runner.invoke(app, ["replay", "--check", str(first), *map(str, bad.values()), str(last)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1, result.output
    out = flat(result.output)
    for name in bad:
        assert name in out
    assert "latin1.json: not UTF-8" in out and "bomb.zip:bomb.xml:" in out and "DOCTYPE" in out
    last_moves = next(r.moves for r in checks([last]))
    lines = result.output.strip().splitlines()
    assert lines[-1] == f"{2 + len(bad)} games, {len(MOVES) + last_moves} moves, {len(bad)} violations"
    assert "Traceback" not in result.output


def test_an_engine_failure_is_a_violation_and_the_batch_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last line of defence: an exception the rules engine should not raise (a bug) is reported, not fatal."""
    import fogofwar.tools.replay_check as replay_check

    real = replay_check.replay_gravon

    def flaky(game: GravonGame, **options: Any) -> Any:
        if game.source.endswith("b.xml"):
            raise KeyError(10**5000)  # not even printable
        return real(game, **options)

    monkeypatch.setattr(replay_check, "replay_gravon", flaky)
    path = write_zip(tmp_path / "three.zip", {"a.xml": GOOD_XML, "b.xml": GOOD_XML, "c.xml": GOOD_XML})
    last = tmp_path / "last.json"
    GOOD.save(last)
    results = checks([path, last])
    assert [len(r.violations) for r in results] == [0, 1, 0, 0]
    assert "the rules engine failed on this game (KeyError" in results[1].violations[0]
    monkeypatch.setattr(GameRecord, "replay", lambda self, check=True: {}["boom"])
    [result] = checks([last])
    assert "the rules engine failed on this game (KeyError: 'boom')" in result.violations[0]


def test_the_cli_prints_hostile_names_safely(tmp_path: Path) -> None:
    """A zip member name with a terminal escape, a file name that is not UTF-8: printed escaped, not raw."""
    path = write_zip(tmp_path / "names.zip", {"\x1b[2Jx.xml": "<stratego/>"})
    odd = tmp_path / "caf\udce9.json"  # the byte 0xE9 in a Latin-1 file name
    odd.write_bytes(b"{}")
    result = runner.invoke(app, ["replay", "--check", str(path), str(odd)])
    assert result.exit_code == 1, result.output
    assert "\x1b" not in result.output and "\\x1b[2Jx.xml" in result.output
    assert "caf\\udce9.json" in flat(result.output)


# --- fuzzing: only RecordError comes out ----------------------------------------------------------------------

SURROGATES = st.integers(0xD800, 0xDFFF).map(chr)
TEXT = st.text(max_size=6) | st.tuples(st.text(max_size=3), SURROGATES).map("".join)
HUGE_INTS = st.integers(0, 6000).map(lambda n: -(10**n) if n % 2 else 10**n)
SCALARS = st.none() | st.booleans() | st.integers() | HUGE_INTS | st.floats() | TEXT


def nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value] if depth % 2 else {"k": value}
    return value


JSON_VALUES = st.recursive(
    SCALARS | st.integers(0, 3000).map(nested),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(TEXT, children, max_size=4),
    max_leaves=12,
)
RECORDS = st.fixed_dictionaries(
    {},
    optional={
        "format": st.just(FORMAT) | JSON_VALUES,
        "version": st.just(1) | JSON_VALUES,
        "game": st.sampled_from(["stratego", "lotr", "admiral"]) | JSON_VALUES,
        "options": st.just({"variant": "barrage"}) | JSON_VALUES,
        "actions": st.lists(st.integers(-5, 20_000), max_size=5) | JSON_VALUES,
        "notation": st.lists(TEXT, max_size=3) | JSON_VALUES,
        "players": st.lists(TEXT, max_size=3) | JSON_VALUES,
        "outcome": st.fixed_dictionaries({"termination": st.just("resignation"), "winner": JSON_VALUES}) | JSON_VALUES,
        "start": st.none() | JSON_VALUES,
        "metadata": st.dictionaries(TEXT, JSON_VALUES, max_size=3) | JSON_VALUES,
    },
)


def only_record_errors(read: Callable[[], GameRecord]) -> None:
    """`read()` returns a record that writes back as UTF-8 JSON, or raises RecordError with a printable message."""
    try:
        record = read()
    except RecordError as exc:
        str(exc).encode("utf-8")
        return
    text = record.dumps()
    text.encode("utf-8")
    assert GameRecord.loads(text).to_json() == record.to_json()


@settings(derandomize=True, max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=JSON_VALUES | RECORDS)
def test_fuzz_from_json_raises_only_record_errors(data: Any) -> None:
    only_record_errors(lambda: GameRecord.from_json(data))
    if isinstance(data, dict):
        only_record_errors(lambda: GameRecord.from_json({**GOOD_JSON, **data}))


def json_text(draw_leaf: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """JSON text (valid or nearly), with what json.dumps cannot write: huge integers, NaN, lone surrogates."""
    return st.recursive(
        draw_leaf,
        lambda children: (
            st.lists(children, max_size=4).map(lambda xs: "[" + ",".join(xs) + "]")
            | st.lists(st.tuples(TEXT.map(json.dumps), children), max_size=4).map(
                lambda kvs: "{" + ",".join(f"{k}:{v}" for k, v in kvs) + "}"
            )
        ),
        max_leaves=10,
    )


LEAVES = (
    st.integers().map(str)
    | st.integers(1, 6000).map(lambda n: "9" * n)
    | st.sampled_from(["true", "null", "NaN", "-Infinity", "1e999", '"\\ud800"', '"x\\udfff"', "[", '"'])
    | TEXT.map(json.dumps)
    | st.integers(900, 3000).map(lambda n: "[" * n + "]" * n)
)
FIELDS = st.sampled_from(["format", "version", "game", "options", "actions", "players", "outcome", "start", "metadata"])


@settings(derandomize=True, max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=FIELDS, value=json_text(LEAVES), cut=st.integers(0, 40), raw=st.binary(max_size=40))
def test_fuzz_loads_raises_only_record_errors(field: str, value: str, cut: int, raw: bytes) -> None:
    base = {k: v for k, v in GOOD_JSON.items() if k != field}
    text = json.dumps(base)[:-1] + f', "{field}": {value}' + "}"
    only_record_errors(lambda: GameRecord.loads(text))
    only_record_errors(lambda: GameRecord.loads(value))
    only_record_errors(lambda: GameRecord.loads(text.encode("utf-8", "surrogatepass")))
    only_record_errors(lambda: GameRecord.loads(text.encode("utf-8", "surrogatepass")[:-cut] + raw))


GOOD_ZIP = zip_bytes({"a.xml": GOOD_XML, "b.xml": GOOD_XML[:200]})


@settings(derandomize=True, max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    raw=st.binary(max_size=300),
    flips=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=6),
    xml_cut=st.integers(0, len(GOOD_XML)),
    text=st.text(max_size=40) | TEXT,
)
def test_fuzz_gravon_reader_yields_only_games_or_record_errors(
    tmp_path_factory: pytest.TempPathFactory, raw: bytes, flips: list[tuple[int, int]], xml_cut: int, text: str
) -> None:
    tmp = tmp_path_factory.getbasetemp() / "gravon-fuzz"
    tmp.mkdir(exist_ok=True)
    mutated = bytearray(GOOD_ZIP)
    for at, byte in flips:
        mutated[at % len(mutated)] = byte
    xml = GOOD_XML[:xml_cut] + text + GOOD_XML[xml_cut:]
    cases = {"raw.zip": raw, "raw.xml": raw, "mutated.zip": bytes(mutated), "x.xml": xml.encode("utf-8", "replace")}
    for name, data in cases.items():
        path = tmp / name
        path.write_bytes(data)
        for item in read_gravon(path):
            assert isinstance(item, (GravonGame, RecordError))
            if isinstance(item, RecordError):
                str(item).encode("utf-8")
    for source in (raw, xml):
        with contextlib.suppress(RecordError):
            parse_gravon_xml(source, "fuzz")
