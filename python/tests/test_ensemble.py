"""rc.ensemble() (docs/ensemble.md, docs/python.md): the `rodcollide ensemble --json` document, the
closed form of two identical rods (the target leaves with the striker's drawn velocity), pickling
as the members' numbers, and members run as shards on a dask.distributed LocalCluster merged into
exactly the serial run."""
import pickle

import numpy as np
import pytest

import rodcollide as rc
from conftest import SOURCE_DIR, cli_json

TWO_RODS = SOURCE_DIR / "cases" / "seed000_two_rods.toml"
CRADLE = SOURCE_DIR / "cases" / "steel_cradle_5.toml"
VELOCITY = dict(key="velocity", rods=[0], relative=0.01)
LENGTHS = [dict(key="length", relative=1e-3, distribution="normal"), dict(key="velocity", rods=[0], absolute=0.01)]


def test_ensemble_is_the_cli_json():
    e = rc.ensemble(TWO_RODS, members=40, perturb=VELOCITY, seed=3)
    assert e.to_dict() == cli_json("ensemble", TWO_RODS, "--members", "40", "--seed", "3", "--perturb",
                                   'key = "velocity", rods = [0], relative = 0.01')
    assert e.to_dict(precision=1e-4)["convergence"]["members_needed"] > 0


def test_two_identical_rods_exchange_the_drawn_velocity():
    e = rc.ensemble(TWO_RODS, members=50, perturb=VELOCITY)
    assert e.final_velocities.shape == (50, 2) and e.perturbed.shape == (50, 1)
    assert e.columns == ["velocity_rod0"]
    np.testing.assert_allclose(e.final_velocities[:, 1], e.perturbed[:, 0], rtol=1e-12)
    np.testing.assert_allclose(e.final_velocities[:, 0], 0, atol=1e-12)
    assert np.all(np.abs(e.perturbed[:, 0] - 1) <= 0.01)
    assert all(e.settled) and e.closings.tolist() == [1.0] * 50
    d = e.to_dict()
    assert d["rods"][1]["final_velocity"]["mean"] == pytest.approx(np.mean(e.perturbed[:, 0]), rel=1e-12)
    assert d["rods"][1]["final_velocity"]["std"] == pytest.approx(np.std(e.perturbed[:, 0], ddof=1), rel=1e-9)
    assert d["rods"][1]["final_velocity"]["q95"] == pytest.approx(np.quantile(e.perturbed[:, 0], 0.95), rel=1e-12)


def test_pickle_keeps_every_number():
    e = rc.ensemble(CRADLE, members=9, perturb=LENGTHS, shard=(2, 3))
    back = pickle.loads(pickle.dumps(e))
    assert back.shard == (2, 3) and back.index.tolist() == [3, 4, 5]
    assert np.array_equal(back.final_velocities, e.final_velocities)
    assert np.array_equal(back.perturbed, e.perturbed)
    assert back.to_dict() == e.to_dict()


def test_dask_local_cluster_equals_the_serial_run():
    """The documented example (docs/python.md "Ensembles on a dask cluster"): shards as dask tasks."""
    distributed = pytest.importorskip("distributed")
    serial = rc.ensemble(CRADLE, members=24, perturb=LENGTHS, seed=11, threads=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        n = 4
        futures = [client.submit(rc.ensemble, str(CRADLE), members=24, perturb=LENGTHS, seed=11, shard=(k, n),
                                 threads=1, pure=False) for k in range(1, n + 1)]
        merged = rc.merge_ensembles(client.gather(futures))
    assert np.array_equal(merged.final_velocities, serial.final_velocities)
    assert merged.to_dict() == serial.to_dict()
    assert merged.to_csv() == serial.to_csv()


def test_bad_input_is_refused():
    with pytest.raises(rc.CaseError, match=r"perturb\.key: unknown rod key \"mass\""):
        rc.ensemble(TWO_RODS, members=4, perturb=dict(key="mass", relative=0.1))
    with pytest.raises(ValueError, match="members: must be > 0, got 0"):
        rc.ensemble(TWO_RODS, members=0, perturb=VELOCITY)
    with pytest.raises(ValueError, match="could make length non-positive"):
        rc.ensemble(TWO_RODS, members=4, perturb=dict(key="length", relative=1.0))
    with pytest.raises(ValueError, match="nothing is perturbed"):
        rc.ensemble(TWO_RODS, members=4)
    parts = [rc.ensemble(CRADLE, members=6, perturb=LENGTHS, shard=(k, 3)) for k in (1, 3)]
    with pytest.raises(ValueError, match="shard 2 of 3 missing"):
        rc.merge_ensembles(parts)
    with pytest.raises(TypeError):
        rc.ensemble(TWO_RODS, members=4, perturb="velocity")
