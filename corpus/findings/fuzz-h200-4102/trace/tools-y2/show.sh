#!/bin/bash
# show.sh file.sass : body SASS without prologue/NOP
grep -E '^\s+/\*[0-9a-f]{4}\*/' $1 | sed 's/ *\/\* 0x[0-9a-f]* \*\///; s/^ *//' | grep -v "NOP\|BRA \`\|LDC R1, c\[0x0\]\[0x28\]\|S2R R.*SR_TID\|LDC.64 R[0-9]*, c\[0x0\]\[0x21[08]\]\|ULDC.64 UR4\|IMAD.WIDE.U32 R[0-9]*, R[0-9]*, 0x\(20\|8\|100\|4\|10\),"
