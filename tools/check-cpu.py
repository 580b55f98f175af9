#!/usr/bin/env python3
"""What one Check costs: the CPU time (user and system, warpscope's and every process it starts:
the sandbox, warpscope-run and its runs) and the wall time of `warpscope exercise check` of each
exercise's model solution (tests/exercises/NN-*.solution.cu), once to fill the build cache, then
R times (default 5), judged afresh each time (the exercise's check draws its sizes and seeds anew).
Where there is a GPU, a Check also times the file on it (exercise check); without one, a card goal
is not judged and the Check is still counted.

    tools/check-cpu.py [--warpscope build/warpscope] [--reps R] [--exercises 01,02,...] [--fresh]

--fresh: each Check is of a file never seen before (the model solution with a line of its own
appended, as each try in a lab is new text), so that its build (front end and compiler) is
measured too; the build cache keeps only what every file shares (the precompiled header).

Prints, per exercise, the median and the largest of the R runs, and a last line with the largest
median of all. Exit 1 when a model solution does not meet every goal of the trace (a check that fails is not the
cost of a Check), 2 on a bad flag or a missing file.
"""
import argparse
import glob
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def trace_goals_met(report):
    """Every goal of the trace met, in exercise check's --json report: a card goal (exercise 10's) that
    no GPU judged here is no part of the cost of a Check."""
    import json
    try:
        f = json.loads(report)["files"][0]
    except (ValueError, KeyError, IndexError):
        return False
    return f.get("ran") and all(g["met"] for g in f["goals"] if not g.get("card")) and \
        all(g["met"] or g.get("state") in ("not-judged", "not-timed") for g in f["goals"] if g.get("card"))


def main():
    ap = argparse.ArgumentParser(description="CPU and wall time of one exercise Check of each model solution")
    ap.add_argument("--warpscope", default=os.path.join(ROOT, "build", "warpscope"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--exercises", default="")
    ap.add_argument("--fresh", action="store_true", help="each Check of new text: its build measured too")
    a = ap.parse_args()
    if a.reps < 1:
        print("check-cpu: --reps must be 1 or more", file=sys.stderr)
        return 2
    if not os.access(a.warpscope, os.X_OK):
        print("check-cpu: no warpscope program at %s (--warpscope)" % a.warpscope, file=sys.stderr)
        return 2
    solutions = sorted(glob.glob(os.path.join(ROOT, "tests", "exercises", "*.solution.cu")))
    wanted = [e for e in a.exercises.split(",") if e]
    if wanted:
        solutions = [s for s in solutions if os.path.basename(s)[:2] in wanted]
    if not solutions:
        print("check-cpu: no model solution found for %s" % (a.exercises or "any exercise"), file=sys.stderr)
        return 2
    print("one Check of each model solution: CPU (user + system, every process) and wall, median and largest of %d, "
          "after one that fills the build cache; %s; %d cores" % (a.reps, "each of a file never seen before, its build included"
                                                                 if a.fresh else "the build cached", os.cpu_count()))
    tmp = tempfile.mkdtemp(prefix="check-cpu-")
    print("%-22s %10s %10s %10s %10s" % ("exercise", "cpu p50", "cpu max", "wall p50", "wall max"))
    worst = 0.0
    bad = 0
    for sol in solutions:
        ex = os.path.basename(sol)[:2]
        cpu, wall = [], []
        for r in range(a.reps + 1):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.monotonic()
            path = sol
            if a.fresh:  # new text each time: a new build
                path = os.path.join(tmp, "try%d-%s" % (r, os.path.basename(sol)))
                with open(sol) as f, open(path, "w") as g:
                    g.write(f.read() + "\n// try %d of %d, %s\n" % (r, os.getpid(), time.time()))
            p = subprocess.run([a.warpscope, "exercise", "check", ex, path, "--json"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
            t1 = time.monotonic()
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if p.returncode != 0 and not trace_goals_met(p.stdout):
                print("check-cpu: %s: the model solution did not meet every goal (exit %d):\n%s" % (sol, p.returncode, p.stdout[-2000:]),
                      file=sys.stderr)
                bad = 1
                break
            if r == 0:
                continue
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            wall.append(t1 - t0)
        if not cpu:
            continue
        med = statistics.median(cpu)
        worst = max(worst, med)
        name = os.path.basename(sol)[:-len(".solution.cu")]
        print("%-22s %9.2fs %9.2fs %9.2fs %9.2fs" % (name, med, max(cpu), statistics.median(wall), max(wall)))
    print("largest median CPU of one Check: %.2f s" % worst)
    return bad


if __name__ == "__main__":
    sys.exit(main())
