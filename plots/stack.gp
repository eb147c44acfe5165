# Depth of the wasm shadow stack vs iteration (the first stack pointer seen
# minus each one: it rises when calls take stack space and never give it back).
#
# Parameters (set with gnuplot -e "name=value; ..." before this file, run
# from plots/; common.gp lists the ones every figure takes):
#   datafile   rows x, bytes (in yunit)
#   trendfile  rows x, y of the fitted trend, or ''
#   trendtitle, trendcolor  its key entry and colour ('#d62728' for a finding)
#   trendnote  its slope and interval (common.gp)
#   yunit      unit of the y values ('bytes', 'KiB', ...);  ymax  top of the y axis
load 'common.gp'
set ylabel sprintf('shadow stack depth (%s)', yunit)
set yrange [0:ymax]
plot_cmd = "plot datafile using 1:2 with lines lw 2.5 lc rgb '#1f3f8f' title 'stack depth (first stack pointer − current)'"
if (trendfile ne '') {
  plot_cmd = plot_cmd . ", trendfile using 1:2 with lines lw 3 dt 2 lc rgb trendcolor title trendtitle"
}
eval plot_cmd . window_keys
