"""freeze_startup_heap: what startup built is kept out of later collections; startup's garbage is not kept."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_startup_objects_are_frozen_and_startup_garbage_is_collected_first():
    # In a process of its own: freezing is for the life of a process.
    script = textwrap.dedent(
        """
        import gc, weakref
        from server.core.heap import freeze_startup_heap

        class Node:
            pass

        kept = [Node() for _ in range(1000)]
        cycle = Node(); cycle.self = cycle; probe = weakref.ref(cycle); del cycle  # garbage only a collection finds
        frozen = freeze_startup_heap()
        assert probe() is None, "startup's garbage was frozen"
        assert frozen >= 1000 and gc.get_freeze_count() == frozen
        assert not any(o is kept[0] for o in gc.get_objects())  # frozen objects are no longer walked
        print("ok")
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "ok", result.stderr
