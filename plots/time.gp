# Time per call vs iteration.
#
# Parameters (set with gnuplot -e "name=value; ..." before this file, run
# from plots/; common.gp lists the ones every figure takes):
#   datafile  bucket rows: x, min, max, p10, median, p90 (one row per pixel
#             bucket; min/max keep every spike)
#   trendfile rows x, y of the fitted trend (a line, or a curve for a
#             relative drift), or '' for none
#   spikefile rows x, y of spikes clipped at the top of a linear axis, or ''
#   yunit     unit of the y values ('ns', 'µs', 'ms', 's')
#   logy      1 for a log y axis;  ymin, ymax  the y range
#   trendtitle, spiketitle  key entries for the trend line and the spikes
#   trendnote  the trend's slope and interval (common.gp)
#   trendcolor  colour of the trend line ('#d62728' for a finding)
load 'common.gp'
set ylabel sprintf('time per call (%s%s)', yunit, logy ? ', log scale' : '')
if (logy) {
  set logscale y
  set yrange [ymin:ymax]
} else {
  set yrange [0:ymax]
}

plot_cmd = "plot datafile using 1:2:3 with filledcurves fc rgb '#d6e0f0' fs solid" \
  . " title 'fastest–slowest call per bucket'," \
  . " datafile using 1:4:6 with filledcurves fc rgb '#8fb0e0' fs solid" \
  . " title 'p10–p90 (rolling)'," \
  . " datafile using 1:5 with lines lw 2 lc rgb '#1f3f8f' title 'median (rolling)'"
if (trendfile ne '') {
  plot_cmd = plot_cmd . ", trendfile using 1:2 with lines lw 3 dt 2 lc rgb trendcolor title trendtitle"
}
# Spikes are no finding: a neutral colour, whatever the verdict.
if (spikefile ne '') {
  plot_cmd = plot_cmd . ", spikefile using 1:2 with points pt 9 ps 1.2 lc rgb '#6b6b6b' title spiketitle"
}
eval plot_cmd . window_keys
