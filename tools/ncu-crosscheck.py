#!/usr/bin/env python3
"""Hardware counters against warpscope's predictions (run on a machine with an NVIDIA GPU and ncu).

For each version at blocks of 64, 128, 256 and 1024 threads and n = 2^16, Nsight Compute profiles the
first launch of pass 0 of the plain kernel (inside `warpscope bench`), and `warpscope stats
--all-blocks` predicts the same launch from the emulator with every block traced. Writes a markdown
table, a row per version and block size.
usage: ncu-crosscheck.py WARPSCOPE OUT.md [N [BLOCKS]]   (N: elements, default 2^16; BLOCKS: 64,128,256,1024)
"""
import csv
import datetime
import io
import json
import subprocess
import sys

KERNELS = {"naive": "naive_reduction_kernel", "v0": "reduce0", "v1": "reduce1", "v2": "reduce2", "v3": "reduce3",
           "v4": "reduce4", "v4s": "reduce4s", "v5": "reduce5", "v6": "reduce6", "v7": "reduce7", "v8": "reduce8"}
METRICS = {
    "ld_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "st_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "shared_ld": "smsp__sass_inst_executed_op_shared_ld.sum",
    "shared_st": "smsp__sass_inst_executed_op_shared_st.sum",
    "div_branches": "smsp__sass_branch_targets_threads_divergent.sum",
    "branches": "smsp__sass_branch_targets.sum",
}
N = int(sys.argv[3]) if len(sys.argv) > 3 else 65536
BLOCKS = [int(b) for b in sys.argv[4].split(",")] if len(sys.argv) > 4 else [64, 128, 256, 1024]
# v4, v4s and v4-novolatile read sdata[tid + 32]: blocks of 64 threads or more
MIN_BLOCK = {"v4": 64, "v4s": 64}


def ncu(ws, version, block):
    cmd = ["ncu", "--csv", "--metrics", ",".join(METRICS.values()), "--kernel-name-base", "function",
           "-k", "regex:^%s$" % KERNELS[version], "-c", "1", ws, "bench", "--versions", version,
           "--sizes", str(N), "--reps", "1", "--block", str(block)]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    lines = [l for l in out.splitlines() if l.startswith('"')]
    values = {}
    for row in csv.DictReader(io.StringIO("\n".join(lines))):
        values[row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
    return {k: values.get(m) for k, m in METRICS.items()}


def predict(ws, version, block):
    out = subprocess.run([ws, "stats", "--version", version, "--n", str(N), "--block", str(block),
                          "--blocks-traced", "65536", "--all-blocks", "--json"], capture_output=True, text=True)
    d = json.loads(out.stdout)
    return d, d["totals_all_blocks"]


def main():
    ws, md = sys.argv[1], sys.argv[2]
    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout.strip()
    ver = subprocess.run(["ncu", "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    rows = []
    for b in BLOCKS:
        for v in KERNELS:
            if b < MIN_BLOCK.get(v, 32):
                continue
            meas = ncu(ws, v, b)
            d, p = predict(ws, v, b)
            rows.append((v, b, d["all_blocks"], p, meas))
            print(v, b, p["shared_loads"], meas["shared_ld"], p["shared_stores"], meas["shared_st"], p["bank_conflicts_load"], meas["ld_conflicts"], p["bank_conflicts_store"], meas["st_conflicts"],
              p["divergent_warp_instructions"], meas["div_branches"], flush=True)
    with open(md, "w") as f:
        f.write("# Hardware counters against warpscope's predictions\n\n")
        f.write("%s; %s; %s.\n\n" % (gpu, ver, datetime.date.today().isoformat()))
        f.write("Each version at blocks of %s threads, n = %d (random floats): Nsight Compute profiles the first launch of "
                "pass 0 of the plain kernel (`warpscope bench`), and `warpscope stats --all-blocks` predicts the same "
                "launch in the emulator with every block traced. Made by `tools/ncu-crosscheck.py`.\n\n"
                % (", ".join(str(b) for b in BLOCKS), N))
        f.write("| version | block | blocks | ld conflicts predicted / ncu | st conflicts predicted / ncu | shared ld instr. "
                "predicted / ncu | shared st instr. predicted / ncu | divergent warp instr. (warpscope) | divergent "
                "branch targets (ncu) | branch targets (ncu) |\n|---|---|---|---|---|---|---|---|---|---|\n")
        for v, b, nb, p, m in rows:
            def g(k):
                return "-" if m[k] is None else "%d" % m[k]
            f.write("| %s | %d | %d | %d / %s | %d / %s | %d / %s | %d / %s | %d | %s | %s |\n" % (
                v, b, nb, p["bank_conflicts_load"], g("ld_conflicts"), p["bank_conflicts_store"], g("st_conflicts"),
                p["shared_loads"], g("shared_ld"), p["shared_stores"], g("shared_st"),
                p["divergent_warp_instructions"], g("div_branches"), g("branches")))


if __name__ == "__main__":
    main()
