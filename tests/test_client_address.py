"""Behind the documented proxy, the client's address is the one the proxy
saw, never one the client wrote: the per-address login limit holds.

The web process runs exactly as the Procfile runs it (its command line read
from the file), behind requests shaped like those of deploy/nginx.conf."""

from __future__ import annotations

import re
import subprocess
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

from tests.support.site import ROOT, free_port, site_env, wait_until_healthy

pytestmark = [pytest.mark.slow, pytest.mark.one_pass, pytest.mark.timeout(120)]

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken"\s+value="([^"]+)"')
TOO_MANY = "Too many failed login attempts"
# Where the proxy's own connection comes from, appended last by nginx.
PROXY_SEEN_ADDRESS = "203.0.113.7"


def procfile_command(name: str) -> str:
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"no {name} in the Procfile")


def nginx_forwarded_for_rule() -> str:
    """How deploy/nginx.conf sets X-Forwarded-For (every location the same way)."""
    rules = set(re.findall(r"proxy_set_header\s+X-Forwarded-For\s+(\S+);", (ROOT / "deploy" / "nginx.conf").read_text()))
    assert len(rules) == 1, rules
    return rules.pop()


def forwarded_for(client_header: str) -> str:
    """The X-Forwarded-For that reaches the web process when the client sent
    ``client_header`` through nginx from PROXY_SEEN_ADDRESS."""
    rule = nginx_forwarded_for_rule()
    if rule == "$proxy_add_x_forwarded_for":
        return f"{client_header}, {PROXY_SEEN_ADDRESS}"
    assert rule == "$remote_addr", rule
    return PROXY_SEEN_ADDRESS


@pytest.fixture(scope="module")
def procfile_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    workdir: Path = tmp_path_factory.mktemp("proxy")
    env = site_env(workdir, TRUSTED_PROXY_COUNT="1", STACK_PORT=str(free_port()), STACK_BIND="127.0.0.1")
    subprocess.run([str(ROOT / ".venv/bin/python"), "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    log = (workdir / "web.log").open("wb")
    process = subprocess.Popen(
        ["bash", "-c", procfile_command("web1")], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{env['STACK_PORT']}"
    try:
        wait_until_healthy(url + "/healthz", process=process, timeout=60)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=15)


def test_a_forged_x_forwarded_for_does_not_escape_the_per_address_login_limit(procfile_web: str) -> None:
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with opener.open(procfile_web + "/accounts/login/", timeout=30) as response:
        token = CSRF_INPUT.search(response.read().decode())
    assert token is not None
    answers = []
    for attempt in range(15):
        # A different name each time (the per-account limit stays out of it)
        # and a different forged address each time.
        data = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": token.group(1), "login": f"nobody{attempt}", "password": "wrong"}
        ).encode()
        request = urllib.request.Request(
            procfile_web + "/accounts/login/",
            data=data,
            headers={
                "Referer": procfile_web + "/accounts/login/",
                "X-Forwarded-For": forwarded_for(f"198.51.100.{attempt + 1}"),
                "X-Forwarded-Proto": "http",
            },
        )
        with opener.open(request, timeout=30) as response:
            answers.append(TOO_MANY in response.read().decode())
    # 10 failures a minute per address: the eleventh is refused.
    assert answers[:10] == [False] * 10
    assert all(answers[10:]), answers
