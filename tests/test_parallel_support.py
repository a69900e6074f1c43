"""What the parallel suite stands on (scripts/test.sh): the lanes of the
xdist scheduler, the stack tests' snippet runner, and the tests' Redis cache
that empties only its own keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import lanes
from tests.support.stack import Stack


def test_stack_and_browser_tests_have_a_lane_each_and_the_rest_none() -> None:
    assert lanes.lane_of("tests/stack/test_faults.py::test_a_killed_daphne_process_loses_no_move") == "stack"
    assert lanes.lane_of("games/tests/test_celery_worker.py::test_repeated_tasks_play_the_turn_once") == "stack"
    assert lanes.lane_of("lobby/tests/test_stack_lobby.py::test_x") == "stack"
    assert lanes.lane_of("games/tests/test_browser_table.py::test_x[viewport0-fr-FR]") == "browser"
    assert lanes.lane_of("rules_guide/tests/test_browser_guide.py::test_x") == "browser"
    assert lanes.lane_of("games/tests/test_consumers.py::test_x") is None
    assert lanes.lane_of("tests/test_site.py::test_browser_like[tests/stack/x]") is None


def test_the_scheduler_hands_out_a_lane_as_one_unit_and_every_other_test_alone() -> None:
    split = lanes.LaneScheduling._split_scope
    assert split(None, "tests/stack/test_faults.py::test_a") == split(None, "games/tests/test_celery_worker.py::b")
    assert split(None, "games/tests/test_browser_table.py::a") == split(None, "tests/test_browser_home.py::b")
    assert split(None, "games/tests/test_consumers.py::a") != split(None, "games/tests/test_consumers.py::b")


@pytest.mark.one_pass
def test_each_snippet_starts_as_a_new_process_would(tmp_path: Path) -> None:
    stack = Stack(tmp_path, database_url="", redis_url="", env_overrides={"SQLITE_PATH": str(tmp_path / "db.sqlite3")})
    try:
        first = stack.django("import builtins, os, random\nbuiltins.left_behind = 1\nresult = [os.getpid(), random.random()]")
        second = stack.django(
            "import builtins, os, random\nresult = [os.getpid(), random.random(), hasattr(builtins, 'left_behind')]"
        )
        assert isinstance(first, list)
        assert isinstance(second, list)
        assert first[0] != second[0]  # a process each
        assert first[1] != second[1]  # a random state each
        assert second[2] is False  # nothing left by the snippet before
        assert stack.django("from django.conf import settings\nresult = settings.DATABASES['default']['NAME']") == str(
            tmp_path / "db.sqlite3"
        )
        with pytest.raises(RuntimeError, match=r"(?s)said so.*ValueError: wrong"):
            stack.django("print('said so')\nraise ValueError('wrong')")
        assert stack.django("result = {'after': 'an error'}") == {"after": "an error"}
    finally:
        stack.stop_all()


@pytest.mark.services
def test_the_tests_redis_cache_empties_its_own_keys_only(redis_url: str) -> None:
    import redis

    from tests.support.cache import OwnKeysRedisCache

    cache = OwnKeysRedisCache(redis_url, {"KEY_PREFIX": "test-own-keys"})
    other = redis.Redis.from_url(redis_url)
    try:
        cache.set("mine", 1)
        other.set("someone-else:1:theirs", 1)
        assert cache.get("mine") == 1
        cache.clear()
        assert cache.get("mine") is None
        assert other.get("someone-else:1:theirs") == b"1"
    finally:
        other.delete("someone-else:1:theirs")
        other.close()
