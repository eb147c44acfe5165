# Distribution of time per call early vs late after warm-up (ECDF, log x).
#
# Parameters (set with gnuplot -e "name=value; ..." before this file, run
# from plots/; common.gp lists the ones every figure takes, with xmax=0,
# warmup=0 and wto=0 here):
#   earlyfile, latefile  rows time, fraction: quantiles of each window
#   earlytitle, latetitle  key entries (window, n, median)
#   xticlist   tic list for the log x axis, labels in the axis's unit (common.gp sets it)
load 'common.gp'
set logscale x
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set mxtics 10
set yrange [0:1]
set ytics ('0' 0, '0.25' 0.25, '0.5' 0.5, '0.75' 0.75, '0.9' 0.9, '1' 1)
set ylabel 'fraction of calls at or below'
set grid xtics ytics lc rgb '#dddddd'
set key inside bottom right vertical box lc rgb '#cccccc' opaque samplen 2.5 spacing 1.2

plot earlyfile using 1:2 with steps lw 2.5 lc rgb '#2c7bb6' title earlytitle, \
     latefile using 1:2 with steps lw 2.5 lc rgb '#d7191c' title latetitle
