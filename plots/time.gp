# Time per call vs iteration.
#
# Parameters (set with gnuplot -e "name=value; ..." before this file):
#   datafile  bucket rows: x, min, max, p10, median, p90 (one row per pixel
#             bucket; min/max keep every spike)
#   trendfile rows x, y of the fitted trend (a line, or a curve for a
#             relative drift), or '' for none
#   spikefile rows x, y of spikes clipped at the top of a linear axis, or ''
#   title     figure title;  out  output path;  term  'pngcairo' or 'svg'
#   xlabel    x axis label;  yunit  unit of the y values ('ns', 'µs', 'ms')
#   warmup    x where warm-up ends (0: none);  xmax  x of the last call
#   logy      1 for a log y axis;  ymax  top of a linear y axis
#   trendtitle, spiketitle  key entries for the trend line and the spikes
#   trendcolor  colour of the trend line ('#d62728' for a finding)
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
set ylabel sprintf('time per call (%s)', yunit)
set grid xtics ytics lc rgb '#e4e4e4'
set key outside below center horizontal samplen 2.5 width 1 maxrows 2 height 1.5
set xlabel offset 0, 0.4
set border 3
set tics nomirror
set xrange [0:xmax]

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
if (logy) {
  set logscale y
  set format y '%.10g'
  set ylabel sprintf('time per call (%s, log scale)', yunit)
} else {
  set yrange [0:ymax]
}

plot_cmd = "plot datafile using 1:2:3 with filledcurves fc rgb '#d6e0f0' fs solid" \
  . " title 'fastest–slowest call per bucket'," \
  . " datafile using 1:4:6 with filledcurves fc rgb '#8fb0e0' fs solid" \
  . " title 'p10–p90 (rolling)'," \
  . " datafile using 1:5 with lines lw 2 lc rgb '#1f3f8f' title 'median (rolling)'"
if (trendfile ne '') {
  plot_cmd = plot_cmd . ", trendfile using 1:2 with lines lw 2.5 dt 2 lc rgb trendcolor" \
    . " title trendtitle"
}
if (spikefile ne '') {
  plot_cmd = plot_cmd . ", spikefile using 1:2 with points pt 9 ps 1.2 lc rgb '#d62728'" \
    . " title spiketitle"
}
eval plot_cmd
