#!/usr/bin/env python3
"""The split-position floor of a Doppler-led distance, per kind of track.

For every track with Doppler in FOLDER (simulated, with a .truth.json beside it), integrates the
receiver's own RMC speeds (trapezoid, at its epochs) up to each true km crossing and prints, per
kind, the median / mean / worst over tracks of the worst split's miss in metres: what a filter
that followed the Doppler speed perfectly, and said each km at its true instant, would be off
by (with a perfect standing detector: nothing accrues while the runner truly stands). `runwalk-bench accuracy FOLDER` prints ours beside it ("split pos m").

Usage: scripts/doppler-floor.py FOLDER   (standard library only)
"""

import json, sys, glob, os, re, statistics, datetime
def parse_time(hms, start):
    h, m, s = int(hms[0:2]), int(hms[2:4]), float(hms[4:])
    t = h*3600 + m*60 + s
    s0 = start.hour*3600 + start.minute*60 + start.second
    return t - s0
res = {}
for truth in sorted(glob.glob(os.path.join(sys.argv[1], "*.truth.json"))):
    d = json.load(open(truth))
    if not d.get("doppler"): continue
    nmea = os.path.join(os.path.dirname(truth), d["track"])
    start = datetime.datetime.strptime(d["start_utc"], "%Y-%m-%dT%H:%M:%SZ")
    v = d["speed_1hz_mps"]
    sp = []
    for line in open(nmea, errors="replace"):
        if line[3:6] == "RMC":
            f = line.split(",")
            if len(f) > 7 and f[1] and f[7] and f[2] == "A":
                sp.append((parse_time(f[1], start), float(f[7]) * 0.514444))
    def true_dist(t):
        # trapezoid over the truth's 1 Hz speeds
        n = int(t); acc = sum((v[i] + v[i+1]) / 2 for i in range(min(n, len(v)-1)))
        if n < len(v)-1: acc += (t-n) * (v[n] + (v[n+1]-v[n])*(t-n)/2)
        return acc
    def standing(a, b):
        # A perfect standing detector: nothing accrues while the runner truly stands.
        i, j = max(0, int(a)), min(len(v) - 1, int(b) + 1)
        return all(x < 0.05 for x in v[i:j + 1])
    errs = []
    for split in d["splits_km"]:
        tk = split["elapsed_s"]
        meas = 0.0
        for (t0, s0), (t1, s1) in zip(sp, sp[1:]):
            if t1 > tk: 
                if t0 < tk and not standing(t0, tk): meas += (tk - t0) * (s0 + s1) / 2
                break
            if t0 >= 0 and not standing(t0, t1): meas += (t1 - t0) * (s0 + s1) / 2
        errs.append(abs(meas - true_dist(tk)))
    kind = re.sub(r"-s\d+$", "", d["track"].replace(".nmea", ""))
    if errs: res.setdefault(kind, []).append(max(errs))
for k, e in res.items():
    print(f"{k:16} n={len(e):2} floor (Doppler integral) worst-split m: median {statistics.median(e):.1f} mean {statistics.mean(e):.1f} worst {max(e):.1f}")
