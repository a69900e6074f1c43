"""The site's Redis pub/sub channel layer: channels_redis's, plus one call
that publishes the groups of one broadcast in a single round trip.

A move reaches five groups (each seat's and the spectators'). The pub/sub
layer publishes each ``group_send`` alone, one round trip to Redis after the
other under its connection's lock; ``group_send_many`` pipelines them
(``games.live.broadcast`` uses it when the layer has it). It relies on
the internals of channels_redis 4.3 (pinned in requirements.txt): its
shards' lock and Redis client.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer


class PubSubChannelLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    async def group_send_many(self, messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """``group_send`` of every (group, message), one pipeline per shard."""
        layer = self._get_layer()
        by_shard: dict[Any, list[tuple[str, bytes]]] = {}
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            by_shard.setdefault(layer._get_shard(channel), []).append((channel, self.serialize(message)))
        for shard, items in by_shard.items():
            async with shard._lock:
                shard._ensure_redis()
                pipe = shard._redis.pipeline(transaction=False)
                for channel, data in items:
                    pipe.publish(channel, data)
                await pipe.execute()
