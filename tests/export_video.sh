#!/bin/sh
# warpscope export to MP4 and WebM through ffmpeg, probed with ffprobe: the codec, the size
# rounded to even (4:2:0 video), the frame rate, and 1/speed seconds of frames for each step.
# Skipped (77) where ffmpeg is not installed: it is optional.
ws="$1"
command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1 || { echo "export_video: no ffmpeg, skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
umask 077
# steps 2..6 (5 steps) at 10 fps and 2 steps per second: 5 frames a step, 25 in all
"$ws" export --version v1 --block 64 --from 2 --to 6 --fps 10 --speed 2 --size 641x361 -o "$tmp/a.mp4" 2>"$tmp/err" || { echo "FAIL: mp4: $(cat "$tmp/err")"; fail=1; }
got=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=codec_name,width,height,r_frame_rate,nb_read_frames -of csv=p=0 "$tmp/a.mp4")
[ "$got" = "h264,640,360,10/1,25" ] || { echo "FAIL: mp4 probed as \"$got\", expected h264,640,360,10/1,25"; fail=1; }
[ "$(stat -c %a "$tmp/a.mp4")" = 644 ] || { echo "FAIL: mp4 mode $(stat -c %a "$tmp/a.mp4")"; fail=1; }
"$ws" export --version v2 --block 64 --from 2 --to 3 --fps 10 --speed 2 --size 640x360 -o "$tmp/b.webm" 2>"$tmp/err" || { echo "FAIL: webm: $(cat "$tmp/err")"; fail=1; }
got=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=codec_name,width,height,nb_read_frames -of csv=p=0 "$tmp/b.webm")
[ "$got" = "vp9,640,360,10" ] || { echo "FAIL: webm probed as \"$got\", expected vp9,640,360,10"; fail=1; }
[ "$(ls -A "$tmp" | grep -c '^\.')" -eq 0 ] || { echo "FAIL: temporary files left"; fail=1; }
[ $fail -eq 0 ] && echo "export_video: ok"
exit $fail
