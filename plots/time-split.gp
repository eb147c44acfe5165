# Where each op's time goes: one stacked bar per op (algorithm, allocator,
# memory.grow, JS glue), time per call with the stamps' cost taken off.
#
# Parameters (set with gnuplot -e "name=value; ..." before this file, run
# from plots/; common.gp lists the ones every figure takes):
#   datafile  one row per op: its name in quotes, then the four parts
#   ylabel    the y axis's label (its unit);  ymax  the y range's top
#   title1 .. title4  the parts' names, in the rows' order
load 'common.gp'
set ylabel ylabel
set yrange [0:ymax]
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb '#ffffff'
set boxwidth 0.6
set xtics scale 0
plot datafile using 2:xtic(1) lc rgb '#4c78a8' title title1, \
  '' using 3 lc rgb '#e45756' title title2, \
  '' using 4 lc rgb '#f2a541' title title3, \
  '' using 5 lc rgb '#8f8f8f' title title4
