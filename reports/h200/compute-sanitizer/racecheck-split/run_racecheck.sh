#!/usr/bin/env bash
# Runs racecheck over every suite of a split tier file (split_t3_gpu_quick.py), P at a time, each cut
# at LIMIT seconds, and prints one line per suite: verdict, outputs compared, exit status, racecheck's
# summary. Logs go to OUT/rc/.
#   bash run_racecheck.sh MMAEMU TIER_FILE OUT [P=14] [LIMIT=540]
set -uo pipefail
mmaemu=$1; tier=$2; out=$3; P=${4:-14}; LIMIT=${5:-540}
mkdir -p "$out/rc"
# The heaviest (sm90) first.
grep -o "name: rc-[^ ]*" "$tier" | cut -d' ' -f2 | awk '{k=($0 ~ /sm90/)?0:1; print k" "$0}' | sort -s -k1,1 | cut -d' ' -f2 > "$out/suites.txt"
xargs -P "$P" -I{} sh -c "timeout $LIMIT compute-sanitizer --tool racecheck --target-processes all --error-exitcode 99 \
  --log-file $out/rc/{}.log $mmaemu run $tier --suite {} --report-dir $out/reports/{} --quiet > $out/rc/{}.out 2>&1; \
  echo \"exit \$?\" >> $out/rc/{}.out" < "$out/suites.txt"
tiername=$(sed -n 's/^tier: //p' "$tier")
for s in $(cat "$out/suites.txt"); do
  v=$(grep -E "^$tiername\.$s " "$out/rc/$s.out" | awk '{print $3, $4}')
  printf '%-22s %-18s %-8s %s\n' "$s" "${v:-none}" "$(tail -1 "$out/rc/$s.out")" "$(grep -E "RACECHECK SUMMARY" "$out/rc/$s.log")"
done
