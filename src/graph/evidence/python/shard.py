"""Which of pytest's collected items a guard shard runs (GUARD_SHARD=k/N, k from 1).

Every shard collects the whole suite and keeps its share, so the shards agree without talking: the
partition depends only on the set of collected node ids, not on their order (a plugin that shuffles
the order in each process still gives every process the same share).
"""
import math


def scope_of(nodeid):
    """A test method's class, a test function's module (xdist's loadscope), parameters dropped."""
    test = nodeid.find("::")
    bracket = nodeid.find("[", test) if test >= 0 else -1
    base = nodeid[:bracket] if bracket >= 0 else nodeid
    return base.rsplit("::", 1)[0]


def partition(nodeids, shards):
    """For each node id, the shard (0-based) that runs it.

    Groups of one scope stay together, largest first onto the least loaded shard; a group larger than
    one shard's share is cut into contiguous chunks (of its node ids in sorted order) first.
    """
    groups = {}
    for i, nodeid in enumerate(nodeids):
        groups.setdefault(scope_of(nodeid), []).append(i)
    share = len(nodeids) / shards
    pieces = []
    for scope, members in groups.items():
        members.sort(key=lambda i: (nodeids[i], i))
        parts = math.ceil(len(members) / share) if len(members) > share else 1
        size = math.ceil(len(members) / parts)
        for p in range(parts):
            pieces.append((scope, p, members[p * size : (p + 1) * size]))
    pieces.sort(key=lambda piece: (-len(piece[2]), piece[0], piece[1]))
    load = [0] * shards
    shard_of = [0] * len(nodeids)
    for _, _, members in pieces:
        target = min(range(shards), key=lambda s: (load[s], s))
        load[target] += len(members)
        for i in members:
            shard_of[i] = target
    return shard_of


def parse(value):
    """GUARD_SHARD's "k/N" as (k - 1, N), or None when unset or malformed."""
    try:
        k, n = (int(x) for x in value.split("/"))
    except (AttributeError, ValueError):
        return None
    return (k - 1, n) if 1 <= k <= n else None
