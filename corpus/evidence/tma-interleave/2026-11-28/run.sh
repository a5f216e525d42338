#!/bin/bash
# run.sh probes.json out.jsonl: restarts after faults
P=$1; O=$2; : > $O; s=0; n=$(python3 -c "import json;print(len(json.load(open('$P'))))")
while [ $s -lt $n ]; do
  python3 $(dirname $0)/tma.py $P $s $O 2>>$O.err; rc=$?
  last=$(tail -1 $O | python3 -c "import json,sys;print(json.loads(sys.stdin.read())['i'])" 2>/dev/null || echo $((s-1)))
  if [ $rc -eq 0 ]; then break; fi
  if [ $rc -ne 3 ]; then echo "harness rc=$rc at $s" >> $O.err; s=$((last+2)); else s=$((last+1)); fi
done
