#!/bin/bash
# show.sh names... : O3 body lines of 130 and 135 (excluding prologue)
for f in "$@"; do for v in 130 135; do echo "== $f $v: $(grep -vE 'NOP|BRA `|EXIT|c\[0x0\]\[0x2[01]|S2R|IMAD.WIDE.U32 R[0-9]+, R[0-9]+, 0x(100|8|40|4),|ULDC' $f.$v.O3.sass | sed 's/^ *\/\*[0-9a-f]*\*\/ *//' | tr -s ' ' | paste -sd';')"; done; done
