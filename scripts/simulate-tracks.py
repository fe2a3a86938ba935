#!/usr/bin/env python3
"""Generate RunWalk's simulated GPS sample tracks (NMEA 0183) plus truth files.

Usage:
    python3 scripts/simulate-tracks.py            # regenerate SampleTracks/ and verify
    python3 scripts/simulate-tracks.py --no-check # regenerate only

Python 3.11, standard library only. Every track uses its own random.Random
instances derived from a fixed seed (never the global RNG), so running the
script again produces byte-identical files.

Model
-----
* Truth: a speed schedule is integrated with 0.05 s steps (trapezoidal rule)
  along a path geometry given in a local east/north plane in metres. The true
  distance is the horizontal arc length travelled along that geometry.
  Phase changes ramp the speed with a half-cosine over 2-4 s, starting exactly
  at the phase boundary. Time phases end at exact multiples of 0.05 s; distance
  phases end at the (linearly interpolated) instant the true distance in the
  phase reaches its target.
* Receiver: reported position = truth + first-order Gauss-Markov error per axis
  (east, north, up) + white jitter (+ multipath outliers where configured). The
  10 Hz receiver additionally low-pass filters its output (receiver smoothing).
  Doppler speed = true speed + white noise (never negative), course = true
  heading + noise that grows at low speed. East/north metres are converted to
  latitude/longitude with WGS84 radii of curvature (local scale at each point).
"""

import bisect
import datetime as dt
import json
import math
import os
import random
import sys

SCRIPT = "scripts/simulate-tracks.py"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "SampleTracks")

TICK_HZ = 20                     # truth integration steps per second
DT = 1.0 / TICK_HZ
EXTRA_S = 10.0                   # recording continues this long after the workout end
MPS_TO_KN = 3600.0 / 1852.0
MPS_TO_KMH = 3.6
MILE_M = 1609.344
WGS84_A = 6378137.0
WGS84_E2 = 6.69437999014e-3
T_DECEL = 2.5                    # traffic-light stop: deceleration time (s)
T_ACCEL = 3.0                    # traffic-light stop: acceleration time (s)


# --------------------------------------------------------------------------
# Geodesy helpers
# --------------------------------------------------------------------------

def radii(lat_rad):
    """Meridian radius M and prime-vertical radius N (WGS84) at a latitude."""
    w = 1.0 - WGS84_E2 * math.sin(lat_rad) ** 2
    return WGS84_A * (1.0 - WGS84_E2) / (w * math.sqrt(w)), WGS84_A / math.sqrt(w)


def enu_to_ll(e, n, lat0, lon0):
    """Local east/north metres -> (lat, lon) degrees, local scale at the point."""
    phi0 = math.radians(lat0)
    phi = phi0 + n / radii(phi0)[0]
    phi = phi0 + n / radii(0.5 * (phi0 + phi))[0]
    nn = radii(phi)[1]
    lam = math.radians(lon0) + e / (nn * math.cos(phi))
    return math.degrees(phi), math.degrees(lam)


