cd "$(dirname "$0")"
for k in stasync stasync_mapa s2s s2s_mapa mc g2s; do for v in "" _req; do for m in plain cluster; do timeout 15 python3 cl.py $k$v $m 2>&1 | tail -1; done; done; done
