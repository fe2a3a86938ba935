#!/usr/bin/env python3
"""Reads a raw recording of a sink monitor (s16le, 44.1 kHz, mono; `parec --raw`) with a
15 kHz "music" tone under voice cues and prints where the speech is and how far the tone is
below its usual level (the method of Tests/RunWalkSpeechTests/ToneMeter.swift).
Usage: scripts/duck-level.py monitor.raw"""
import struct, math, sys
d=open(sys.argv[1],'rb').read(); n=len(d)//2
s=struct.unpack('<%dh'%n, d[:n*2]); W=2205
f=[float(v) for v in s]
for _ in range(2):
    g=f[:]
    for i in range(1,n-1): f[i]=(g[i-1]+g[i]+g[i+1])/3
k=2*math.cos(2*math.pi*15000/44100)
rows=[]
for i in range(0,n-W,W):
    s1=s2=0.0
    for v in s[i:i+W]:
        s0=v+k*s1-s2; s2=s1; s1=s0
    a=math.sqrt(max(s1*s1+s2*s2-k*s1*s2,0))*2/W
    sp=math.sqrt(sum(x*x for x in f[i:i+W])/W)
    rows.append((i/44100, 20*math.log10(max(a,1e-3)), sp))
levels=sorted(r[1] for r in rows); ref=levels[int(len(levels)*0.95)]
print("reference tone level %.2f dB (95th percentile)"%ref)
prev=None
for t,db,sp in rows:
    state=("speech" if sp>300 else "quiet ")+(" music %+.2f dB"%(db-ref))
    key=(sp>300, round(db-ref))
    if key!=prev: print("%6.2f s  %s"%(t,state)); prev=key