def ellipsoid_step(lat1, lon1, lat2, lon2):
    """Short-distance ellipsoidal distance (metres) between two points."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    m, n = radii(0.5 * (p1 + p2))
    dn = m * (p2 - p1)
    de = n * math.cos(0.5 * (p1 + p2)) * math.radians(lon2 - lon1)
    return math.hypot(de, dn)


def haversine(lat1, lon1, lat2, lon2, r=6371008.8):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(min(1.0, math.sqrt(h)))


# --------------------------------------------------------------------------
# Path geometry (local east/north metres). pos(s) -> (e, n, heading_deg)
# --------------------------------------------------------------------------

class TrackLoop:
    """400 m standard track, lane 1, run counter-clockwise from the finish line.

    Inner kerb radius 36.50 m; the lane-1 running line is 0.30 m outside the
    kerb (radius 36.80 m), which makes one lap exactly 400.00 m with the
    84.39 m straights.
    """

    def __init__(self, straight=84.39, kerb_radius=36.5, bearing_deg=62.0, alt=408.0):
        self.L = straight
        self.R = kerb_radius + 0.30
        self.lap = 2 * straight + 2 * math.pi * self.R
        b = math.radians(bearing_deg)
        self.ux = (math.sin(b), math.cos(b))      # local x axis (along the straights)
        self.uy = (-math.cos(b), math.sin(b))     # local y axis (left of x)
        self.alt0 = alt

    def _local(self, s):
        L, R = self.L, self.R
        s %= self.lap
        if s < math.pi * R:
            th = -math.pi / 2 + s / R
            return L / 2 + R * math.cos(th), R * math.sin(th), -math.sin(th), math.cos(th)
        s -= math.pi * R
        if s < L:
            return L / 2 - s, R, -1.0, 0.0
        s -= L
        if s < math.pi * R:
            th = math.pi / 2 + s / R
            return -L / 2 + R * math.cos(th), R * math.sin(th), -math.sin(th), math.cos(th)
        s -= math.pi * R
        return -L / 2 + s, -R, 1.0, 0.0

    def pos(self, s):
        x, y, dx, dy = self._local(s)
        e = x * self.ux[0] + y * self.uy[0]
        n = x * self.ux[1] + y * self.uy[1]
        de = dx * self.ux[0] + dy * self.uy[0]
        dn = dx * self.ux[1] + dy * self.uy[1]
        return e, n, math.degrees(math.atan2(de, dn)) % 360.0

    def alt(self, s):
        return self.alt0


class DensePath:
    """Polyline sampled densely (<= 0.5 m); s is the cumulative chord length."""

    def __init__(self, pieces, alt_fn, start_heading=0.0, ds=0.5):
        # pieces: (length_m, heading_start_deg, heading_end_deg)
        e = n = 0.0
        self.e, self.n, self.cum, self.hd = [0.0], [0.0], [0.0], []
        s = 0.0
        for length, h0, h1 in pieces:
            m = max(1, math.ceil(length / ds))
            step = length / m
            for i in range(m):
                h = h0 + (h1 - h0) * (i + 0.5) / m
                hr = math.radians(h)
                e += step * math.sin(hr)
                n += step * math.cos(hr)
                s += step
                self.e.append(e)
                self.n.append(n)
                self.cum.append(s)
                self.hd.append(h % 360.0)
        self.length = s
        self.alt_fn = alt_fn

    def pos(self, s):
        i = bisect.bisect_right(self.cum, s) - 1
        i = max(0, min(i, len(self.cum) - 2))
        f = (s - self.cum[i]) / (self.cum[i + 1] - self.cum[i])
        return (self.e[i] + f * (self.e[i + 1] - self.e[i]),
                self.n[i] + f * (self.n[i + 1] - self.n[i]),
                self.hd[i])

    def alt(self, s):
        return self.alt_fn(s)


class FixedPoint:
    def __init__(self, alt):
        self.alt0 = alt

    def pos(self, s):
        return 0.0, 0.0, 0.0

    def alt(self, s):
        return self.alt0


def city_route(rng):
    """Street polyline: right-angle and oblique turns, 6 m corner fillets."""
    segs = []
    h = 23.0                        # street grid orientation
    total = 0.0
    while total < 7000.0:
        length = rng.uniform(110.0, 380.0)
        segs.append((length, h))
        total += length
        r = rng.random()
        if r < 0.68:
            h += rng.choice((-90.0, 90.0))
        else:
            h += rng.choice((-1.0, 1.0)) * rng.uniform(25.0, 60.0)
    fillet = 6.0
    turns = [(segs[i + 1][1] - segs[i][1]) for i in range(len(segs) - 1)]
    tang = [fillet * math.tan(math.radians(abs(t)) / 2) for t in turns]
    pieces, corners = [], []
    s = 0.0
    for i, (length, hd) in enumerate(segs):
        straight = length - (tang[i - 1] if i > 0 else 0.0) - (tang[i] if i < len(turns) else 0.0)
        pieces.append((straight, hd, hd))
        s += straight
        if i < len(turns):
            corners.append((s, turns[i]))
            arc = fillet * math.radians(abs(turns[i]))
            pieces.append((arc, hd, hd + turns[i]))
            s += arc
    return pieces, corners


def canyon_route(rng, length=7000.0):
    """Downtown grid between tall blocks: straight streets, right-angle turns only, 4 m fillets."""
    segs, h, total = [], 29.0, 0.0
    while total < length:
        segs.append(rng.uniform(80.0, 240.0))
        total += segs[-1]
    turns = [rng.choice((-90.0, 90.0)) for _ in segs[1:]]
    fillet, tang = 4.0, 4.0              # tan(45 deg) * 4 m
    pieces, corners, s = [], [], 0.0
    for i, length_ in enumerate(segs):
        straight = length_ - (tang if i > 0 else 0.0) - (tang if i < len(turns) else 0.0)
        pieces.append((straight, h, h))
        s += straight
        if i < len(turns):
            corners.append((s, turns[i]))
            arc = fillet * math.radians(abs(turns[i]))
            pieces.append((arc, h, h + turns[i]))
            s += arc
            h += turns[i]
    return pieces, corners


def trail_route(rng, length=6800.0):
    """Winding forest trail: heading = integral of a sum-of-sines curvature."""
    comps = [(0.018, 140.0), (0.012, 420.0), (0.008, 1300.0)]
    phases = [rng.uniform(0, 2 * math.pi) for _ in comps]
    h0 = rng.uniform(0, 360)

    def heading(s):
        h = 0.0
        for (a, lam), ph in zip(comps, phases):
            k = 2 * math.pi / lam
            h += a / k * (math.cos(ph) - math.cos(k * s + ph))
        return h0 + math.degrees(h)

    ds = 0.5
    pieces = []
    s = 0.0
    while s < length:
        pieces.append((ds, heading(s), heading(s + ds)))
        s += ds
    return pieces


def park_route(rng, length=900.0):
    """Gently curving park path (roughly a 700 m loop)."""
    ph = rng.uniform(0, 2 * math.pi)
    h0 = rng.uniform(0, 360)

    def heading(s):
        return h0 + 360.0 * s / 700.0 + 25.0 * math.sin(2 * math.pi * 3 * s / 700.0 + ph)

    pieces, s, ds = [], 0.0, 0.5
    while s < length:
        pieces.append((ds, heading(s), heading(s + ds)))
        s += ds
    return pieces


# --------------------------------------------------------------------------
# Workout + motion simulation
# --------------------------------------------------------------------------

class Phase:
    def __init__(self, kind, mode, amount, speed):
        self.kind, self.mode, self.amount, self.speed = kind, mode, amount, speed


def ramp_len(rng, v0, v1):
    return max(2.0, min(4.0, 1.6 + 0.8 * abs(v1 - v0) + rng.uniform(-0.3, 0.3)))


class Truth:
    pass


def simulate(phases, rng, path, rate, stops=(), grade_coef=None, wobble=(0.02, 0.01)):
    """Integrate the speed schedule. Returns a Truth with per-tick S (m) and V (m/s)."""
    p1, p2 = rng.uniform(25, 45), rng.uniform(8, 14)
    f1, f2 = rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi)
    a1, a2 = wobble
    stops = list(stops)

    def grade(s):
        return (path.alt(s + 1.0) - path.alt(s - 1.0)) / 2.0

    st = {"i": 0, "done": False, "ramp_t0": 0.0, "ramp_from": 0.0,
          "ramp_dur": ramp_len(rng, 0.0, phases[0].speed),
          "state": "move", "st_t0": 0.0, "stop_idx": 0}

    def target(t, s):
        ph = phases[st["i"]]
        if ph.speed == 0.0:
            return 0.0
        v = ph.speed * (1 + a1 * math.sin(2 * math.pi * t / p1 + f1)
                        + a2 * math.sin(2 * math.pi * t / p2 + f2))
        if grade_coef is not None:
            c = grade_coef[0] if ph.kind == "run" else grade_coef[1]
            v *= max(0.75, min(1.15, 1.0 - c * grade(s)))
        return v

    def base(t, s):
        tg = target(t, s)
        u = (t - st["ramp_t0"]) / st["ramp_dur"]
        if u < 1.0:
            w = 0.5 - 0.5 * math.cos(math.pi * max(0.0, u))
            return st["ramp_from"] + (tg - st["ramp_from"]) * w
        return tg

    def envelope(t):
        while True:
            state = st["state"]
            if state == "move":
                return 1.0
            if state == "dec":
                u = (t - st["st_t0"]) / T_DECEL
                if u < 1.0:
                    return 0.5 + 0.5 * math.cos(math.pi * u)
                st["state"], st["st_t0"] = "stand", st["st_t0"] + T_DECEL
                continue
            if state == "stand":
                dur = stops[st["stop_idx"]][1]
                if t < st["st_t0"] + dur - 1e-9:
                    return 0.0
                st["state"], st["st_t0"] = "acc", st["st_t0"] + dur
                continue
            u = (t - st["st_t0"]) / T_ACCEL
            if u < 1.0:
                return 0.5 - 0.5 * math.cos(math.pi * u)
            st["state"] = "move"
            st["stop_idx"] += 1
            return 1.0

    records = []                 # (start_t, end_t, start_s, end_s)
    cur = {"start_t": 0.0, "start_s": 0.0}
    end = {"t": None}

    def switch(tb, sb, from_speed):
        records.append((cur["start_t"], tb, cur["start_s"], sb))
        cur["start_t"], cur["start_s"] = tb, sb
        if st["i"] + 1 >= len(phases):
            st["done"] = True
            end["t"] = tb
            return
        st["i"] += 1
        st["ramp_t0"], st["ramp_from"] = tb, from_speed
        st["ramp_dur"] = ramp_len(rng, from_speed, phases[st["i"]].speed)

    S, V, B = [0.0], [0.0], [0.0]
    k = 0
    rec_end = None
    while True:
        k += 1
        t = k / TICK_HZ
        s_prev, v_prev = S[-1], V[-1]
        ph = phases[st["i"]]
        time_switch = False
        if not st["done"] and ph.mode == "time" and t >= cur["start_t"] + ph.amount - 1e-9:
            tb = cur["start_t"] + ph.amount
            if abs(tb - t) > 1e-9:
                raise RuntimeError("time phase boundary not tick aligned")
            switch(t, None, base(t, s_prev))
            time_switch = True
        b = base(t, s_prev)
        v = b * envelope(t)
        s = s_prev + 0.5 * (v_prev + v) * DT
        if time_switch:          # the boundary is this tick: its distance is s
            records[-1] = records[-1][:3] + (s,)
            cur["start_s"] = s
        S.append(s)
        V.append(v)
        B.append(b)
        ph = phases[st["i"]]
        if not st["done"] and ph.mode == "dist" and s - cur["start_s"] >= ph.amount:
            target_s = cur["start_s"] + ph.amount
            tc = (t - DT) + (target_s - s_prev) / (s - s_prev) * DT
            switch(tc, target_s, b)
        if stops and st["state"] == "move" and st["stop_idx"] < len(stops):
            if stops[st["stop_idx"]][0] - s <= v * T_DECEL / 2:
                st["state"], st["st_t0"] = "dec", t
        if st["done"] and rec_end is None:
            rec_end = math.ceil((end["t"] + EXTRA_S) * rate - 1e-9) / rate
        if rec_end is not None and t >= rec_end - 1e-9:
            break

    tr = Truth()
    tr.S, tr.V = S, V
    tr.records = records
    tr.end_t = end["t"]
    tr.rec_end = rec_end
    # stationary intervals: runs of exactly-zero true speed lasting >= 1 s
    stat, run0 = [], None
    for i, v in enumerate(V + [1.0]):
        if v == 0.0 and run0 is None:
            run0 = i
        elif v != 0.0 and run0 is not None:
            if (i - 1 - run0) / TICK_HZ >= 1.0:
                stat.append((run0 / TICK_HZ, (i - 1) / TICK_HZ))
            run0 = None
    tr.stationary = stat
    return tr


def s_at(tr, t):
    x = t * TICK_HZ
    i = min(int(math.floor(x)), len(tr.S) - 2)
    f = x - i
    return tr.S[i] + f * (tr.S[i + 1] - tr.S[i])


def crossing_time(tr, d):
    i = bisect.bisect_left(tr.S, d)
    if i == 0:
        return 0.0
    s0, s1 = tr.S[i - 1], tr.S[i]
    return (i - 1 + (d - s0) / (s1 - s0)) / TICK_HZ


# --------------------------------------------------------------------------
# Receiver model
# --------------------------------------------------------------------------

class GM:
    """First-order Gauss-Markov process, stationary start."""

    def __init__(self, rng, sigma, tau, dt_):
        self.rng, self.sigma = rng, sigma
        self.a = math.exp(-dt_ / tau) if tau > 0 else 0.0
        self.q = sigma * math.sqrt(1 - self.a * self.a)
        self.x = rng.gauss(0.0, sigma)

    def step(self):
        self.x = self.a * self.x + self.q * self.rng.gauss(0.0, 1.0)
        return self.x


class Sky:
    """Satellites in view (elevation/azimuth drifting slowly) with SNR and blockage."""

    def __init__(self, rng, n_pool, prn_pool, urban, rate):
        self.rng, self.urban, self.dt = rng, urban, 1.0 / rate
        prns = sorted(rng.sample(prn_pool, n_pool))
        self.sats = []
        for p in prns:
            el0 = rng.uniform(12.0, 85.0)
            self.sats.append({"prn": p, "el0": el0, "az0": rng.uniform(0, 360),
                              "del": rng.uniform(-0.004, 0.004), "daz": rng.uniform(-0.008, 0.008),
                              "off": rng.uniform(-3.0, 3.0), "blocked": False})

    def observe(self, t):
        out = []
        for sat in self.sats:
            el = sat["el0"] + sat["del"] * t
            if el < 5.0:
                continue
            el = min(el, 89.0)
            az = (sat["az0"] + sat["daz"] * t) % 360.0
            snr = 22.0 + 0.28 * el + sat["off"] + self.rng.gauss(0.0, 1.0)
            if self.urban:
                p_flip = self.dt / (40.0 if sat["blocked"] else (60.0 + 3.0 * el))
                if self.rng.random() < p_flip:
                    sat["blocked"] = not sat["blocked"]
                if sat["blocked"]:
                    snr -= 14.0
            snr = int(round(max(0.0, min(50.0, snr))))
            out.append((sat["prn"], int(round(el)), int(round(az)) % 360, snr if snr >= 18 else None))
        return out


class Canyon:
    """Extra receiver errors between tall buildings (urban canyon), on top of the Gauss-Markov
    error: non-line-of-sight (NLOS) position biases that step when the set of satellites used
    changes or the street changes, mostly across the street (reflections off the facades put
    the fix on one side of the street for a whole block), with a smaller along-street part;
    and Doppler readings that are noisier and now and then biased for a few seconds (reflected
    carriers) or glitched for one epoch. The reported GST sigma knows nothing of the NLOS bias.
    """

    def __init__(self, p, rng, dt_):
        self.p, self.rng, self.dt = p, rng, dt_
        self.street = None          # heading of the street the bias belongs to (degrees)
        self.side = rng.choice((-1.0, 1.0))
        self.bias = (0.0, 0.0)      # (east, north) metres
        self.cross = self.along = 0.0
        self.prev = None
        self.glitch_left, self.glitch_bias = 0, 0.0

    def _draw(self):
        p, r = self.p, self.rng
        if r.random() < p["los_share"]:
            self.cross = self.along = 0.0
            return
        if r.random() > p["same_side"]:
            self.side = -self.side
        self.cross = self.side * r.uniform(*p["cross_m"])
        self.along = r.gauss(0.0, p["along_sigma_m"])

    def position_bias(self, heading, used):
        r, p = self.rng, self.p
        new_street = self.street is None or abs((heading - self.street + 180.0) % 360.0 - 180.0) > 45.0
        changed = self.prev is not None and used != self.prev
        self.prev = set(used)
        if new_street:
            self.street = round(heading / 90.0) * 90.0 % 360.0 if p.get("grid") is None else \
                (p["grid"] + round((heading - p["grid"]) / 90.0) * 90.0) % 360.0
            self._draw()
        elif (changed and r.random() < p["jump_on_change"]) or r.random() < self.dt / p["jump_every_s"]:
            self._draw()
        h = math.radians(self.street)
        ue, un = math.sin(h), math.cos(h)             # along the street
        self.bias = (self.along * ue + self.cross * un, self.along * un - self.cross * ue)
        return self.bias

    def doppler(self, v, sog, cog):
        r, p = self.rng, self.p
        extra = r.gauss(0.0, p["doppler_extra_sigma"])
        spike = r.random() < p["spike_prob"]
        if self.glitch_left == 0 and r.random() < self.dt / p["glitch_every_s"]:
            self.glitch_left = r.randint(*p["glitch_s"])
            self.glitch_bias = r.choice((-1.0, 1.0)) * r.uniform(*p["glitch_mps"])
        bias = 0.0
        if self.glitch_left > 0:
            self.glitch_left -= 1
            bias = self.glitch_bias
        if v < 0.05:
            return sog, cog
        sog = max(0.0, sog + extra + bias + (r.uniform(*p["spike_mps"]) if spike else 0.0))
        if cog is not None:
            cog = (cog + r.gauss(0.0, p["course_extra_deg"])) % 360.0
        return sog, cog


class Epoch:
    pass


def receiver_epochs(cfg, tr, path):
    """Reported data for every epoch (including dropout epochs, flagged)."""
    rate = cfg["rate"]
    dtf = 1.0 / rate
    seed = cfg["seed"]
    r_err = random.Random(f"{seed}-position-error")
    r_jit = random.Random(f"{seed}-jitter")
    r_dop = random.Random(f"{seed}-doppler")
    r_sky = random.Random(f"{seed}-sky")
    r_dil = random.Random(f"{seed}-dop")
    sig, tau, jit = cfg["sigma"], cfg["tau"], cfg["jitter"]
    ge, gn = GM(r_err, sig, tau, dtf), GM(r_err, sig, tau, dtf)
    gu = GM(r_err, 1.7 * sig, tau, dtf)
    smooth = cfg.get("smooth_tau")
    alpha = 1.0 - math.exp(-dtf / smooth) if smooth else 1.0
    fe = fn = fu = None
    lh = GM(r_dil, 0.22, 120.0, dtf)
    nlo, nhi = cfg["nsat"]
    nused = r_dil.randint(nlo + 1, nhi - 1)
    sky = Sky(r_sky, min(nhi + 2, 16) if cfg["talker"] == "GP" else nhi + 2,
              list(range(1, 33)), cfg["sky"] == "urban", rate) if cfg.get("gsv_model", True) else None
    hlo, hhi = cfg["hdop"]
    hmean = math.sqrt(hlo * hhi)
    prev_used = set()
    outl = {}
    for o in cfg.get("outliers", []):
        for j in range(o["fixes"]):
            b = math.radians(o["bearing_deg"])
            outl[round((o["at_s"] + j * dtf) * rate)] = (o["offset_m"] * math.sin(b),
                                                         o["offset_m"] * math.cos(b),
                                                         o["up_m"])
    drop = {}
    for d in cfg.get("dropouts", []):
        j0, j1 = round(d["start_s"] * rate), round(d["end_s"] * rate)
        for j in range(j0, j1):
            drop[j] = d["kind"]
    step = TICK_HZ // rate if TICK_HZ % rate == 0 else None
    assert step is not None
    canyon = Canyon(cfg["canyon"], random.Random(f"{seed}-canyon"), dtf) if cfg.get("canyon") else None
    n_ep = round(tr.rec_end * rate) + 1
    epochs = []
    for j in range(n_ep):
        t = j / rate
        k = j * step
        s, v = tr.S[k], tr.V[k]
        e_t, n_t, hd = path.pos(s)
        a_t = path.alt(s)
        # error processes advance every epoch, dropouts included
        ce, cn, cu = ge.step(), gn.step(), gu.step()
        je, jn, ju = (r_jit.gauss(0, jit), r_jit.gauss(0, jit), r_jit.gauss(0, 1.5 * jit))
        ee, en, eu = ce + je, cn + jn, cu + ju
        if smooth:
            if fe is None:
                fe, fn, fu = ee, en, eu
            fe += alpha * (ee - fe)
            fn += alpha * (en - fn)
            fu += alpha * (eu - fu)
            ee, en, eu = fe, fn, fu
        if j in outl:
            oe, on, ou = outl[j]
            ee, en, eu = ee + oe, en + on, eu + ou
        # Doppler speed and course
        dn_ = r_dop.gauss(0.0, 1.0)
        dc_ = r_dop.gauss(0.0, 1.0)
        du_ = r_dop.random()
        if v < 0.05:
            sog = min(abs(dn_) * cfg["still_sigma"], cfg["still_max"])
            cog = None if cfg["still_course"] == "empty" else du_ * 360.0
        else:
            sog = max(0.0, v + dn_ * cfg["dop_sigma"])
            csig = min(90.0, 1.5 + 8.0 / v)
            cog = (hd + dc_ * csig) % 360.0
        if canyon:
            sog, cog = canyon.doppler(v, sog, cog)
        # satellites / DOP
        if r_dil.random() < dtf / 45.0:
            nused = max(nlo, min(nhi, nused + r_dil.choice((-1, 1))))
        sats = sky.observe(t) if sky else None
        used_prns = []
        nu = nused
        if sats is not None:
            # prefer satellites already in use (hysteresis, like a real tracking loop)
            cands = sorted([x for x in sats if x[3] is not None and x[3] >= 25],
                           key=lambda x: (-(x[3] + (4 if x[0] in prev_used else 0)), x[0]))
            nu = min(nused, len(cands), 12)
            used_prns = sorted(x[0] for x in cands[:nu])
            prev_used = set(used_prns)
        if canyon:       # NLOS bias: steps when the satellites used or the street change
            be, bn = canyon.position_bias(hd, set(used_prns))
            ee, en = ee + be, en + bn
        # HDOP: slow log-normal-ish process, worse with fewer satellites, squashed
        # smoothly into the track's range (no hard clamping)
        z = lh.step() / 0.22 + 1.6 * ((nlo + nhi) / 2.0 - nu) / max(1.0, (nhi - nlo))
        hdop = hlo + (hhi - hlo) / (1.0 + math.exp(-1.1 * z))
        vdop = hdop * (1.45 + 0.1 * math.sin(t / 97.0))
        pdop = math.hypot(hdop, vdop)
        ep = Epoch()
        ep.j, ep.t, ep.kind = j, t, drop.get(j, "fix")
        ep.true_en = (e_t, n_t)
        ep.true_ll = enu_to_ll(e_t, n_t, cfg["lat0"], cfg["lon0"])
        ep.lat, ep.lon = enu_to_ll(e_t + ee, n_t + en, cfg["lat0"], cfg["lon0"])
        ep.alt = a_t + eu
        ep.err = (ee, en)
        ep.sog, ep.cog = sog, cog
        ep.hdop, ep.vdop, ep.pdop = hdop, vdop, pdop
        ep.nused, ep.used_prns, ep.sats = nu, used_prns, sats
        sh = math.hypot(sig, jit) * hdop / hmean
        if canyon:
            ep.nlos = canyon.bias
        ep.gst = (0.6 * sh, 1.15 * sh, 0.85 * sh, (37.0 + 0.01 * t) % 180.0,
                  sh * 1.02, sh * 0.98, 1.7 * sh)
        epochs.append(ep)
    return epochs


# --------------------------------------------------------------------------
# NMEA formatting
# --------------------------------------------------------------------------

def checksum(body):
    c = 0
    for ch in body.encode("ascii"):
        c ^= ch
    return f"{c:02X}"


def sentence(body):
    return f"${body}*{checksum(body)}\r\n"


def fmt_coord(value, deg_digits):
    hemi = ("N", "S") if deg_digits == 2 else ("E", "W")
    h = hemi[0] if value >= 0 else hemi[1]
    a = abs(value)
    d = int(a)
    m = round((a - d) * 60.0, 6)
    if m >= 60.0:
        d, m = d + 1, 0.0
    return f"{d:0{deg_digits}d}{m:09.6f}", h


def fmt_time(start, t, rate):
    cs = round(t * 100)
    stamp = start + dt.timedelta(seconds=cs // 100)
    return f"{stamp:%H%M%S}.{cs % 100:02d}", f"{stamp:%d%m%y}"


def epoch_sentences(cfg, ep):
    tk = cfg["talker"]
    hms, dmy = fmt_time(cfg["start"], ep.t, cfg["rate"])
    fix = ep.kind == "fix"
    lat, ns = fmt_coord(ep.lat, 2)
    lon, ew = fmt_coord(ep.lon, 3)
    out = []
    for name in cfg["sentences"]:
        if name == "RMC":
            if fix:
                cog = "" if ep.cog is None else f"{ep.cog:.2f}"
                out.append(f"{tk}RMC,{hms},A,{lat},{ns},{lon},{ew},{ep.sog * MPS_TO_KN:.3f},{cog},{dmy},,,A")
            else:
                out.append(f"{tk}RMC,{hms},V,,,,,,,{dmy},,,N")
        elif name == "VTG":
            if fix:
                cog = "" if ep.cog is None else f"{ep.cog:.2f}"
                out.append(f"{tk}VTG,{cog},T,,M,{ep.sog * MPS_TO_KN:.3f},N,{ep.sog * MPS_TO_KMH:.3f},K,A")
            else:
                out.append(f"{tk}VTG,,T,,M,,N,,K,N")
        elif name == "GGA":
            if fix:
                out.append(f"{tk}GGA,{hms},{lat},{ns},{lon},{ew},1,{ep.nused:02d},{ep.hdop:.2f},"
                           f"{ep.alt:.1f},M,{cfg['geoid']:.1f},M,,")
            else:
                out.append(f"{tk}GGA,{hms},,,,,0,00,99.99,,M,,M,,")
        elif name == "GSA":
            if fix:
                prns = [f"{p:02d}" for p in ep.used_prns] + [""] * (12 - len(ep.used_prns))
                out.append(f"{tk}GSA,A,3,{','.join(prns)},{ep.pdop:.2f},{ep.hdop:.2f},{ep.vdop:.2f}")
            else:
                out.append(f"{tk}GSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99")
        elif name == "GSV":
            sats = ep.sats
            if not fix:   # no fix: satellites still in view, few tracked
                sats = [(p, el, az, snr if (snr is not None and snr >= 30 and i % 3 == 0) else None)
                        for i, (p, el, az, snr) in enumerate(sats)]
            total = max(1, math.ceil(len(sats) / 4))
            for m in range(total):
                chunk = sats[4 * m:4 * m + 4]
                f = [f"{tk}GSV", str(total), str(m + 1), f"{len(sats):02d}"]
                for p, el, az, snr in chunk:
                    f += [f"{p:02d}", f"{el:02d}", f"{az:03d}", "" if snr is None else f"{snr:02d}"]
                out.append(",".join(f))
        elif name == "GST":
            if fix:
                g = ep.gst
                out.append(f"{tk}GST,{hms},{g[0]:.2f},{g[1]:.2f},{g[2]:.2f},{g[3]:.1f},"
                           f"{g[4]:.2f},{g[5]:.2f},{g[6]:.2f}")
            else:
                out.append(f"{tk}GST,{hms},,,,,,,")
        else:
            raise ValueError(name)
    return [sentence(b) for b in out]


# --------------------------------------------------------------------------
# Track definitions
# --------------------------------------------------------------------------

def time_phases(spec):
    return [Phase(kind, "time", float(amount), speed) for kind, amount, speed in spec]


def make_track_loop(name="track-loop.nmea", sentences=("RMC", "VTG", "GGA", "GSA", "GSV", "GST")):
    seed = 4001
    rm = random.Random(f"{seed}-motion")
    spec = [("warmup", 300, 1.7)]
    for _ in range(8):
        spec.append(("run", 90, round(rm.uniform(3.0, 3.3), 3)))
        spec.append(("walk", 60, round(rm.uniform(1.35, 1.45), 3)))
    spec.append(("cooldown", 300, 1.5))
    path = TrackLoop()
    cfg = dict(name=name, seed=seed, workout="5m warmup, 8x(90s run, 60s walk), 5m cooldown",
               start=dt.datetime(2026, 4, 12, 6, 30, 0), rate=1, talker="GP",
               sentences=list(sentences), lat0=47.3769, lon0=8.5417, geoid=48.0,
               sigma=1.5, tau=60.0, jitter=0.3, hdop=(0.6, 1.1), nsat=(9, 12), sky="open",
               dop_sigma=0.08, still_sigma=0.04, still_max=0.1, still_course="empty",
               scenario="400 m athletics track (two 84.39 m straights, bends of inner kerb radius "
                        "36.50 m), lane 1 running line (kerb + 0.30 m) = 400.00 m per lap, "
                        "counter-clockwise from the finish line; open sky, good u-blox-like receiver",
               phases=time_phases(spec), path=path)
    if name != "track-loop.nmea":
        cfg["scenario"] = ("same true motion and same receiver errors as track-loop.nmea "
                           "(identical GGA positions), but the receiver emits GGA only: "
                           "no Doppler speed/course, no date")
    return cfg


def make_city():
    seed = 4002
    rm = random.Random(f"{seed}-motion")
    rv = random.Random(f"{seed}-events")
    spec = [("warmup", 600, 1.5)]
    for _ in range(6):
        spec.append(("run", 180, round(rm.uniform(2.6, 2.9), 3)))
        spec.append(("walk", 120, round(rm.uniform(1.35, 1.45), 3)))
    spec.append(("cooldown", 300, 1.45))
    pieces, corners = city_route(rm)
    path = DensePath(pieces, lambda s: 412.0 + 6.0 * math.sin(s / 900.0) + 2.0 * math.sin(s / 230.0))
    # traffic lights at 5 corners, spread along the route
    stops = []
    cands = [c for c in corners if 350.0 < c[0] < 4600.0]
    last = -1e9
    for c_s, _turn in cands:
        if c_s - last >= 650.0 and len(stops) < 5 and rv.random() < 0.8:
            stops.append((c_s - 3.0, float(rv.randint(15, 60))))
            last = c_s
    duration = 2700.0
    # dropouts: 2 silent + 2 no-fix, spread out
    kinds = ["silent", "nofix", "silent", "nofix"]
    rv.shuffle(kinds)
    dropouts = []
    for i, kind in enumerate(kinds):
        lo = 200 + i * 600
        start = rv.randint(lo, lo + 380)
        dropouts.append({"start_s": float(start), "end_s": float(start + rv.randint(5, 20)), "kind": kind})
    # multipath outliers ~1 per 3 minutes, not inside/next to dropouts
    outliers = []
    t = 40.0
    while True:
        t += rv.expovariate(1.0 / 180.0)
        at = float(round(t))
        if at > duration + EXTRA_S - 5:
            break
        n = rv.randint(1, 3)
        if any(d["start_s"] - 5 <= at <= d["end_s"] + 5 for d in dropouts):
            continue
        if outliers and at - (outliers[-1]["at_s"] + outliers[-1]["fixes"]) < 20:
            continue
        outliers.append({"at_s": at, "offset_m": round(rv.uniform(20.0, 80.0), 2), "fixes": n,
                         "bearing_deg": round(rv.uniform(0, 360), 1),
                         "up_m": round(rv.uniform(-15.0, 25.0), 1)})
    return dict(name="city-stopgo.nmea", seed=seed,
                workout="10m warmup, 6x(3m run, 2m walk), 5m cooldown",
                start=dt.datetime(2026, 4, 14, 17, 45, 0), rate=1, talker="GP",
                sentences=["RMC", "GGA", "GSA", "GSV"], lat0=47.3779, lon0=8.5264, geoid=48.0,
                sigma=4.5, tau=60.0, jitter=0.8, hdop=(1.2, 3.0), nsat=(6, 10), sky="urban",
                dop_sigma=0.15, still_sigma=0.05, still_max=0.1, still_course="empty",
                scenario="stop-and-go city route (street polyline with right-angle and oblique turns, "
                         "6 m corner fillets), traffic-light stops at corners; urban canyon: "
                         "higher HDOP, larger correlated error, multipath outliers, dropouts",
                phases=time_phases(spec), path=path, stops=stops, dropouts=dropouts,
                outliers=outliers)


def make_trail():
    seed = 4003
    rm = random.Random(f"{seed}-motion")
    rv = random.Random(f"{seed}-events")
    phases = []
    for _ in range(10):
        phases.append(Phase("run", "dist", 400.0, round(rm.uniform(2.95, 3.2), 3)))
        phases.append(Phase("walk", "dist", 200.0, round(rm.uniform(1.3, 1.4), 3)))
    ph1, ph2, ph3 = (rm.uniform(0, 2 * math.pi) for _ in range(3))

    def alt(s):
        return (705.0 + 22.0 * math.sin(2 * math.pi * s / 2100.0 + ph1)
                + 9.0 * math.sin(2 * math.pi * s / 900.0 + ph2)
                + 3.0 * math.sin(2 * math.pi * s / 300.0 + ph3))

    path = DensePath(trail_route(rm), alt)
    start = float(rv.randint(1200, 1500)) + rv.choice((0.0, 0.5))
    dropouts = [{"start_s": start, "end_s": start + 4.0, "kind": "nofix"}]
    return dict(name="trail-10hz.nmea", seed=seed, workout="10x(400m run, 200m walk)",
                start=dt.datetime(2026, 4, 18, 8, 10, 0), rate=10, talker="GN",
                sentences=["RMC", "GGA"], lat0=47.3490, lon0=8.4920, geoid=48.1,
                sigma=2.5, tau=40.0, jitter=0.3, smooth_tau=1.5, hdop=(0.9, 1.8), nsat=(9, 14),
                sky="canopy", gsv_model=False,
                dop_sigma=0.10, still_sigma=0.04, still_max=0.1, still_course="empty",
                scenario="winding forest trail with elevation changes (about +-35 m), moderate "
                         "canopy, one short no-fix dropout under dense trees; 10 Hz multi-GNSS "
                         "receiver with output smoothing",
                phases=phases, path=path, grade_coef=(2.0, 1.2), dropouts=dropouts)


def make_standing():
    seed = 4005
    return dict(name="standing-10min.nmea", seed=seed, workout="10m walk",
                start=dt.datetime(2026, 4, 20, 12, 0, 0), rate=1, talker="GP",
                sentences=["RMC", "GGA", "GSA"], lat0=47.3900, lon0=8.5150, geoid=48.0,
                sigma=2.5, tau=75.0, jitter=0.35, hdop=(0.8, 1.4), nsat=(7, 11), sky="open",
                dop_sigma=0.10, still_sigma=0.12, still_max=0.3, still_course="random",
                scenario="receiver lying still (truth distance 0); position wanders with the "
                         "correlated error, Doppler speed reports small noisy values",
                phases=[Phase("walk", "time", 600.0, 0.0)], path=FixedPoint(455.0))


CANYON = {
    "grid": 29.0,                 # street grid orientation (degrees)
    "los_share": 0.2,             # share of bias draws with no NLOS satellite in the fix
    "cross_m": (7.0, 26.0),       # NLOS bias across the street, metres
    "same_side": 0.8,             # a new draw stays on the same street side
    "along_sigma_m": 6.0,         # NLOS bias along the street (sigma), metres
    "jump_on_change": 0.3,        # a change of the satellites used steps the bias
    "jump_every_s": 60.0,         # and it steps on its own about this often
    "doppler_extra_sigma": 0.2,   # m/s on top of dop_sigma
    "course_extra_deg": 4.0,
    "glitch_every_s": 150.0,      # biased Doppler for a few seconds (reflected carrier)
    "glitch_s": (2, 6),
    "glitch_mps": (0.4, 1.2),
    "spike_prob": 0.006,          # single-epoch Doppler spike
    "spike_mps": (1.0, 3.0),
}


def make_canyon():
    seed = 4007
    rm = random.Random(f"{seed}-motion")
    rv = random.Random(f"{seed}-events")
    spec = [("warmup", 600, 1.5)]
    for _ in range(5):
        spec.append(("run", 240, round(rm.uniform(2.7, 3.0), 3)))
        spec.append(("walk", 120, round(rm.uniform(1.35, 1.45), 3)))
    spec.append(("cooldown", 300, 1.45))
    pieces, corners = canyon_route(rm)
    path = DensePath(pieces, lambda s: 30.0 + 2.0 * math.sin(s / 700.0))
    stops, last = [], -1e9           # four traffic lights at corners
    for c_s, _turn in corners:
        if 300.0 < c_s < 5000.0 and c_s - last >= 900.0 and len(stops) < 4 and rv.random() < 0.7:
            stops.append((c_s - 3.0, float(rv.randint(15, 45))))
            last = c_s
    duration = 2700.0
    dropouts = []                    # underpasses / arcades: short, one silent in three
    for i in range(4):
        start = rv.randint(250 + i * 600, 250 + i * 600 + 400)
        dropouts.append({"start_s": float(start), "end_s": float(start + rv.randint(3, 9)),
                         "kind": "silent" if i % 3 == 1 else "nofix"})
    outliers, t = [], 30.0
    while True:
        t += rv.expovariate(1.0 / 240.0)
        at = float(round(t))
        if at > duration + EXTRA_S - 5:
            break
        if any(d["start_s"] - 5 <= at <= d["end_s"] + 5 for d in dropouts):
            continue
        if outliers and at - (outliers[-1]["at_s"] + outliers[-1]["fixes"]) < 20:
            continue
        outliers.append({"at_s": at, "offset_m": round(rv.uniform(30.0, 90.0), 2), "fixes": rv.randint(1, 3),
                         "bearing_deg": round(rv.uniform(0, 360), 1), "up_m": round(rv.uniform(-20.0, 30.0), 1)})
    return dict(name="urban-canyon.nmea", seed=seed,
                workout="10m warmup, 5x(4m run, 2m walk), 5m cooldown",
                start=dt.datetime(2026, 4, 23, 12, 15, 0), rate=1, talker="GN",
                sentences=["RMC", "VTG", "GGA", "GSA", "GSV", "GST"], lat0=40.7549, lon0=-73.9840, geoid=-32.8,
                sigma=5.0, tau=45.0, jitter=1.5, hdop=(1.4, 4.5), nsat=(4, 9), sky="urban",
                dop_sigma=0.2, still_sigma=0.08, still_max=0.2, still_course="empty",
                scenario="urban canyon: straight streets between tall blocks with right-angle turns "
                         "(4 m corner fillets), four traffic-light stops at corners; NLOS position "
                         "biases of 7-26 m mostly across the street that step when the satellites "
                         "used change, few satellites, high HDOP, optimistic GST, short underpass "
                         "dropouts, multipath outliers, noisier Doppler with short biased runs and spikes",
                phases=time_phases(spec), path=path, stops=stops, dropouts=dropouts,
                outliers=outliers, outlier_text="30-90 m, 1-3 fixes", canyon=CANYON)


def make_demo():
    seed = 4006
    rm = random.Random(f"{seed}-motion")
    spec = [("warmup", 60, 1.6), ("run", 30, round(rm.uniform(3.0, 3.2), 3)),
            ("walk", 30, 1.4), ("run", 30, round(rm.uniform(3.0, 3.2), 3)),
            ("walk", 30, 1.4), ("cooldown", 60, 1.5)]
    path = DensePath(park_route(rm), lambda s: 409.0 + 1.5 * math.sin(s / 120.0))
    return dict(name="demo-short.nmea", seed=seed,
                workout="1m warmup, 2x(30s run, 30s walk), 1m cooldown",
                start=dt.datetime(2026, 4, 21, 19, 0, 0), rate=1, talker="GP",
                sentences=["RMC", "GGA"], lat0=47.3560, lon0=8.5530, geoid=48.0,
                sigma=1.2, tau=50.0, jitter=0.3, hdop=(0.6, 1.0), nsat=(9, 12), sky="open",
                dop_sigma=0.08, still_sigma=0.04, still_max=0.1, still_course="empty",
                scenario="short demo on a gently curving park path, good sky",
                phases=time_phases(spec), path=path)


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------

def r2(x):
    return round(x + 0.0, 2)


def r3(x):
    return round(x + 0.0, 3)


def build_truth(cfg, tr):
    path = cfg["path"]
    end_t = tr.end_t
    dist = s_at(tr, end_t)
    phases = []
    for i, (t0, t1, s0, s1) in enumerate(tr.records):
        ph = cfg["phases"][i]
        phases.append({"index": i, "kind": ph.kind, "start_s": r3(t0), "end_s": r3(t1),
                       "distance_m": r2(s1 - s0)})
    splits_km, splits_mi = [], []
    d = 1000.0
    while d <= dist + 1e-9:
        splits_km.append({"index": len(splits_km) + 1, "elapsed_s": r3(crossing_time(tr, d))})
        d += 1000.0
    d = MILE_M
    while d <= dist + 1e-9:
        splits_mi.append({"index": len(splits_mi) + 1, "elapsed_s": r3(crossing_time(tr, d))})
        d += MILE_M
    # 3D distance and ascent over the workout window
    kend = int(math.floor(end_t * TICK_HZ + 1e-9))
    d3 = asc = 0.0
    a_prev = path.alt(tr.S[0])
    for k in range(1, kend + 1):
        a = path.alt(tr.S[k])
        d3 += math.hypot(tr.S[k] - tr.S[k - 1], a - a_prev)
        asc += max(0.0, a - a_prev)
        a_prev = a
    sent = cfg["sentences"]
    recv = {"sigma_correlated_m": cfg["sigma"], "tau_s": cfg["tau"], "jitter_m": cfg["jitter"],
            "sigma_vertical_m": r2(1.7 * cfg["sigma"]),
            "receiver_smoothing_tau_s": cfg.get("smooth_tau"),
            "hdop_range": list(cfg["hdop"]), "satellites_used_range": list(cfg["nsat"]),
            "doppler_sigma_mps": cfg["dop_sigma"],
            "course_at_standstill": cfg["still_course"],
            "outliers": [{"at_s": o["at_s"], "offset_m": o["offset_m"], "fixes": o["fixes"],
                          "bearing_deg": o["bearing_deg"]} for o in cfg.get("outliers", [])],
            "dropouts": [{"start_s": d_["start_s"], "end_s": d_["end_s"], "kind": d_["kind"]}
                         for d_ in cfg.get("dropouts", [])]}
    if cfg.get("canyon"):
        recv["urban_canyon"] = dict(cfg["canyon"], model=Canyon.__doc__.split("\n\n")[0].replace("\n    ", " ").strip())
    truth = {
        "track": cfg["name"],
        "workout": cfg["workout"],
        "seed": cfg["seed"],
        "rate_hz": cfg["rate"],
        "start_utc": cfg["start"].strftime("%Y-%m-%dT%H:%M:%SZ"),
        "duration_s": r3(end_t),
        "recording_end_s": r3(tr.rec_end),
        "distance_m": r2(dist),
        "distance_3d_m": r2(d3),
        "ascent_m": r2(asc),
        "talker": cfg["talker"],
        "sentences": sent,
        "doppler": ("RMC" in sent) or ("VTG" in sent),
        "has_date": "RMC" in sent,
        "origin": {"lat": cfg["lat0"], "lon": cfg["lon0"], "geoid_separation_m": cfg["geoid"]},
        "scenario": cfg["scenario"],
        "phases": phases,
        "splits_km": splits_km,
        "splits_mile": splits_mi,
        "stationary": [{"start_s": r3(a), "end_s": r3(b)} for a, b in tr.stationary],
        "speed_1hz_mps": [r3(tr.V[k * TICK_HZ]) for k in range(int(math.floor(end_t + 1e-9)) + 1)],
        "receiver": recv,
        "conventions": {
            "time": "seconds since the first epoch (= workout start, t = 0)",
            "distance": "true horizontal arc length along the path geometry, metres; "
                        "distance_m, phases and splits cover t in [0, duration_s] only",
            "phase_bounds": "time phases: exact; distance phases: instant the true distance "
                            "in the phase reaches its target (linear interpolation of the "
                            "0.05 s truth); speed ramps start at the boundary",
            "stationary": "intervals of exactly zero true speed lasting >= 1 s",
            "dropouts": "half-open [start_s, end_s): epochs from start_s up to but not "
                        "including end_s are missing (silent) or have no fix (nofix)",
            "outliers": "the offset is added to the fixes at at_s and the following fixes-1 epochs",
            "speed_1hz_mps": "true horizontal speed at t = 0, 1, 2, ... s (whole seconds up to duration_s), m/s",
        },
    }
    return truth


def header(cfg, truth):
    rcv = (f"{cfg['talker']} talker, {cfg['rate']} Hz, sentences per epoch "
           f"{','.join(cfg['sentences'])}; HDOP {cfg['hdop'][0]}-{cfg['hdop'][1]}, "
           f"satellites used {cfg['nsat'][0]}-{cfg['nsat'][1]}")
    err = (f"position error = Gauss-Markov per axis (sigma {cfg['sigma']} m, tau {cfg['tau']} s) "
           f"+ white jitter {cfg['jitter']} m")
    if cfg.get("smooth_tau"):
        err += f", then receiver output smoothing (tau {cfg['smooth_tau']} s)"
    if cfg.get("outliers"):
        err += f"; {len(cfg['outliers'])} multipath outliers ({cfg.get('outlier_text', '20-80 m, 1-3 fixes')})"
    if cfg.get("canyon"):
        c = cfg["canyon"]
        err += (f"; urban canyon: NLOS bias {c['cross_m'][0]:g}-{c['cross_m'][1]:g} m across the street "
                f"(sigma {c['along_sigma_m']:g} m along it, none in {c['los_share']:.0%} of draws), stepping "
                f"with the satellites used, the street, and about every {c['jump_every_s']:g} s; Doppler "
                f"+{c['doppler_extra_sigma']:g} m/s noise, biased {c['glitch_mps'][0]:g}-{c['glitch_mps'][1]:g} m/s "
                f"for {c['glitch_s'][0]}-{c['glitch_s'][1]} s about every {c['glitch_every_s']:g} s, "
                f"spikes; GST ignores the NLOS bias")
    if cfg.get("dropouts"):
        err += "; dropouts " + ", ".join(f"{d['start_s']:g}-{d['end_s']:g} s {d['kind']}"
                                          for d in cfg["dropouts"])
    lines = [
        f"RunWalk sample track: {cfg['name']} (SIMULATED, not a real recording)",
        f"Scenario: {cfg['scenario']}",
        f"Generated by {SCRIPT} (Python stdlib), seed {cfg['seed']}; "
        f"regenerate with: python3 {SCRIPT}",
        f"Workout: {cfg['workout']}",
        f"Start: {truth['start_utc']} = workout start (first epoch, t = 0); workout ends at "
        f"t = {truth['duration_s']} s, recording continues until t = {truth['recording_end_s']} s",
        f"Receiver: {rcv}",
        f"Receiver model: {err}; Doppler speed noise {cfg['dop_sigma']} m/s; "
        f"geoid separation {cfg['geoid']} m",
        f"True distance over the workout: {truth['distance_m']:.2f} m",
        f"Truth: {cfg['name'].replace('.nmea', '.truth.json')}",
    ]
    return "".join(f"# {l}\r\n" for l in lines)


def generate(cfg):
    rm = random.Random(f"{cfg['seed']}-speed-profile")
    tr = simulate(cfg["phases"], rm, cfg["path"], cfg["rate"], stops=cfg.get("stops", ()),
                  grade_coef=cfg.get("grade_coef"))
    epochs = receiver_epochs(cfg, tr, cfg["path"])
    truth = build_truth(cfg, tr)
    parts = [header(cfg, truth)]
    for ep in epochs:
        if ep.kind == "silent":
            continue
        parts.extend(epoch_sentences(cfg, ep))
    data = "".join(parts).encode("ascii")
    with open(os.path.join(OUT_DIR, cfg["name"]), "wb") as f:
        f.write(data)
    with open(os.path.join(OUT_DIR, cfg["name"].replace(".nmea", ".truth.json")), "w",
              encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(truth, indent=2) + "\n")
    return tr, epochs, truth


def write_readme(results):
    rows = []
    for cfg, tr, eps, truth in results:
        rows.append(f"| `{cfg['name']}` | {cfg['scenario'].split(';')[0]} | {cfg['rate']} Hz "
                    f"| {', '.join(cfg['talker'] + s for s in cfg['sentences'])} "
                    f"| `{cfg['workout']}` | {truth['distance_m']:.2f} m |")
    text = f"""# Sample tracks

