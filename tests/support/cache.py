"""The tests' Redis cache: Django's, whose ``clear()`` deletes this process's
keys only (its ``KEY_PREFIX``, config/settings/test.py) instead of emptying
the whole Redis database (``FLUSHDB``), which other test processes on the
same database (pytest-xdist's workers, the other pass of scripts/test.sh)
are using at the same time."""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache


class OwnKeysRedisCache(RedisCache):
    def clear(self) -> bool:
        client = self._cache.get_client(write=True)
        keys = list(client.scan_iter(match=f"{self.key_prefix}:*", count=1000))
        for start in range(0, len(keys), 1000):
            client.delete(*keys[start : start + 1000])
        return True
