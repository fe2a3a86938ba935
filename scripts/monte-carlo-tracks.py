#!/usr/bin/env python3
"""Re-seeded copies of the sample tracks, for judging the telemetry on runs it has not seen.

One sample track per kind is one draw of the receiver's noise: a km split can be 0.2 s or 2 s
off by luck alone. This writes the same courses and workouts with other noise seeds and
other position-error correlation times (30-100 s, as receivers have) into a folder, with
truth files, using scripts/simulate-tracks.py unchanged (imported, not edited). Then

    runwalk-bench accuracy FOLDER
    RUNWALK_DEBUG_SERIES=all runwalk-bench accuracy FOLDER | scripts/split-statistics.py

Usage: scripts/monte-carlo-tracks.py FOLDER [KIND...]   (about 30 s; standard library only)
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load_simulator():
    spec = importlib.util.spec_from_file_location("simulate_tracks", os.path.join(HERE, "simulate-tracks.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def correlation_time(seed):
    """None keeps the track's own; the first six seeds come in pairs, the rest cycle."""
    if seed <= 6:
        return (None, None, 30.0, 30.0, 100.0, 100.0)[seed - 1]
    return (None, 30.0, 100.0, 45.0, 80.0)[seed % 5]


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    sim = load_simulator()
    sim.OUT_DIR = argv[1]
    os.makedirs(sim.OUT_DIR, exist_ok=True)
    plan = [("city", lambda: sim.make_city(), range(1, 25)),
            ("track", lambda: sim.make_track_loop(), range(1, 25)),
            ("gga", lambda: sim.make_track_loop("track-loop-gga.nmea", ("GGA",)), range(1, 7)),
            ("trail", lambda: sim.make_trail(), range(1, 11)),
            ("canyon", lambda: sim.make_canyon(), range(1, 17))]
    kinds = argv[2:]
    for kind, make, seeds in plan:
        if kinds and kind not in kinds:
            continue
        for seed in seeds:
            cfg = make()
            # The receiver's noise and the speed wobble follow the seed; course, stops, dropouts
            # and outliers stay the track's own.
            cfg["seed"] = cfg["seed"] * 100 + seed
            tau = correlation_time(seed)
            if tau:
                cfg["tau"] = tau
            cfg["name"] = cfg["name"].replace(".nmea", f"-s{seed}.nmea")
            sim.generate(cfg)
            print(cfg["name"], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
