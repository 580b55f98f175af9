#!/bin/sh
# warpscope export from the command line: an SVG that parses as XML and holds the step's text
# (the version's title as `warpscope list` prints it, the kernel's source line with its
# indentation), PNG frames (one per step without motion; one per lesson step, counted by
# `warpscope lesson print`), files 0644 under umask 077, and bad input (an unknown extension, a
# folder that does not exist, no ffmpeg on PATH, a range outside the trace) answered with one line
# and exit 2, leaving no file behind and an existing file untouched.
ws="$1"
root="$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
fail=0
umask 077

# one line, exit 2, the message, and nothing left in the folder
rejects() { # name expected-rc grep-pattern dir
    if [ "$rc" -ne 2 ] || ! grep -q -- "$2" "$tmp/err" || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
        echo "FAIL: $1: exit $rc, $(cat "$tmp/err")"; fail=1
    fi
    if [ -n "$(ls -A "$3")" ]; then echo "FAIL: $1: left $(ls -A "$3")"; fail=1; fi
}

mkdir "$tmp/out" "$tmp/empty"
"$ws" export --version v1 --block 64 -o "$tmp/out/x.bmp" 2>"$tmp/err"; rc=$?
rejects "unknown extension" "unknown output format \".bmp\"" "$tmp/out"
"$ws" export --version v1 --block 64 -o "$tmp/out/missing/x.gif" 2>"$tmp/err"; rc=$?
rejects "missing folder" "missing/x.gif: cannot open for writing: no such folder" "$tmp/out"
PATH="$tmp/empty" "$ws" export --version v1 --block 64 -o "$tmp/out/x.mp4" 2>"$tmp/err"; rc=$?
rejects "no ffmpeg (mp4)" "install the Debian package ffmpeg" "$tmp/out"
PATH="$tmp/empty" "$ws" export --version v1 --block 64 -o "$tmp/out/x.webm" 2>"$tmp/err"; rc=$?
rejects "no ffmpeg (webm)" "install the Debian package ffmpeg" "$tmp/out"
"$ws" export --version v1 --block 64 --from 2 --to 99999 -o "$tmp/out/x.gif" 2>"$tmp/err"; rc=$?
rejects "range outside the trace" "\-\-to 99999: the trace has steps 0 to" "$tmp/out"
"$ws" export --version v1 --block 64 --from 2 --to 5 -o "$tmp/out/x.svg" 2>"$tmp/err"; rc=$?
rejects "SVG of a range" "an SVG holds one step" "$tmp/out"
"$ws" export --version v1 --block 64 --fps 0 -o "$tmp/out/x.gif" 2>"$tmp/err"; rc=$?
rejects "--fps 0" "\-\-fps expects a number from 1 to 50" "$tmp/out"
"$ws" export --version v1 --block 64 2>"$tmp/err"; rc=$?
rejects "no -o" "export needs -o OUT" "$tmp/out"
"$ws" export --lesson "$root/lessons/05-compare-addressing.json" --version v1 -o "$tmp/out/x.gif" 2>"$tmp/err"; rc=$?
rejects "--lesson with --version" "lesson shows what the lesson shows" "$tmp/out"
# a failed export leaves the old file as it was
echo old >"$tmp/out/keep.gif"
"$ws" export --version v1 --block 64 --to 99999 -o "$tmp/out/keep.gif" 2>"$tmp/err"
[ "$(cat "$tmp/out/keep.gif")" = old ] && [ "$(ls -A "$tmp/out")" = keep.gif ] || { echo "FAIL: a failed export touched keep.gif"; fail=1; }
rm "$tmp/out/keep.gif"

# SVG: valid XML, the version's title (with the pass and block shown) and the kernel's line 26 (its
# indentation kept) as text
"$ws" export --version v1 --block 64 --step 9 --size 1280x720 -o "$tmp/out/step.svg" 2>"$tmp/err" || { echo "FAIL: svg: $(cat "$tmp/err")"; fail=1; }
title=$("$ws" list | awk '$1 == "v1" { print substr($0, 8, 44); exit }' | sed 's/ *$//')
line=$(sed -n '/sdata\[index\] += sdata\[index + s\];/p' "$root/kernels/v1.cu" | head -1)
python3 - "$tmp/out/step.svg" "v1: $title — pass 0, block 0" "$line" <<'PY' || fail=1
import sys, xml.etree.ElementTree as ET
path, title, line = sys.argv[1], sys.argv[2], sys.argv[3]
root = ET.parse(path).getroot()
ns = "{http://www.w3.org/2000/svg}"
texts = [t.text or "" for t in root.iter(ns + "text")]
ok = True
if root.tag != ns + "svg" or root.get("width") != "1280" or root.get("height") != "720":
    print("FAIL: svg root", root.tag, root.get("width"), root.get("height")); ok = False
if not any(t == title for t in texts):
    print("FAIL: svg: no <text> with the title %r" % title); ok = False
