"""Secrets and streams (fogofwar.core.randomness): 256-bit secrets, independent streams, no small seed.

The attack these tests stand against: every random thing of a hosted game used to come from one
Mersenne Twister seeded with a 31-bit number, so a player who saw its own random army could search
the seeds offline and then compute the computer's army and every future die.
"""

from __future__ import annotations

import hashlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fogofwar.core.randomness import SECRET_BYTES, KeyedRandom, Streams, new_secret, play_streams, seed_secret
from fogofwar.games.stratego.setup import random_setup
from fogofwar.games.stratego.variants import get_variant

labels = st.tuples(
    st.sampled_from(["setup", "agent", "chance", "preview"]), st.lists(st.integers(0, 10**6), max_size=3)
)


def test_a_new_secret_is_256_bits_from_the_os(monkeypatch: object) -> None:
    secrets_seen = {new_secret() for _ in range(200)}
    assert len(secrets_seen) == 200 and all(len(s) == SECRET_BYTES == 32 for s in secrets_seen)
    # Not a small number in disguise: the top bits are used (all 200 below 2**224 has odds 2**-6400).
    assert max(int.from_bytes(s, "big") for s in secrets_seen) > 2**224


@settings(derandomize=True, max_examples=200)
@given(st.binary(min_size=32, max_size=32), labels, labels)
def test_distinct_labels_give_distinct_keys_and_streams(
    secret: bytes, a: tuple[str, list[int]], b: tuple[str, list[int]]
) -> None:
    streams = Streams(secret)
    ka, kb = streams.key(a[0], *a[1]), streams.key(b[0], *b[1])
    if a == b:
        assert ka == kb
        return
    assert ka != kb
    ra, rb = KeyedRandom(ka), KeyedRandom(kb)
    assert [ra.getrandbits(64) for _ in range(4)] != [rb.getrandbits(64) for _ in range(4)]


def test_labels_are_encoded_without_ambiguity() -> None:
    s = Streams(bytes(32))
    assert s.key("setup", 1, 23) != s.key("setup", 12, 3)
    assert s.key("setup", 1) != s.key("setup", "1")
    assert s.key("chance", 5) != s.key("chance5")


def test_a_stream_key_is_blake2b_of_the_secret_over_its_label() -> None:
    """Pinned, so that the independence of streams rests on BLAKE2b as a keyed PRF and nothing weaker."""
    secret = bytes(range(32))
    label = b"s" + (5).to_bytes(4, "big") + b"setup" + b"i" + (1).to_bytes(4, "big") + b"0"
    want = hashlib.blake2b(label, key=secret, person=b"fogofwar-stream", digest_size=32).digest()
    assert Streams(secret).key("setup", 0) == want


@settings(derandomize=True, max_examples=50)
@given(st.binary(min_size=32, max_size=32))
def test_one_secret_draws_different_armies_for_the_two_seats(secret: bytes) -> None:
    v = get_variant("classic")
    s = Streams(secret)
    red = random_setup(v, 0, s.rng("setup", 0, 1))
    blue = random_setup(v, 1, s.rng("setup", 1, 2))
    mirrored = {99 - sq: rank for sq, rank in blue.items()}  # blue's army seen from red's side
    assert mirrored != red


def test_the_old_31_bit_seed_attack_and_why_it_fails_now() -> None:
    """The attack as it was: from its own random army a player finds the game's seed by search and then
    computes the other army. A search over a window of seeds stands in for the full 2**31."""
    v = get_variant("classic")
    window = range(10_000, 10_400)
    # Then: one Mersenne Twister seed for everything; the search finds it and predicts the computer's army.
    seed = 10_123
    mine = random_setup(v, 0, random.Random(seed ^ 0x5E7))
    found = [s for s in window if random_setup(v, 0, random.Random(s ^ 0x5E7)) == mine]
    assert found == [seed]
    # Now: the army comes from a 256-bit secret; no seed of any window (old scheme or from_seed) gives it.
    s = Streams.fresh()
    mine = random_setup(v, 0, s.rng("setup", 0, 1))
    assert all(random_setup(v, 0, random.Random(x ^ 0x5E7)) != mine for x in window)
    assert all(random_setup(v, 0, Streams.from_seed(x).rng("setup", 0, 1)) != mine for x in window)


def test_keyed_random_is_the_random_api_and_reproducible() -> None:
    a, b = KeyedRandom(bytes(32)), KeyedRandom(bytes(32))
    xs = [a.random(), a.randrange(1000), a.choice("abcdef"), a.sample(range(50), 5), a.getrandbits(200)]
    assert xs == [b.random(), b.randrange(1000), b.choice("abcdef"), b.sample(range(50), 5), b.getrandbits(200)]
    assert 0.0 <= a.random() < 1.0
    c = KeyedRandom(bytes(32))
    c.setstate(a.getstate())
    assert c.random() == a.random()
    counts = [0] * 6
    for _ in range(6000):
        counts[a.randrange(6)] += 1
    assert min(counts) > 850 and max(counts) < 1150  # fair die (deterministic: the key is fixed)


def test_play_streams_are_reproducible_with_a_seed_and_secret_without() -> None:
    one, two = play_streams(5, "agent", "setup"), play_streams(5, "agent", "setup")
    assert [r.random() for r in one] == [r.random() for r in two]
    assert all(isinstance(r, KeyedRandom) for r in play_streams(None, "agent", "setup"))
    assert seed_secret(5) == seed_secret(5) != seed_secret(6)
