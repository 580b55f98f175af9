#!/bin/sh
# --card takes a card table's spelling whole (id, name, alias or a GPU's model string; case
# ignored) and nothing else: the issue's "h1000" and "RTX A1000" exit 2 with one line (the first
# with the spelling it is a typo of, the second with none: it is no A100), and an H100 PCIe puts the
# launch on its own 114 SMs. Expected figures, by hand: v2, 2^20 elements, blocks of 256 = 4096
# blocks, 8 per SM (2048 threads / 256): 132 x 8 = 1056 at once, 4 waves; 114 x 8 = 912, 5 waves.
ws="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
refused() { # the --card text, then what its one line must hold, then what it must not
    "$ws" stats --version v2 --card "$1" >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF -- "$2" "$tmp/err" && { [ -z "$3" ] || ! grep -qF -- "$3" "$tmp/err"; } ||
        { echo "FAIL: --card \"$1\": exit $rc, $(cat "$tmp/err") (wanted exit 2, one line with: $2)"; fail=1; }
}
refused h1000 'unknown card "h1000"; the cards are gtx1050ti, gtx1060, v100, a100, h100, h100pcie, h200; did you mean "h100"?'
refused "RTX A1000" 'unknown card "RTX A1000"; the cards are' "did you mean"
refused "NVIDIA RTX A1000" 'unknown card "NVIDIA RTX A1000"' "did you mean"
refused "H100 80GB" 'unknown card "H100 80GB"'
on() { # the --card text, the row's id, SMs, resident blocks, waves
    "$ws" stats --version v2 --n 2^20 --block 256 --card "$1" --json >"$tmp/s.json" 2>"$tmp/err" ||
        { echo "FAIL: --card \"$1\": exit $?: $(cat "$tmp/err")"; fail=1; return; }
    python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["schedule"]; a=sys.argv[2:];
assert (s["card"],s["sms"],s["resident_blocks"],s["waves"])==(a[0],int(a[1]),int(a[2]),int(a[3])), s' "$tmp/s.json" "$2" "$3" "$4" "$5" ||
        { echo "FAIL: --card \"$1\" is not $2 ($3 SMs, $4 at once, $5 waves)"; fail=1; }
}
on h100 h100 132 1056 4
on H100 h100 132 1056 4
on "nvidia h100 sxm5" h100 132 1056 4
on "NVIDIA H100 80GB HBM3" h100 132 1056 4
on h100pcie h100pcie 114 912 5
on "H100 PCIe" h100pcie 114 912 5
on "NVIDIA H100 PCIe" h100pcie 114 912 5
on "gtx 1060 6GB" gtx1060 10 80 52
[ $fail -eq 0 ] && echo "card_flag_should_take_whole_names: ok"
exit $fail
