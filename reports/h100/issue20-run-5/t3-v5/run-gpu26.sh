#!/usr/bin/env bash
# t3-gpu's cases with v5 alone (T3-v5.yaml), to completion if the time allows.
source "$(dirname "$0")/device-env.sh"
S t3v5 ${T3V5_LIMIT:-230} $W/mmaemu run "$here/T3-v5.yaml" --report-dir /tmp/t3v5 --report-stem t3-v5
tail -c 100000 /tmp/t3v5.log > "$O/t3v5.log"; cp /tmp/t3v5/t3-v5.md "$O/" 2>/dev/null; xz -c /tmp/t3v5/t3-v5.json > "$O/t3-v5.json.xz" 2>/dev/null
exit 0
