# Seed 004's reduce0 over 256 ones in one block of 256 threads: its stats (--json, the file named
# first) against the addressing formula, not against warpscope. Interleaved addressing with
# tid % (2s): a warp diverges at step s when some but not all of its lanes l have (32 w + l) % 2s
# == 0; each divergent step is 3 warp instructions (two loads, a store); the active lanes' words
# are 2s apart, so no two share a bank below s = 16 and at most one lane of a warp works above.
import json, sys
d = json.load(open(sys.argv[1]))
div = 0
s = 1
while s < 256:
    for w in range(8):
        act = [l for l in range(32) if (32 * w + l) % (2 * s) == 0]
        if 0 < len(act) < 32: div += 3
    s *= 2
conf = 0
s = 1
while s < 256:
    for w in range(8):
        banks = [(32 * w + l) % 32 for l in range(32) if (32 * w + l) % (2 * s) == 0]
        if banks: conf += max(banks.count(b) for b in set(banks)) - 1
    s *= 2
t = d["totals"]
assert d["result"] == 256, d["result"]
assert t["divergent_warp_instructions"] == div, (t["divergent_warp_instructions"], div)
assert t["bank_conflicts_load"] == conf and t["bank_conflicts_store"] == 0, t
