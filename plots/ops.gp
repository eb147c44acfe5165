# Median time per op over the run, one line per op (per window).
#
# Parameters (set with gnuplot -e "name=value; ..." before this file, run
# from plots/; common.gp lists the ones every figure takes):
#   datafile  one block per op (first line: the op's name in quotes, then
#             rows x, median time of the op's calls in the window)
#   nops      number of blocks
#   yunit     unit of the times ('ns', 'µs', 'ms', 's');  logy  1 for a log y axis
#   ymin, ymax  the y range
load 'common.gp'
set ylabel sprintf('median time per call (%s%s)', yunit, logy ? ', log scale' : '')
if (logy) {
  set logscale y
  set yrange [ymin:ymax]
} else {
  set yrange [0:ymax]
}
eval "plot for [i=0:nops-1] datafile index i using 1:2 with linespoints lw 2 pt 7 ps 0.5 title columnheader(1)" \
  . window_keys
