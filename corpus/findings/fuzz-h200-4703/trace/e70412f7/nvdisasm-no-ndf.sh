#!/bin/sh
# nvdisasm without -ndf (keeps the dataflow analyzer's BRANCH_TARGETS annotation)
args=""
for a in "$@"; do [ "$a" = "-ndf" ] || args="$args \"$a\""; done
eval exec /root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm $args
