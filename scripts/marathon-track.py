#!/usr/bin/env python3
"""A 5-hour run/walk marathon at 10 Hz (about 180,000 epochs), for the replay footprint bench.

Too big to commit (about 25 MB): this writes it, with its truth file, into a folder, using
scripts/simulate-tracks.py unchanged (imported, not edited), so every run gives the same bytes.
The course is the 400 m athletics track (track-loop.nmea's), the receiver the 10 Hz one of
trail-10hz.nmea (RMC + GGA, output smoothing), the workout
"10m warmup, 28x(9m run, 1m walk), 10m cooldown" (5 h).

Usage: scripts/marathon-track.py FOLDER   (standard library only; about 40 s)
Then:  runwalk-bench replay FOLDER/marathon-10hz.nmea   (FOLDER /tmp/runwalk-marathon is its default)
"""
import datetime as dt
import importlib.util
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WORKOUT = "10m warmup, 28x(9m run, 1m walk), 10m cooldown"


def load_simulator():
    spec = importlib.util.spec_from_file_location("simulate_tracks", os.path.join(HERE, "simulate-tracks.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def marathon(sim):
    seed = 4101
    rm = random.Random(f"{seed}-motion")
    spec = [("warmup", 600, 1.7)]
    for _ in range(28):
        spec.append(("run", 540, round(rm.uniform(2.7, 2.9), 3)))
        spec.append(("walk", 60, round(rm.uniform(1.35, 1.45), 3)))
    spec.append(("cooldown", 600, 1.5))
    cfg = sim.make_track_loop()
    cfg.update(name="marathon-10hz.nmea", seed=seed, workout=WORKOUT,
               start=dt.datetime(2026, 5, 3, 7, 0, 0), rate=10, talker="GN", sentences=["RMC", "GGA"],
               smooth_tau=1.5, gsv_model=False, phases=sim.time_phases(spec),
               scenario="5-hour run/walk marathon on the 400 m athletics track; 10 Hz receiver "
                        "(RMC + GGA) with output smoothing; written by scripts/marathon-track.py")
    return cfg


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    sim = load_simulator()
    sim.OUT_DIR = argv[1]
    os.makedirs(sim.OUT_DIR, exist_ok=True)
    cfg = marathon(sim)
    sim.generate(cfg)
    print(os.path.join(sim.OUT_DIR, cfg["name"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
