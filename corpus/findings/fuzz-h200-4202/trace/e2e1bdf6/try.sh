#!/bin/bash
# try.sh name  < body ; prints WRONG/RIGHT by check.py on 13.0.88 -O3
n=$1; ../wrap.sh $n.ptx; ../cc.sh $n.ptx; python3 check.py $n.130.O3.sass >/dev/null; r=$?; [ $r = 0 ] && echo "$n 130: WRONG (F2FP clobber)" || echo "$n 130: right($r)"; python3 check.py $n.135.O3.sass >/dev/null; r=$?; [ $r = 0 ] && echo "$n 135: WRONG" || echo "$n 135: right($r)"
