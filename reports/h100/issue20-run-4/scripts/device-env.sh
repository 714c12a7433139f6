# Sourced by run-gpu12.sh and run-gpu13.sh: the set-up both runs share. Unpacks pack12.tar.xz (made
# by pack.sh, beside these scripts) into $W, finds the repository root (the tier files are read from
# it), puts the pack's libraries and cuBLASLt on the library path, writes the build, GPU, driver and
# library versions to $O/steps.txt, and defines S: one named step under a time limit, its log in
# /tmp/<name>.log, its exit status and seconds appended to steps.txt.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$here"; while [ "$root" != / ] && [ ! -f "$root/tiers/T3.yaml" ]; do root="$(dirname "$root")"; done
# The logs gather in $O and travel back as one archive (logs.tar.xz) beside steps.txt: the device
# returns at most eight files.
O=/tmp/run-logs; rm -rf "$O"; mkdir -p "$O" "${OUT:=/tmp/out}"
trap 'cp "$O/steps.txt" "$OUT/" 2>/dev/null; tar cJf "$OUT/logs.tar.xz" -C "$O" .' EXIT
W=/tmp/v5-next && rm -rf $W && mkdir -p $W && tar xJf "$here/pack12.tar.xz" -C $W
lt="$(dirname "$(find /usr/local /usr/lib /opt -name 'libcublasLt.so.13*' 2>/dev/null | head -1)")"
export LD_LIBRARY_PATH="$W/lib:$lt:${LD_LIBRARY_PATH:-}"
export MMAEMU_SOURCE_COMMIT="$(cat $W/commit)"
{ echo "build: $(cat $W/commit)"; date -u
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,memory.total --format=csv
  echo "cuBLASLt: $(ls $lt | grep 'libcublasLt.so.13.' | head -1)"; nproc; lscpu | grep "Model name"; } > "$O/steps.txt" 2>&1
S() { local name=$1 limit=$2; shift 2; local t0=$(date +%s)
  ( cd "$root" && timeout -s TERM -k 100 $limit "$@" ) > "/tmp/$name.log" 2>&1
  echo "$name: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$O/steps.txt"; }
