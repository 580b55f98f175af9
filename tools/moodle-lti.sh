#!/bin/sh
# moodle-lti.sh: warpscope serve proven as an LTI 1.3 tool of a real Moodle, by hand (not by CI).
#
#   tools/moodle-lti.sh MOODLE WARPSCOPE [WORK]
#
# MOODLE: Moodle's source, a git directory (a clone or mirror of moodle/moodle checked out at a
# stable branch, MOODLE_405_STABLE: its HEAD's tree is used, written once into WORK) or a folder
# holding it. Proven with Moodle 4.5.6 (Build: 20250811) on Debian 12's PHP 8.2 and PostgreSQL 15. WARPSCOPE: the built program. WORK: where
# everything lives (default /tmp/moodle-lti; Moodle is installed there once and kept).
#
# What it does, each step said as it goes:
#   1. Debian's PHP (the CLI's built-in server, with the extensions Moodle needs) and PostgreSQL;
#   2. Moodle installed by admin/cli/install.php (once: ~10 min on two cores), on http://localhost:8181;
#   3. a course, a teacher and a student, and warpscope registered as an LTI 1.3 external tool (a
#      PHP CLI script on Moodle's own API: lti_add_type, create_module), with an activity per exercise;
#   4. warpscope serve on http://localhost:8180 with the registration Moodle gives (--lti);
#   5. in Chromium (puppeteer-core from tests/web): the student signs in to Moodle, opens the activity,
#      is launched into warpscope's exercise, presses Check; then the teacher opens the gradebook, and
#      its picture is WORK/gradebook.png; the grade Moodle keeps is read back by PHP and printed.
# Needs root (apt-get, PostgreSQL), Chromium and tests/web/node_modules (npm ci in tests/web).
set -eu
moodle_src="${1:?usage: tools/moodle-lti.sh MOODLE WARPSCOPE [WORK]}"
ws="${2:?usage: tools/moodle-lti.sh MOODLE WARPSCOPE [WORK]}"
work="${3:-/tmp/moodle-lti}"
here=$(cd "$(dirname "$0")/.." && pwd)
ws=$(cd "$(dirname "$ws")" && pwd)/$(basename "$ws")
mport=8181
tport=8180
www="http://localhost:$mport"
tool="http://localhost:$tport"
say() { echo "moodle-lti: $*"; }
mkdir -p "$work"
chmod 755 "$work"

say "1. PHP and PostgreSQL (Debian's)"
need=""
for p in php8.2-cli php8.2-pgsql php8.2-xml php8.2-mbstring php8.2-curl php8.2-zip php8.2-gd php8.2-intl php8.2-soap postgresql; do
    dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
