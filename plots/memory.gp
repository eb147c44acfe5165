# Memory vs iteration.
#
# Parameters (set with gnuplot -e "name=value; ..." before this file):
#   memfile    rows x, bytes: total linear memory, drawn as steps
#   heapfile   rows x, bytes: heap top reported by stats(), or ''
#   livefile   rows x, bytes: live bytes reported by stats(), or ''
#   jsheapfile rows x, bytes: the worker's V8 heap (second axis), or ''
#   rssfile    rows x, bytes: process RSS (second axis), or ''
#   growfile   one block per op (first line: its key entry in quotes, then
#              rows x, bytes) of calls during which memory grew, or ''
#   nops       number of blocks in growfile
#   title, out, term ('pngcairo' or 'svg'), xlabel
#   yunit, y2unit  units of the first and second axis ('KiB', 'MiB', ...)
#   warmup     x where warm-up ends (0: none)
if (term eq 'svg') {
  set terminal svg size 1000,520 font 'sans,12' noenhanced background rgb 'white'
} else {
  set terminal pngcairo size 1000,520 font 'sans,10' noenhanced background rgb 'white'
}
set output out
set encoding utf8
set title title font ',13'
set xlabel xlabel
set ylabel sprintf('wasm memory (%s)', yunit)
set grid ytics lc rgb '#dddddd'
set key outside top center horizontal samplen 2.5 width 1 maxrows 2
set border 3
set tics nomirror
set xrange [0:*]
set yrange [0:*]

if (warmup > 0) {
  set object 1 rect from 0, graph 0 to warmup, graph 1 behind \
    fc rgb '#ececec' fs solid noborder
  set label 1 'warm-up' at warmup, graph 0.04 right offset -0.6, 0 tc rgb '#777777'
}

plot_cmd = "plot memfile using 1:2 with steps lw 2.5 lc rgb '#2c7bb6' title 'linear memory'"
if (heapfile ne '') {
  plot_cmd = plot_cmd . ", heapfile using 1:2 with lines lw 2 lc rgb '#1a9641'" \
    . " title 'heap top (stats)'"
}
if (livefile ne '') {
  plot_cmd = plot_cmd . ", livefile using 1:2 with lines lw 2 lc rgb '#d7191c'" \
    . " title 'live bytes (stats)'"
}
if (growfile ne '') {
  plot_cmd = plot_cmd . ", for [i=0:nops-1] growfile index i using 1:2 with points" \
    . " pt (i == 0 ? 9 : 4 + 2 * i) ps 1.1 lc rgb word('#e66101 #5e3c99 #b2abd2 #fdb863 #018571', i % 5 + 1)" \
    . " title columnheader(1)"
}
if (jsheapfile ne '' || rssfile ne '') {
  set y2label sprintf('JS heap and RSS (%s)', y2unit)
  set y2tics
  set y2range [0:*]
  set border 11
}
if (jsheapfile ne '') {
  plot_cmd = plot_cmd . ", jsheapfile using 1:2 axes x1y2 with lines lw 1.5 dt 2" \
    . " lc rgb '#7b3294' title 'worker JS heap (right axis)'"
}
if (rssfile ne '') {
  plot_cmd = plot_cmd . ", rssfile using 1:2 axes x1y2 with lines lw 1.5 dt 3" \
    . " lc rgb '#777777' title 'process RSS (right axis)'"
}
eval plot_cmd
