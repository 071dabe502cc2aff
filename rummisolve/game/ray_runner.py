"""Run tournament deals on a Ray cluster (the optional ``ray`` extra): same tasks, same results.

``address`` is what ``ray.init`` accepts: ``"auto"`` (a running cluster), ``"ray://host:10001"``,
or ``"local"`` to start a private local instance.

Call it from a process of its own (as ``rummisolve tournament --ray`` does), not from a server or
a notebook that goes on afterwards: ``ray.init`` replaces the process's SIGSEGV handler (so a later
crash prints no Python stack) and ``ray.shutdown`` leaves native threads running (seen with Ray
2.60 in the test suite, which therefore runs the command as a subprocess).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from rummisolve.errors import RayUnavailableError
from rummisolve.game.deals import run_deal

__all__ = ["run_deals_ray", "RayUnavailableError"]


def run_deals_ray(tasks: Sequence[Any], address: str) -> Iterator[list[dict[str, Any]]]:
    """Yield each deal's results as Ray finishes them."""
    try:
        import ray
    except ImportError:
        raise RayUnavailableError("--ray needs Ray: pip install 'rummisolve[ray]'") from None

    started_here = not ray.is_initialized()
    if started_here:
        try:
            ray.init(
                address=None if address == "local" else address,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        except Exception as err:  # noqa: BLE001 - Ray raises many kinds; report them all the same way
            raise RayUnavailableError(f"cannot connect to Ray at {address!r}: {err}") from None
    try:
        remote = ray.remote(run_deal)
        pending = [remote.remote(task) for task in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started_here:
            ray.shutdown()