[ -z "$need" ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >"$work/apt.log" 2>&1
pg_lsclusters -h | awk '{print $1, $2, $4}' | while read -r v c st; do [ "$st" = online ] || pg_ctlcluster "$v" "$c" start; done
su postgres -c "psql -tAc \"SELECT 1 FROM pg_roles WHERE rolname='moodle'\"" | grep -q 1 ||
    su postgres -c "psql -qc \"CREATE USER moodle PASSWORD 'moodle'\""
su postgres -c "psql -tAc \"SELECT 1 FROM pg_database WHERE datname='moodle'\"" | grep -q 1 ||
    su postgres -c "createdb -O moodle -E UTF8 moodle"

say "2. Moodle in $work/moodle"
if [ ! -f "$work/moodle/version.php" ]; then
    mkdir -p "$work/moodle"
    if [ -d "$moodle_src/objects" ] || [ -f "$moodle_src/HEAD" ]; then
        # HEAD's tree, file by file: a mirror may lack its largest blobs (a source map); those are left out and named
        python3 - "$moodle_src" "$work/moodle" <<'EOF'
import os, subprocess, sys
git, out = sys.argv[1:3]
tree = subprocess.run(["git", "--git-dir", git, "ls-tree", "-r", "-z", "HEAD"], capture_output=True, check=True).stdout.split(b"\0")
cat = subprocess.Popen(["git", "--git-dir", git, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
for entry in filter(None, tree):
    meta, path = entry.split(b"\t", 1)
    mode, kind, sha = meta.split()
    if kind != b"blob":
        continue
    cat.stdin.write(sha + b"\n"); cat.stdin.flush()
    head = cat.stdout.readline().split()
    if head[1] == b"missing":
        print("moodle-lti: left out (not in the mirror):", path.decode()); continue
    data = cat.stdout.read(int(head[2])); cat.stdout.read(1)
    dest = os.path.join(out.encode(), path)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    if mode == b"120000": os.symlink(data, dest)
    else:
        open(dest, "wb").write(data)
        if mode == b"100755": os.chmod(dest, 0o755)
EOF
    else cp -a "$moodle_src/." "$work/moodle/"; fi
    rm -f "$work/moodle/config.php" # a copy's own site, if it carries one: this one is made below
fi
grep -E '^\$release' "$work/moodle/version.php"
mkdir -p "$work/data"
chmod 777 "$work/data"
php_ini="-d max_input_vars=5000 -d memory_limit=512M"
if [ ! -f "$work/installed" ]; then
    rm -f "$work/moodle/config.php"
    (cd "$work/moodle" && php $php_ini admin/cli/install.php --non-interactive --agree-license --lang=en --wwwroot="$www" \
        --dataroot="$work/data" --dbtype=pgsql --dbhost=127.0.0.1 --dbname=moodle --dbuser=moodle --dbpass=moodle --prefix=mdl_ \
        --fullname="warpscope lab" --shortname=wslab --adminuser=admin --adminpass='Admin-pass-1' --adminemail=admin@example.com \
        --supportemail=admin@example.com) >"$work/install.log" 2>&1 || { tail -20 "$work/install.log"; exit 1; }
    # the tool is on this machine: Moodle's curl may reach 127.0.0.1 and any port (its default refuses both)
    sed -i "s|^require_once(__DIR__ . '/lib/setup.php');|\$CFG->curlsecurityblockedhosts = '';\n\$CFG->curlsecurityallowedport = '';\n&|" "$work/moodle/config.php"
    touch "$work/installed"
fi
if ! curl -fsS -o /dev/null "$www/login/index.php" 2>/dev/null; then
    (cd "$work/moodle" && PHP_CLI_SERVER_WORKERS=4 setsid php $php_ini -S 127.0.0.1:$mport >"$work/php-server.log" 2>&1 &)
    for i in $(seq 50); do curl -fsS -o /dev/null "$www/login/index.php" 2>/dev/null && break; sleep 0.2; done
fi

say "3. the course, its people, and warpscope as an LTI 1.3 tool"
php "$here/tools/moodle-lti-register.php" "$work/moodle" "$tool" "$work/registration.json" "$here/lessons/exercises" >"$work/register.log" 2>&1 ||
    { cat "$work/register.log"; exit 1; }
cat "$work/register.log"

say "4. warpscope serve with Moodle's registration"
if [ -f "$work/serve.pid" ]; then kill "$(cat "$work/serve.pid")" 2>/dev/null || true; sleep 1; fi
if ! "$ws" --version | grep -q "^sandbox for a learner's file: bubblewrap"; then
    say "this machine gives no sandbox: serve runs unconfined (WARPSCOPE_UNSAFE=1); the one file run is the project's own solution"
    export WARPSCOPE_UNSAFE=1
fi
mkdir -p "$work/state" "$work/cache"
chmod 700 "$work/state"
env XDG_CACHE_HOME="$work/cache" setsid "$ws" serve --port $tport --state "$work/state" --token moodle-lti-token --lti "$work/registration.json" \
    >"$work/serve.log" 2>&1 &
echo $! >"$work/serve.pid"
for i in $(seq 50); do curl -fsS -o /dev/null "$tool/lti/jwks" 2>/dev/null && break; sleep 0.2; done
head -5 "$work/serve.log"

say "5. the student's launch and Check, the teacher's gradebook (Chromium)"
NODE_PATH="$here/tests/web/node_modules" node "$here/tools/moodle-lti-browse.js" "$www" "$(sed -n 's/^cmid=//p' "$work/register.log")" \
    "$(sed -n 's/^course=//p' "$work/register.log")" "$work" "$here/tests/exercises/02-v1-padding.solution.cu" \
    "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["deployment_ids"][0])' "$work/registration.json")"
php "$here/tools/moodle-lti-register.php" "$work/moodle" grades "$(sed -n 's/^course=//p' "$work/register.log")"
say "the gradebook: $work/gradebook.png; warpscope's log: $work/serve.log"
