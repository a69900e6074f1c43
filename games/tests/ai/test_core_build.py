"""The compiled core built at installation (``python -m games.ai.build``) and loaded, never
compiled, by the processes that may not compile it (the web processes): each check runs in
a fresh interpreter, as a process of the site starts."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")
pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[3]

# Hard's decisions over the first plays of a round of every setup, in a process that may
# not compile the core: what it loaded, what it compiled, and the actions it chose.
DECISIONS = """
import json
from games.ai import _kernels, choose_action, core, warm
from games.engine import action_to_json, apply_action, new_game, view_for
from games.tests.ai.helpers import every_setup

core.forbid_compiling()
loaded = warm.load()
actions = []
for label, rules in every_setup():
    state = new_game(rules, seed="build-" + label)
    for step in range(5):
        if state.round_over:
            break
        action = choose_action(view_for(state, state.to_move), "hard", seed=step, budget_ms=3)
        actions.append(action_to_json(action))
        state = apply_action(state, action)
print(json.dumps({
    "loaded": loaded,
    "status": core.status(),
    "compilations": core.compilations(),
    "signatures": {name: len(getattr(_kernels, name).signatures) for name in core.ENTRY_POINTS},
    "actions": actions,
}))
"""


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key != "DOMINOES_AI_CORE"}
    environment.update(PYTHONPATH=str(ROOT), **env)
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300
    )


def decisions(**env: str) -> dict:
    result = run_python(DECISIONS, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def cache_files(directory: Path) -> dict[str, int]:
    return {str(path.relative_to(directory)): path.stat().st_mtime_ns for path in directory.rglob("*") if path.is_file()}


def built_cache() -> Path:
    """The cache the install built (the session fixture of the root conftest made sure)."""
    result = run_python("from games.ai.build import cache_directory; print(cache_directory())")
    assert result.returncode == 0, result.stderr
    return Path(result.stdout.strip())


def test_the_build_is_loaded_and_covers_every_decision_without_compiling() -> None:
    cache = built_cache()
    before = cache_files(cache)
    found = decisions()
    assert found["loaded"] == "cached"
    # Every decision of every setup ran compiled: nothing was missing from the build.
    assert found["status"] == "cached"
    assert found["compilations"] == 0
    assert found["signatures"] == {"evaluate_general": 1, "evaluate_duel": 1}
    assert cache_files(cache) == before


def test_without_the_build_a_process_that_may_not_compile_decides_with_the_reference(tmp_path: Path) -> None:
    empty = tmp_path / "numba-cache"
    empty.mkdir()
    found = decisions(NUMBA_CACHE_DIR=str(empty))
    assert found["loaded"] == "unbuilt"
    assert found["status"] == "unbuilt"
    assert found["compilations"] == 0
    assert found["signatures"] == {"evaluate_general": 0, "evaluate_duel": 0}
    assert cache_files(empty) == {}, "a process that may not compile wrote to numba's cache"
    # The reference makes the same decisions as the compiled core.
    assert found["actions"] == decisions()["actions"]
    assert found["actions"] == decisions(DOMINOES_AI_CORE="python")["actions"]


def test_the_build_check_compiles_nothing_and_fails_when_the_cache_lacks_the_core(tmp_path: Path) -> None:
    built = run_python("import sys; from games.ai.build import main; sys.exit(main(['--check']))")
    assert built.returncode == 0, built.stderr
    assert "already built" in built.stdout
    empty = tmp_path / "numba-cache"
    empty.mkdir()
    missing = run_python(
        "import sys; from games.ai.build import main; sys.exit(main(['--check']))", NUMBA_CACHE_DIR=str(empty)
    )
    assert missing.returncode == 1
    assert "not built" in missing.stderr
    assert "python -m games.ai.build" in missing.stderr
    assert cache_files(empty) == {}


def test_the_build_says_so_when_the_core_is_switched_off() -> None:
    result = run_python(
        "import sys; from games.ai.build import main; sys.exit(main([]))", DOMINOES_AI_CORE="python"
    )
    assert result.returncode == 0, result.stderr
    assert "not in use" in result.stdout
