"""The Dask path gives the same scores as the single-process path, on a real LocalCluster."""
import pandas as pd
import pytest

from rougelab.metrics.registry import get_metric
from rougelab.scale import client, score_dask
from rougelab.synthetic import synthetic_pairs


@pytest.fixture(scope="module")
def local_client():
    with client(n_workers=2, memory_limit="1GiB") as c:
        yield c


@pytest.mark.parametrize("metric_name", ["length", "rouge-1", "rouge-l"])
def test_dask_equals_single_process(local_client, metric_name):
    """Three partitions scored on two workers, compared with one call on the whole table."""
    frame = synthetic_pairs(3_000, words=20, seed=1)
    expected = get_metric(metric_name).score(list(frame.summary), list(frame.references))
    got = score_dask(frame, metric_name, chunksize=1_000).compute()
    pd.testing.assert_frame_equal(got.reset_index(drop=True), expected)


def test_references_turned_into_strings_are_refused(local_client):
    import dask.dataframe as dd
    from rougelab.metrics.base import InputError

    frame = dd.from_pandas(synthetic_pairs(20, seed=2), npartitions=2, sort=False)  # lists -> Arrow strings
    with pytest.raises(InputError, match="is a string"):
        score_dask(frame, "rouge-1").compute()


def test_synthetic_pairs_are_seeded_and_shaped():
    a, b = synthetic_pairs(10, words=40, seed=3), synthetic_pairs(10, words=40, seed=3)
    pd.testing.assert_frame_equal(a, b)
    assert a.summary.map(lambda s: len(s.split())).tolist() == [40] * 10
    assert a.summary.map(lambda s: s.count("\n")).tolist() == [1] * 10


def test_a_worker_stops_its_heartbeat_between_beats():
    """Before a LocalCluster of ``client`` closes, each worker stops its heartbeat once the beat under way has
    the scheduler's answer: a beat cut off by the closing logged an error to stderr (which the book refuses)."""
    import asyncio

    from tornado.ioloop import PeriodicCallback

    from rougelab import scale

    class Worker:  # the two attributes of a distributed.Worker that the heartbeat gate uses
        def __init__(self, heartbeat):
            self.heartbeat, self.periodic_callbacks = heartbeat, {"heartbeat": PeriodicCallback(heartbeat, 500)}

    events = []

    async def scenario():
        answered = asyncio.Event()

        async def heartbeat():
            events.append("beat sent")
            await answered.wait()
            events.append("beat answered")

        worker = Worker(heartbeat)
        worker.periodic_callbacks["heartbeat"].start()
        scale._gate_heartbeat(worker)
        beat = asyncio.ensure_future(worker.periodic_callbacks["heartbeat"].callback())  # a beat under way
        await asyncio.sleep(0)
        stop = asyncio.ensure_future(scale._stop_heartbeat(worker))
        await asyncio.sleep(0.2)
        events.append("stop waits" if not stop.done() else "stop went ahead")
        answered.set()
        await asyncio.gather(beat, stop)
        events.append("stopped" if not worker.periodic_callbacks["heartbeat"].is_running() else "still beating")

    asyncio.run(scenario())
    assert events == ["beat sent", "stop waits", "beat answered", "stopped"]


def test_the_local_clusters_workers_beat_through_the_gate_and_get_time_to_close(local_client):
    """``client``'s LocalCluster: each worker's heartbeat goes through the gate, and each nanny waits
    ``CLOSE_SECONDS`` (not distributed's 4 s) for its worker to close before killing it with a warning."""
    import inspect

    from rougelab.scale import CLOSE_SECONDS

    gated = local_client.run(lambda dask_worker: dask_worker.periodic_callbacks["heartbeat"].callback.__name__)
    assert set(gated.values()) == {"gated"} and len(gated) == 2
    nannies = list(local_client.cluster.workers.values())
    assert len(nannies) == 2 and all(inspect.signature(n.close).parameters["timeout"].default == CLOSE_SECONDS
                                     for n in nannies)


def test_workers_a_nanny_restarts_are_gated_too_and_close_without_a_word(capfd):
    """The gate is part of every worker's start (a worker plugin), not a one-off ``run`` on the first workers:
    after ``restart`` (each nanny starts a new worker process) the heartbeats still go through it, and
    closing the cluster writes nothing on stderr (the workers' stderr is this process's)."""
    with client(n_workers=2, memory_limit="1GiB") as c:
        c.restart()
        gated = c.run(lambda dask_worker: dask_worker.periodic_callbacks["heartbeat"].callback.__name__)
        assert list(gated.values()) == ["gated", "gated"]
        capfd.readouterr()
    assert capfd.readouterr().err == ""