# the line's indentation is its x, as the PNG measured it (spaces inside a <text> share the spacing
# that textLength adds, so a browser moved an indented line's first glyph off its column): the
# code column's advance, from an unindented line's width over its characters, times the spaces
# puts the line where a line at the column's left edge plus the indent would start
code = [t for t in root.iter(ns + "text") if "Mono" in (t.get("font-family") or "") and t.get("textLength")]
at = [t for t in code if (t.text or "") == line.strip()]
if not line.strip() or not at:
    print("FAIL: svg: no <text> with the source line %r" % line.strip()); ok = False
else:
    y = at[0].get("y")
    row = sorted((int(t.get("x")), t) for t in code if t.get("y") == y)
    flush = sorted((t for t in code if (t.text or "") in ("{", "}") and int(t.get("x")) > int(row[0][0])), key=lambda t: int(t.get("x")))
    lead = len(line) - len(line.lstrip(" "))
    if not flush:
        print("FAIL: svg: no code line at the column's left edge ({ or }) to measure from"); ok = False
    else:
        adv = int(flush[0].get("textLength")) / len(flush[0].text)
        want = int(flush[0].get("x")) + lead * adv
        if abs(int(at[0].get("x")) - want) > 1:
            print("FAIL: svg: the line %r starts at x %s, not at its column plus %d spaces of %.1f px (%.1f)" % (line.strip(), at[0].get("x"), lead, adv, want)); ok = False
    if any(t.text and t.text.startswith(" ") and t.get("textLength") for t in code):
        print("FAIL: svg: a code <text> that begins with spaces (they share textLength's spacing)"); ok = False
if not all(t.get("font-family") and t.get("font-size") for t in root.iter(ns + "text")):
    print("FAIL: svg: a <text> without font-family or font-size"); ok = False
# a browser draws it as the PNG: each text keeps its spaces (Chromium does not take xml:space from
# the root: a code line lost its indentation), and its width comes from spacing, never from
# stretching the glyphs (lengthAdjust="spacingAndGlyphs" drew a lone "}" a line wide)
XS = "{http://www.w3.org/XML/1998/namespace}space"
for t in root.iter(ns + "text"):
    if t.get(XS) != "preserve" or "white-space:pre" not in (t.get("style") or ""):
        print("FAIL: svg: a <text> that may collapse its spaces: %r" % (t.text,)); ok = False; break
    if t.get("lengthAdjust") not in (None, "spacing"):
        print("FAIL: svg: a <text> whose glyphs are stretched: %r" % (t.text,)); ok = False; break
if len(list(root.iter(ns + "rect"))) < 100:
    print("FAIL: svg: few rects"); ok = False
sys.exit(0 if ok else 1)
PY
[ "$(stat -c %a "$tmp/out/step.svg")" = 644 ] || { echo "FAIL: svg mode $(stat -c %a "$tmp/out/step.svg")"; fail=1; }

# the same export twice is the same bytes (the palette is built deterministically)
"$ws" export --version v1 --block 64 --from 4 --to 7 --size 480x270 -o "$tmp/out/a.gif" 2>/dev/null
"$ws" export --version v1 --block 64 --from 4 --to 7 --size 480x270 -o "$tmp/out/b.gif" 2>/dev/null
cmp -s "$tmp/out/a.gif" "$tmp/out/b.gif" && [ -s "$tmp/out/a.gif" ] || { echo "FAIL: two GIF exports differ"; fail=1; }
rm -f "$tmp/out/a.gif" "$tmp/out/b.gif"

# PNG frames: one per step without motion
"$ws" export --version v2 --block 64 --from 1 --to 5 --no-motion --size 640x360 -o "$tmp/out/frames" 2>"$tmp/err" || { echo "FAIL: frames: $(cat "$tmp/err")"; fail=1; }
n=$(ls "$tmp/out/frames" | grep -c '^frame-[0-9]*\.png$')
[ "$n" -eq 5 ] || { echo "FAIL: $n PNG frames for steps 1 to 5"; fail=1; }
[ "$(stat -c %a "$tmp/out/frames/frame-00000.png")" = 644 ] || { echo "FAIL: PNG frame mode"; fail=1; }

# a lesson: one frame per lesson step, as many as `lesson print` lists
lesson="$root/lessons/05-compare-addressing.json"
steps=$("$ws" lesson print "$lesson" | grep -c '^## ')
"$ws" export --lesson "$lesson" --no-motion --size 640x360 -o "$tmp/out/lesson" 2>"$tmp/err" || { echo "FAIL: lesson: $(cat "$tmp/err")"; fail=1; }
n=$(ls "$tmp/out/lesson" | grep -c '^frame-[0-9]*\.png$')
[ "$n" -eq "$steps" ] && [ "$steps" -gt 1 ] || { echo "FAIL: $n frames for a lesson of $steps steps"; fail=1; }
[ -z "$(ls -A "$tmp/out" | grep '^\.')" ] || { echo "FAIL: temporary files left: $(ls -A "$tmp/out")"; fail=1; }

[ $fail -eq 0 ] && echo "export_cli: ok"
exit $fail
