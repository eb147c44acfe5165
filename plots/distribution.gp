# Distribution of time per call early vs late after warm-up (ECDF, log x).
#
# Parameters (set with gnuplot -e "name=value; ..." before this file):
#   earlyfile, latefile  rows time, fraction: quantiles of each window
#   earlytitle, latetitle  key entries (window, n, median)
#   title, out, term ('pngcairo' or 'svg'), xunit ('ns', 'µs', 'ms')
#   xticlist   tic list for the log x axis ('("2" 2, "5" 5, ...)'), or ''
#              for gnuplot's own (a short range gets too few of those)
if (term eq 'svg') {
  set terminal svg size 1000,560 font 'sans,12' noenhanced background rgb 'white'
} else {
  set terminal pngcairo size 1000,560 font 'sans,10' noenhanced background rgb 'white'
}
set output out
set encoding utf8
set title title font ',13'
set xlabel sprintf('time per call (%s, log scale)', xunit)
set ylabel 'fraction of calls at or below'
set logscale x
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set mxtics 10
if (xticlist ne '') {
  eval 'set xtics ' . xticlist
}
set yrange [0:1]
set ytics ('0' 0, '0.25' 0.25, '0.5' 0.5, '0.75' 0.75, '0.9' 0.9, '1' 1)
set grid xtics ytics lc rgb '#dddddd'
set key bottom right box lc rgb '#cccccc' opaque samplen 2.5 spacing 1.2
set border 3
set tics nomirror

plot earlyfile using 1:2 with steps lw 2.5 lc rgb '#2c7bb6' title earlytitle, \
     latefile using 1:2 with steps lw 2.5 lc rgb '#d7191c' title latetitle