Simulated NMEA 0183 receiver logs for RunWalk, with ground truth. They are
**not real recordings**: `{SCRIPT}` builds a true trajectory from a speed
schedule and a path geometry, then models a GNSS receiver (correlated
Gauss-Markov position error, white jitter, multipath outliers, dropouts,
Doppler speed/course noise, DOP and satellite counts).

| File | What it is | Rate | Sentences per epoch | Workout | True distance |
| --- | --- | --- | --- | --- | --- |
{chr(10).join(rows)}

Each `name.nmea` has a `name.truth.json` beside it with the true distance,
phase boundaries and per-phase distances, km and mile splits, stationary
intervals and the receiver settings (outliers, dropouts). Each `.nmea` starts
with `#` comment lines describing the track; sentences use CRLF line endings
and valid checksums; latitude/longitude have 6 decimals of minutes.

Conventions:

* t = 0 is the first epoch and the workout start; every log continues about
  10 s past the workout end (`recording_end_s`).
* Distances are true horizontal arc length along the path (metres) over
  t in [0, `duration_s`]; `distance_3d_m` adds the elevation change.
* Time phases end exactly on the second; distance phases (`trail-10hz`) end
  when the true distance in the phase reaches its target (interpolated).
  Speed changes ramp over 2-4 s starting at the boundary.
