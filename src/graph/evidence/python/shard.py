"""Which of pytest's collected items a guard shard runs (GUARD_SHARD=k/N, k from 1).

Every shard collects the whole suite and keeps its share, so the shards agree without talking: the
partition depends only on the set of collected node ids (and the weights guard passes to all of them),
not on their order (a plugin that shuffles the order in each process still gives every process the same
share).
"""
import math

# What one item costs beyond its own duration (setup, teardown, reports, the coverage context switch), in
# milliseconds; also what an item without a previous duration is taken to cost on top of the average.
_ITEM_MS = 1.0


def selector_of(nodeid):
    """The node id without parameters (ids.ts pytestSelector)."""
    test = nodeid.find("::")
    bracket = nodeid.find("[", test) if test >= 0 else -1
    return nodeid[:bracket] if bracket >= 0 else nodeid


def scope_of(nodeid):
    """A test method's class, a test function's module (xdist's loadscope)."""
    return selector_of(nodeid).rsplit("::", 1)[0]


def item_weights(keys, durations):
    """Each item's cost: its test's previous duration (ms) shared among the test's cases, else the median case's."""
    cases = {}
    for key in keys:
        cases[selector_of(key)] = cases.get(selector_of(key), 0) + 1
    known = sorted(durations[s] / n for s, n in cases.items() if s in durations)
    typical = known[len(known) // 2] if known else 0.0
    out = []
    for key in keys:
        s = selector_of(key)
        out.append(_ITEM_MS + (durations[s] / cases[s] if s in durations else typical))
    return out


def partition(nodeids, shards, weights=None):
    """For each node id, the shard (0-based) that runs it.

    Groups of one scope stay together, heaviest first onto the least loaded shard; a group heavier than
    one shard's share is cut first into contiguous chunks (of its node ids in sorted order) of about
    equal weight.
    """
    weights = weights or [1.0] * len(nodeids)
    groups = {}
    for i, nodeid in enumerate(nodeids):
        groups.setdefault(scope_of(nodeid), []).append(i)
    # Summed in node id order, so that every process gets the same float.
    share = sum(weights[i] for i in sorted(range(len(nodeids)), key=lambda i: (nodeids[i], i))) / shards
    pieces = []
    for scope, members in groups.items():
        members.sort(key=lambda i: (nodeids[i], i))
        total = sum(weights[i] for i in members)
        parts = math.ceil(total / share) if total > share else 1
        chunk, done, part = [], 0.0, 0
        for i in members:
            chunk.append(i)
            done += weights[i]
            if part < parts - 1 and done >= total * (part + 1) / parts:
                pieces.append((scope, part, chunk))
                chunk, part = [], part + 1
        if chunk:
            pieces.append((scope, part, chunk))
    weighed = [(sum(weights[i] for i in members), scope, part, members) for scope, part, members in pieces]
    weighed.sort(key=lambda piece: (-piece[0], piece[1], piece[2]))
    load = [0.0] * shards
    shard_of = [0] * len(nodeids)
    for weight, _, _, members in weighed:
        target = min(range(shards), key=lambda s: (load[s], s))
        load[target] += weight
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
