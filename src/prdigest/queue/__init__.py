"""Work spread over processes and machines, through procrastinate (PostgreSQL).

Why procrastinate: its queue lives in the same PostgreSQL database as the
store, so a team adds no broker to run; jobs carry locks (one sync per
repository at a time, a repository's digests after its sync) and queueing
locks (a job already waiting is not queued twice), and workers send heartbeats
so the jobs of a killed worker can be found and retried.
"""

from .jobs import enqueue_digests, enqueue_syncs, queue_counts, run_worker

__all__ = ["enqueue_digests", "enqueue_syncs", "queue_counts", "run_worker"]
