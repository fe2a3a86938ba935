#!/usr/bin/env python3
"""Split-time errors of the smoothed and the live distance over many tracks, per kind.

Reads the per-fix series that `RUNWALK_DEBUG_SERIES=all runwalk-bench accuracy FOLDER` prints
("A path seconds smoothed_m live_m") and the truth file beside each track, and prints per kind
of track (the name without its -sN seed suffix): the RMS of every km split's time error, the
worst, how many tracks have a split off by more than 1 s, and the RMS and mean of the
distance error at the truth's duration; smoothed and live. A km the smoothed distance never
reaches counts with the shortfall over the last true speed.

Usage: RUNWALK_DEBUG_SERIES=all runwalk-bench accuracy FOLDER | scripts/split-statistics.py [LABEL]
"""
import bisect
import collections
import json
import math
import os
import re
import sys


def crossing(times, metres, target, fallback):
    for i, d in enumerate(metres):
        if d >= target:
            if i == 0:
                return times[0]
            span = d - metres[i - 1]
            return times[i - 1] + (times[i] - times[i - 1]) * ((target - metres[i - 1]) / span if span > 0 else 0)
    return fallback(target - metres[-1])


def value(times, metres, t):
    i = bisect.bisect_left(times, t)
    if i <= 0:
        return metres[0]
    if i >= len(times):
        return metres[-1]
    f = (t - times[i - 1]) / (times[i] - times[i - 1])
    return metres[i - 1] + f * (metres[i] - metres[i - 1])


def rms(values):
    return math.sqrt(sum(v * v for v in values) / len(values)) if values else float("nan")


def main(argv):
    series = collections.defaultdict(lambda: ([], [], []))
    for line in sys.stdin:
        part = line.split()
        if len(part) == 5 and part[0] == "A":
            s = series[part[1]]
            s[0].append(float(part[2]))
            s[1].append(float(part[3]))
            s[2].append(float(part[4]))
    kinds = collections.defaultdict(lambda: collections.defaultdict(list))
    for path, (times, smoothed, live) in sorted(series.items()):
        truth = json.load(open(path[:-len(".nmea")] + ".truth.json"))
        kind = re.sub(r"-s\d+$", "", os.path.basename(path)[:-len(".nmea")])
        last_speed = max(0.5, truth["speed_1hz_mps"][-1])
        k = kinds[kind]
        for label, metres in (("smoothed", smoothed), ("live", live)):
            errors = []
            for split in truth["splits_km"]:
                t = split["elapsed_s"]
                ours = crossing(times, metres, split["index"] * 1000.0, lambda short: t + short / last_speed)
                errors.append(ours - t)
            k[label + " splits"] += errors
            if errors:
                k[label + " worst"].append(max(abs(e) for e in errors))
            if truth["distance_m"] > 0:
                k[label + " distance %"].append(100 * (value(times, metres, truth["duration_s"]) - truth["distance_m"])
                                               / truth["distance_m"])
    print(argv[1] if len(argv) > 1 else "")
    print("| kind | tracks | smoothed split RMS s | worst s | tracks > 1 s | distance RMS % | mean % "
          "| live split RMS s | worst s | tracks > 1 s | distance RMS % | mean % |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for kind, k in sorted(kinds.items()):
        if not k["smoothed splits"]:
            continue
        cells = [kind, str(len(k["smoothed worst"]))]
        for label in ("smoothed", "live"):
            worst, distance = k[label + " worst"], k[label + " distance %"]
            cells += [f"{rms(k[label + ' splits']):.2f}", f"{max(worst):.2f}", str(sum(1 for w in worst if w > 1)),
                      f"{rms(distance):.3f}", f"{sum(distance) / len(distance):+.3f}"]
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
