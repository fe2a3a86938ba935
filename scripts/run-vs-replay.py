#!/usr/bin/env python3
"""Issue 14's acceptance check: for every SampleTracks track, `runwalk replay T --workout W --json`
and `runwalk run W --gps file:T --speed 50 --start now --json` give the same phases and the same
distance (within 0.1 %). Usage: scripts/run-vs-replay.py [RUNWALK_BINARY]"""
import json, os, subprocess, sys, tempfile

binary = sys.argv[1] if len(sys.argv) > 1 else ".build/release/runwalk"
env = dict(os.environ, RUNWALK_DATA_DIR=tempfile.mkdtemp(prefix="runwalk-rvr-"), RUNWALK_CONFIG_DIR=tempfile.mkdtemp())
worst = 0.0
ok = True
for name in sorted(os.listdir("SampleTracks")):
    if not name.endswith(".truth.json"):
        continue
    track = "SampleTracks/" + name.replace(".truth.json", ".nmea")
    workout = json.load(open("SampleTracks/" + name))["workout"]
    replay = json.loads(subprocess.run([binary, "replay", track, "--workout", workout, "--json", "--no-record"],
                                       capture_output=True, text=True, env=env, check=True).stdout)
    live = json.loads(subprocess.run([binary, "run", workout, "--gps", "file:" + track, "--speed", "50", "--start", "now",
                                      "--voice", "off", "--json", "--no-record"],
                                     capture_output=True, text=True, env=env, check=True).stdout)
    phases = lambda s: [(p["kind"], p["end_reason"]) for p in s["phases"]]
    same = phases(replay) == phases(live)
    d0, d1 = replay["distance_m"], live["distance_m"]
    err = abs(d1 - d0) / d0 * 100 if d0 > 0 else abs(d1 - d0)
    worst = max(worst, err if d0 > 0 else 0)
    good = same and (err <= 0.1 if d0 > 0 else abs(d1 - d0) < 1)
    ok &= good
    print(f"{track:34} phases {len(replay['phases']):2} {'same' if same else 'DIFFER'}  "
          f"replay {d0:9.2f} m  run {d1:9.2f} m  diff {err:.3f}{' %' if d0 > 0 else ' m'}  "
          f"durations {replay['duration_s']} / {live['duration_s']}  {'ok' if good else 'FAIL'}")
print("all tracks: same phases, distance within 0.1 %" if ok else "FAILED")
sys.exit(0 if ok else 1)
