#!/bin/bash
# show body SASS of a listing: from the first LDG/after param setup to EXIT, minus self-moves
awk '/EXIT/{exit} {print}' "$1" | grep -vE "NOP|^.... (LDC|S2R|ULDC)|IMAD.WIDE.U32 R[0-9]+, R[0-9]+, 0x(100|10|40|20|8|4)," | grep -vE "MOV (R[0-9]+), \1;|R2UR"
