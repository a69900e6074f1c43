"""The browser code's pure modules under node's own test runner (``node
--test``; Node 18.19 or later, as Debian 12 ships, for ``module.register``): the table page's reducer, the pages' socket
helper and poller (tests/js/). Node resolves their imports as the site serves
them (tests/js/static_files.js). Skipped without node, failed under
REQUIRE_SERVICES=1 (.ci/run installs it)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JS_TESTS = sorted((ROOT / "tests" / "js").glob("*.test.js"))


def test_the_browser_modules_pass_their_node_tests(node_path: str) -> None:
    version = subprocess.run(
        [node_path, "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    found = re.match(r"v(\d+)\.(\d+)", version)
    assert found, f"node --version said {version!r}"
    assert (int(found[1]), int(found[2])) >= (18, 19), f"node {version}: the tests need Node 18.19 or later"
    assert len(JS_TESTS) >= 3
    done = subprocess.run(
        [
            node_path,
            "--import",
            "./tests/js/static_files.js",
            "--test",
            "--test-reporter=tap",
            *(path.relative_to(ROOT).as_posix() for path in JS_TESTS),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    summary = dict(re.findall(r"^# (tests|pass|fail) (\d+)$", done.stdout, re.MULTILINE))
    report = done.stdout[-6000:] + done.stderr[-2000:]
    assert done.returncode == 0, report
    assert summary.get("fail") == "0", report
    assert int(summary["pass"]) == int(summary["tests"]) >= 40
