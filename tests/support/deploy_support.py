"""Deploy-test helpers: the class server on loopback (devtools/balancer.py) with the tests' skip-or-fail rule."""

from __future__ import annotations

from devtools import balancer
from devtools.balancer import alive
from tests.support.skipping import skip_or_fail

__all__ = ["Balancer", "alive", "haproxy"]


def haproxy() -> str:
    path = balancer.find_haproxy()
    if not path:
        skip_or_fail("HAProxy not found (scripts/install-test-deps.sh installs Debian's haproxy; or set HAPROXY)")
    return path


class Balancer(balancer.Balancer):
    """`scatter-explorer serve --replicas N --no-restart` on loopback; skips (fails under CI=true) without HAProxy."""

    def __init__(self, workdir, app=None, replicas: int = 2):
        super().__init__(workdir, app, replicas, haproxy=haproxy())