* Dropouts are half-open `[start_s, end_s)`: `silent` = no sentences at all,
  `nofix` = GGA quality 0 / RMC status V with empty position.
* The epoch's sentence order is RMC first (u-blox order: RMC, VTG, GGA, GSA,
  GSV, GST); all timed sentences of one epoch carry the same time.
* `track-loop-gga.nmea` has the same motion and the same receiver errors as
  `track-loop.nmea` (its GGA lines are identical), but no RMC/VTG.
* `urban-canyon.nmea` adds what receivers do between tall buildings on top of
  the Gauss-Markov error: NLOS position biases of 7-26 m, mostly across the
  street, that step when the satellites used or the street change; high HDOP
  and few satellites; a GST that ignores the NLOS bias (optimistic); short
  underpass dropouts; Doppler noise 0.28 m/s with biased runs of 2-6 s and
  one-fix spikes of 1-3 m/s. Its truth's `receiver.urban_canyon` gives the
  model's parameters.

Regenerate (byte-identical, fixed seeds, standard library only):

```
python3 {SCRIPT}
```

The script then parses the files back and prints a check summary
(`--no-check` skips that).
"""
    with open(os.path.join(OUT_DIR, "README.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


# --------------------------------------------------------------------------
# Verification: parse the written files back
# --------------------------------------------------------------------------

def nmea_lat(v, h, dd):
    d = int(v[:dd])
    x = d + float(v[dd:]) / 60.0
    return -x if h in "SW" else x


def verify(cfg, truth):
    path = os.path.join(OUT_DIR, cfg["name"])
    raw = open(path, "rb").read()
    assert raw.endswith(b"\r\n"), "file must end with CRLF"
    lines = raw.decode("ascii").split("\r\n")[:-1]
    assert all("\n" not in l and "\r" not in l for l in lines), "bare LF/CR"
    counts = {}
    start = cfg["start"]
    base_sod = start.hour * 3600 + start.minute * 60 + start.second
    last_t = {}
    fixes = {}            # t -> (lat, lon)
    sog = {}
    epoch_times = set()
    for l in lines:
        if l.startswith("#"):
            continue
        assert l[0] == "$" and l[-3] == "*", l
        body = l[1:-3]
        assert checksum(body) == l[-2:], f"bad checksum: {l}"
        f = body.split(",")
        typ = f[0][2:]
        assert f[0][:2] == cfg["talker"], l
        counts[typ] = counts.get(typ, 0) + 1
        if typ in ("GGA", "RMC", "GST"):
            tod = int(f[1][:2]) * 3600 + int(f[1][2:4]) * 60 + float(f[1][4:])
            t = round(tod - base_sod, 2)
            assert t > last_t.get(typ, -1.0), f"time not increasing: {l}"
            last_t[typ] = t
            epoch_times.add(t)
        if typ == "RMC":
            assert f[9] == start.strftime("%d%m%y"), l
            if f[2] == "A":
                fixes.setdefault(t, (nmea_lat(f[3], f[4], 2), nmea_lat(f[5], f[6], 3)))
                sog[t] = float(f[7]) / MPS_TO_KN
        if typ == "GGA" and f[6] != "0":
            fixes.setdefault(t, (nmea_lat(f[2], f[3], 2), nmea_lat(f[4], f[5], 3)))
    # expected epochs
    n_all = round(truth["recording_end_s"] * cfg["rate"]) + 1
    silent = sum(round((d["end_s"] - d["start_s"]) * cfg["rate"])
                 for d in cfg.get("dropouts", []) if d["kind"] == "silent")
    nofix = sum(round((d["end_s"] - d["start_s"]) * cfg["rate"])
                for d in cfg.get("dropouts", []) if d["kind"] == "nofix")
    assert len(epoch_times) == n_all - silent, (len(epoch_times), n_all, silent)
    assert len(fixes) == n_all - silent - nofix
    for typ in cfg["sentences"]:
        if typ != "GSV":
            assert counts[typ] == n_all - silent, (typ, counts[typ])
    # raw point-to-point distance within the workout window
    ts = sorted(t for t in fixes if t <= truth["duration_s"] + 1e-9)
    raw_sum = hav_sum = 0.0
    for a, b in zip(ts, ts[1:]):
        p, q = fixes[a], fixes[b]
        raw_sum += ellipsoid_step(p[0], p[1], q[0], q[1])
        hav_sum += haversine(p[0], p[1], q[0], q[1])
    dop_sum = 0.0
    for t in sorted(sog):
        if t < truth["duration_s"] - 1e-9:
            dop_sum += sog[t] / cfg["rate"]
    size = len(raw)
    return {"counts": counts, "raw": raw_sum, "hav": hav_sum, "dop": dop_sum if sog else None,
            "size": size, "fixes": len(fixes), "epochs": len(epoch_times)}


def truth_sampling_check(cfg, epochs, truth):
    """Distance of the error-free epoch positions (checks the lat/lon mapping)."""
    pts = [ep.true_ll for ep in epochs if ep.t <= truth["duration_s"] + 1e-9]
    ell = sum(ellipsoid_step(*a, *b) for a, b in zip(pts, pts[1:]))
    hav = sum(haversine(*a, *b) for a, b in zip(pts, pts[1:]))
    errs = [math.hypot(*ep.err) for ep in epochs if ep.kind == "fix"]
    rms = math.sqrt(sum(e * e for e in errs) / len(errs))
    return ell, hav, rms


def main(argv):
    os.makedirs(OUT_DIR, exist_ok=True)
    cfgs = [make_track_loop(), make_city(), make_trail(),
            make_track_loop("track-loop-gga.nmea", ("GGA",)), make_standing(), make_demo(), make_canyon()]
    results = []
    for cfg in cfgs:
        tr, eps, truth = generate(cfg)
        results.append((cfg, tr, eps, truth))
    write_readme(results)
    if "--no-check" in argv:
        return 0
    print(f"{'track':24} {'size':>9} {'epochs':>6} {'fixes':>6} {'truth m':>9} {'raw m':>9} "
          f"{'raw/tr':>6} {'hav m':>9} {'doppler m':>9} {'clean m':>9} {'rms err':>7}  sentences")
    for cfg, tr, eps, truth in results:
        v = verify(cfg, truth)
        ell, hav, rms = truth_sampling_check(cfg, eps, truth)
        d = truth["distance_m"]
        ratio = v["raw"] / d if d > 0 else float("inf")
        dop = f"{v['dop']:9.1f}" if v["dop"] is not None else f"{'-':>9}"
        cnt = " ".join(f"{k}:{n}" for k, n in v["counts"].items())
        print(f"{cfg['name']:24} {v['size']:9d} {v['epochs']:6d} {v['fixes']:6d} {d:9.2f} "
              f"{v['raw']:9.1f} {ratio:6.3f} {v['hav']:9.1f} {dop} {ell:9.1f} {rms:7.2f}  {cnt}")
        if cfg["name"] in ("city-stopgo.nmea", "standing-10min.nmea"):
            assert v["raw"] > d + 50.0, "raw distance should clearly exceed truth"
    print("columns: raw = sum of ellipsoidal point-to-point distances of reported fixes in "
          "[0, duration]; hav = same with haversine R=6371008.8 m; doppler = sum of RMC speed "
          "x epoch interval; clean = point sum of the error-free epoch positions; rms err = "
          "RMS horizontal position error (m)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
