"""The small convolutional net on the 10x10 board that the learned models share, run in numpy.

A 3x3 convolution from the input planes to `width` channels, then residual 3x3 convolutions (ReLU after
each, every one after the first adds its input), then a 1x1 head: one output plane per slot. The move
policy (`policy_model`) reads its head as move slots, the belief net (`belief_net`) as rank logits. The
weights are fitted with PyTorch (`net_training`) and exported here, so play needs no PyTorch: a few
convolutions on a 10x10 board cost a few milliseconds in numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
Pair = tuple[F32, F32]
N = TypeVar("N", bound="ConvNet")


@dataclass(frozen=True)
class ConvNet:
    """Weights: `convs` are (weight (out, in, 3, 3), bias (out,)) pairs, `head` a 1x1 conv's (weight, bias).
    A subclass names how many planes it reads (`inputs`) and writes (`outputs`), so a file made for one
    model is refused by the other."""

    convs: tuple[Pair, ...]
    head: Pair
    note: str = ""

    inputs: ClassVar[int] = 0
    outputs: ClassVar[int] = 0
    kind: ClassVar[str] = "net"

    def __post_init__(self) -> None:
        """Hold the weights with their subnormal values as zero (`without_subnormals`)."""
        object.__setattr__(self, "convs", tuple((without_subnormals(w), without_subnormals(b)) for w, b in self.convs))
        w, b = self.head
        object.__setattr__(self, "head", (without_subnormals(w), without_subnormals(b)))

    def forward(self, x: F32) -> F32:
        """(B, outputs, 10, 10) for input planes (B, inputs, 10, 10), already scaled."""
        for i, (w, b) in enumerate(self.convs):
            y = np.maximum(_conv3x3(x, w, b), 0.0)
            x = y if i == 0 else x + y
        w, b = self.head
        out: F32 = np.einsum("bchw,oc->bohw", x, w[:, :, 0, 0], optimize=True) + b[None, :, None, None]
        return out.astype(np.float32)

    def save(self, path: Path) -> None:
        arrays: dict[str, Any] = {"note": np.array(self.note)}
        for i, (w, b) in enumerate(self.convs):
            arrays[f"conv{i}_w"], arrays[f"conv{i}_b"] = w, b
        arrays["head_w"], arrays["head_b"] = self.head
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            np.savez_compressed(f, **arrays)

    @classmethod
    def load(cls: type[N], path: Path) -> N:
        with np.load(path, allow_pickle=False) as z:
            n = sum(1 for k in z.files if k.endswith("_w") and k.startswith("conv"))
            convs = tuple((z[f"conv{i}_w"].astype(np.float32), z[f"conv{i}_b"].astype(np.float32)) for i in range(n))
            head = (z["head_w"].astype(np.float32), z["head_b"].astype(np.float32))
            note = str(z["note"]) if "note" in z.files else ""
        if not convs or convs[0][0].shape[1] != cls.inputs or head[0].shape[0] != cls.outputs:
            raise ValueError(f"{path}: not a {cls.kind} for {cls.inputs} planes and {cls.outputs} outputs")
        return cls(convs, head, note)


def without_subnormals(a: F32) -> F32:
    """`a` as float32 with every subnormal value (nonzero, smaller than float32's smallest normal, about 1.2e-38)
    made 0.

    Why: training leaves up to 11% of a fitted net's weights subnormal, and each product with one takes the CPU's slow
    path: the shipped nets took about twice as long with them (the self-played net 33 against 14 ms for 32 positions,
    `benchmarks/net_speed.py`), and the zeroed nets give the same outputs to the bit (such a product, below 1e-35
    here, vanishes in the rounding of the sum it enters)."""
    a = np.asarray(a, np.float32)
    tiny = subnormal(a)
    if not tiny.any():
        return a
    out: F32 = np.where(tiny, np.float32(0), a)
    return out


def subnormal(a: F32) -> npt.NDArray[np.bool_]:
    """Where `a` (float32) is subnormal: nonzero and smaller than float32's smallest normal."""
    out: npt.NDArray[np.bool_] = (np.abs(a) < np.finfo(np.float32).tiny) & (a != 0)
    return out


def _conv3x3(x: F32, w: F32, b: F32) -> F32:
    """A 3x3 convolution with zero padding 1 (x: (B, C, 10, 10), w: (O, C, 3, 3))."""
    bsz, c, h, wd = x.shape
    pad = np.zeros((bsz, c, h + 2, wd + 2), np.float32)
    pad[:, :, 1:-1, 1:-1] = x
    cols = np.lib.stride_tricks.sliding_window_view(pad, (3, 3), axis=(2, 3))  # (B, C, H, W, 3, 3)
    out: F32 = np.einsum("bchwij,ocij->bohw", cols, w, optimize=True) + b[None, :, None, None]
    return out
