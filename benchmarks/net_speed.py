r"""How fast do the shipped conv nets run, and what did their subnormal weights cost? (issue 13, research speed)

`rollout` (Master) spends nearly all of a move in its nets, one forward a roll-out ply over every candidate's copy of
every world (32 to 64 positions). Training leaves some weights subnormal (nonzero, below float32's smallest normal),
and every product with one takes the CPU's slow path; `convnet.ConvNet` holds them as 0 (`without_subnormals`). For
each shipped net this times a forward of the net as held and of its twin with the weights as stored, on the same
random planes, and says whether the two gave the same outputs to the bit (docs/strength.md, session 74).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/net_speed.py --batch 1 --batch 32 --batch 64
"""

from __future__ import annotations

import argparse
from pathlib import Path
from time import perf_counter
from typing import NamedTuple

import numpy as np

from fogofwar.games.stratego.agents.convnet import F32, ConvNet, subnormal
from fogofwar.games.stratego.agents.policy_model import weights_path

NETS = ("policy_net.npz", "selfplay_net.npz", "selfplay_barrage_net.npz", "value_net.npz", "belief_net.npz")


class Timing(NamedTuple):
    net: str
    subnormal: int  # the stored weights that are subnormal
    weights: int
    batch: int
    held: float  # seconds a forward, the net as held
    stored: float  # seconds a forward, the weights as stored
    same: bool  # the two forwards' outputs equal to the bit


def stored_twin(path: Path) -> tuple[ConvNet, ConvNet, int, int]:
    """The net in `path` as `ConvNet` holds it, its twin with the stored weights, and the count of subnormal and of
    all weights."""
    with np.load(path, allow_pickle=False) as z:
        stored = {k: z[k].astype(np.float32) for k in z.files if k != "note"}
    layers = sum(1 for k in stored if k.startswith("conv") and k.endswith("_w"))
    convs = tuple((stored[f"conv{i}_w"], stored[f"conv{i}_b"]) for i in range(layers))
    head = (stored["head_w"], stored["head_b"])
    held = ConvNet(convs, head)
    twin = ConvNet(convs, head)
    object.__setattr__(twin, "convs", convs)  # past the constructor, which zeroes them
    object.__setattr__(twin, "head", head)
    count = sum(int(subnormal(a).sum()) for a in stored.values())
    return held, twin, count, sum(a.size for a in stored.values())


def seconds(net: ConvNet, x: F32, repeats: int) -> tuple[float, F32]:
    """The mean seconds of `repeats` forwards of `x` (after one to warm up), and the output."""
    out = net.forward(x)
    start = perf_counter()
    for _ in range(repeats):
        out = net.forward(x)
    return (perf_counter() - start) / repeats, out


def timings(files: tuple[str, ...], batches: list[int], repeats: int, seed: int = 1) -> list[Timing]:
    gen = np.random.default_rng(seed)
    rows = []
    for file in files:
        held, twin, subnormal, size = stored_twin(weights_path(file))
        for batch in batches:
            x = gen.uniform(0.0, 1.0, (batch, held.convs[0][0].shape[1], 10, 10)).astype(np.float32)
            fast, a = seconds(held, x, repeats)
            slow, b = seconds(twin, x, repeats)
            rows.append(Timing(file, subnormal, size, batch, fast, slow, bool(np.array_equal(a, b))))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--batch", type=int, action="append", help="positions a forward (repeatable; default 1, 32, 64)")
    ap.add_argument("--repeats", type=int, default=20, help="forwards timed a batch size (default 20)")
    ap.add_argument("--net", action="append", choices=NETS, help="a shipped net (repeatable; default all)")
    args = ap.parse_args()
    rows = timings(tuple(args.net or NETS), args.batch or [1, 32, 64], args.repeats)
    print("| net | subnormal weights | batch | ms a forward, held | ms, weights as stored | same outputs |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        share = f"{r.subnormal} of {r.weights} ({100 * r.subnormal / r.weights:.1f}%)"
        print(f"| {r.net} | {share} | {r.batch} | {1e3 * r.held:.2f} | {1e3 * r.stored:.2f} | {r.same} |")


if __name__ == "__main__":
    main()
