#!/bin/bash
# mandelbrot and stream at 2 threads with ILAN_COUNTERS=os: quiet, and with a CPU hog pinned to CPU 0
cd /work/wt15
for hog in none pinned; do
  for k in mandelbrot stream; do
    args="--n 384 --reps 12"; [ $k = stream ] && args="--n 4194304 --reps 20"
    if [ $hog = pinned ]; then taskset -c 0 sh -c 'while :; do :; done' & H=$!; fi
    LD_LIBRARY_PATH=build/lib OMP_NUM_THREADS=2 OMP_PROC_BIND=true ILAN_COUNTERS=os ILAN_REPORT=/tmp/obs/noise-$k-$hog.json build/bench/$k $args | grep -o "time_s=[0-9.]*"
    [ $hog = pinned ] && kill $H
    python3 -c "
import json; d=json.load(open('/tmp/obs/noise-$k-$hog.json')); n=d['os']['noise']
print('$k $hog', 'cs', n['context_switches'], 'migr', n['cpu_migrations'], 'desched_s %.4f' % n['descheduled_s'], 'frac %.3f' % n['descheduled_fraction'], 'per-thread', [round(t['os']['descheduled_s'],4) for t in d['threads']], [t['os']['context_switches'] for t in d['threads']])"
  done
done
