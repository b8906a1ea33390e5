"""PyTorch side of the shared conv net (`convnet.ConvNet`): the same layers, a seeded fit, the export.

Both learned models (the move policy and the belief net) train through here: the layers match the numpy
net one for one, `fit` is Adam with cosine decay on random batches drawn with a seeded generator, on a GPU
when one is present, and `export` turns the fitted layers into the numpy weights play reads.
PyTorch is imported inside the functions: it is only needed to train (requirements-train.txt).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from fogofwar.games.stratego.agents.convnet import ConvNet

N = TypeVar("N", bound=ConvNet)
I64 = npt.NDArray[np.int64]


def torch_net(inputs: int, outputs: int, width: int, blocks: int, scale: Sequence[float]) -> Any:
    """The torch twin of `ConvNet`: input planes times `scale`, then the same convolutions."""
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            first = nn.Conv2d(inputs, width, 3, padding=1)
            self.convs = nn.ModuleList([first] + [nn.Conv2d(width, width, 3, padding=1) for _ in range(blocks)])
            self.head = nn.Conv2d(width, outputs, 1)
            self.register_buffer("scale", torch.tensor(np.asarray(scale, np.float32)).view(1, -1, 1, 1))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            x = x * cast(torch.Tensor, self.scale)
            for i, conv in enumerate(self.convs):
                y = torch.relu(conv(x))
                x = y if i == 0 else x + y
            out: torch.Tensor = self.head(x)
            return out  # (B, outputs, 10, 10)

    return Net()


def load_weights(net: Any, weights: ConvNet) -> None:
    """Set the torch net's layers to these numpy weights (a fit that starts from a shipped net: fine-tuning).
    `ValueError` when their shapes differ."""
    import torch

    if len(net.convs) != len(weights.convs):
        raise ValueError(f"the weights have {len(weights.convs)} convolutions, the net {len(net.convs)}")
    pairs = [*zip(net.convs, weights.convs, strict=True), (net.head, weights.head)]
    with torch.no_grad():
        for layer, (w, b) in pairs:
            if tuple(layer.weight.shape) != w.shape or tuple(layer.bias.shape) != b.shape:
                raise ValueError(f"a layer of shape {tuple(layer.weight.shape)} cannot take weights of shape {w.shape}")
            layer.weight.copy_(torch.from_numpy(w))
            layer.bias.copy_(torch.from_numpy(b))


def device() -> Any:
    import torch

    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def fit(
    net: Any,
    size: int,
    loss_of: Callable[[I64], Any],
    steps: int,
    batch: int,
    lr: float,
    seed: int,
    seconds: float | None = None,
    report: Callable[[int, float], None] | None = None,
) -> None:
    """Fit `net` in place: each step draws `batch` rows of `size` (seeded) and minimises `loss_of(rows)`.
    `seconds` stops early when the time is up (the decay is then cut short)."""
    import torch

    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, max(1, steps))
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    running = math.nan
    for step in range(1, steps + 1):
        rows = np.sort(rng.integers(0, size, size=min(batch, size)))
        loss = loss_of(rows)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        value = loss.item()
        running = value if math.isnan(running) else 0.98 * running + 0.02 * value
        if report is not None and (step % 100 == 0 or step == steps):
            report(step, running)
        if seconds is not None and time.perf_counter() - start > seconds:
            break


def export(net: Any, cls: type[N]) -> N:
    """The torch net's weights as the numpy model `cls`."""

    def arr(t: Any) -> npt.NDArray[np.float32]:
        return np.ascontiguousarray(t.detach().cpu().numpy().astype(np.float32))

    convs = tuple((arr(c.weight), arr(c.bias)) for c in net.convs)
    return cls(convs, (arr(net.head.weight), arr(net.head.bias)))
