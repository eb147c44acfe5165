# Median time per op over the run, one line per op (per window).
#
# Parameters (set with gnuplot -e "name=value; ..." before this file):
#   datafile  one block per op (first line: the op's name in quotes, then
#             rows x, median time of the op's calls in the window)
#   nops      number of blocks
#   title, out, term ('pngcairo' or 'svg'), xlabel
#   yunit     unit of the times ('ns', 'µs', 'ms');  logy  1 for a log y axis
#   warmup    x where warm-up ends (0: none);  xmax  x of the last call
if (term eq 'svg') {
  set terminal svg size 1000,560 font 'sans,12' noenhanced background rgb 'white'
} else {
  set terminal pngcairo size 1000,560 font 'sans,10' noenhanced background rgb 'white'
}
set output out
set encoding utf8
set style textbox opaque noborder
set title title font ',13'
set xlabel xlabel
set ylabel sprintf('median time per call (%s)', yunit)
set grid xtics ytics lc rgb '#e4e4e4'
set key outside below center horizontal samplen 2.5 width 1 maxrows 3 height 1.5
set xlabel offset 0, 0.4
set border 3
set tics nomirror
set xrange [0:xmax]
if (logy) {
  set logscale y
  set format y '%.10g'
  set ylabel sprintf('median time per call (%s, log scale)', yunit)
} else {
  set yrange [0:*]
}
# Warm-up: excluded from the trend tests, washed out in front of the data.
if (warmup > 0) {
  set object 1 rect from 0, graph 0 to warmup, graph 1 front \
    fc rgb '#9a9a9a' fs transparent solid 0.22 noborder
  if (warmup > 0.12 * xmax) {
    set label 1 'warm-up' at warmup, graph 0.96 right offset -0.6, 0 tc rgb '#555555' front boxed
  } else {
    set label 1 '◂ warm-up' at warmup, graph 0.96 left offset 0.6, 0 tc rgb '#555555' front boxed
  }
}

plot for [i=0:nops-1] datafile index i using 1:2 with linespoints lw 2 pt 7 ps 0.5 \
  title columnheader(1)
