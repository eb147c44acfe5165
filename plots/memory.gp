# Memory vs iteration.
#
# Parameters (set with gnuplot -e "name=value; ..." before this file):
#   memfile    rows x, bytes: total linear memory, drawn as steps
#   heapfile   rows x, bytes: heap top (stats() or the allocator), or ''
#   livefile   rows x, bytes: live bytes (stats() or the allocator), or ''
#   heaptitle, livetitle  their key entries, naming the source
#   peakfile   rows x, live, peak: the highest live bytes within the calls
#              around each live sample (counting pass), a thin band over
#              live bytes, or ''
#   peaktitle  its key entry
#   gapfile    rows x, live, heap: the gap between them (free memory the heap
#              holds; fragmentation widens it), shaded, or ''
#   jsheapfile rows x, bytes: the worker's V8 heap (second axis), or ''
#   jsheaptitle  its key entry (the heap retained after full GCs when known)
#   rssfile    rows x, bytes: process RSS (second axis), or ''
#   growfile   one block per op (first line: its key entry in quotes, then
#              rows x, bytes) of calls during which memory grew, or ''
#   nops       number of blocks in growfile
#   title, out, term ('pngcairo' or 'svg'), xlabel
#   yunit, y2unit  units of the first and second axis ('KiB', 'MiB', ...)
#   warmup     x where warm-up ends (0: none);  xmax  x of the last call
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
set ylabel sprintf('wasm memory (%s)', yunit)
set grid xtics ytics lc rgb '#e4e4e4'
set key outside below center horizontal samplen 2.5 width 1 maxrows 3 height 1.5
set xlabel offset 0, 0.4
set border 3
set tics nomirror
set xrange [0:xmax]
set yrange [0:*]

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

plot_cmd = "plot memfile using 1:2 with steps lw 2.5 lc rgb '#2c7bb6' title 'linear memory'"
if (gapfile ne '') {
  plot_cmd = "plot gapfile using 1:2:3 with filledcurves fc rgb '#f6d0b8' fs solid" \
    . " title 'heap top − live bytes (held free: fragmentation)', " \
    . "memfile using 1:2 with steps lw 2.5 lc rgb '#2c7bb6' title 'linear memory'"
}
if (heapfile ne '') {
  plot_cmd = plot_cmd . ", heapfile using 1:2 with lines lw 2 lc rgb '#1a9641'" \
    . " title '" . heaptitle . "'"
}
# The peak band lies between live bytes and the heap top: drawn just before
# the live bytes line, which stays on top of it, and keyed next to it.
if (peakfile ne '') {
  plot_cmd = plot_cmd . ", peakfile using 1:2:3 with filledcurves fc rgb '#f4a6a6' fs solid" \
    . " title '" . peaktitle . "'"
}
if (livefile ne '') {
  plot_cmd = plot_cmd . ", livefile using 1:2 with lines lw 2 lc rgb '#d7191c'" \
    . " title '" . livetitle . "'"
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
    . " lc rgb '#7b3294' title '" . jsheaptitle . " (right axis)'"
}
if (rssfile ne '') {
  plot_cmd = plot_cmd . ", rssfile using 1:2 axes x1y2 with lines lw 1.5 dt 3" \
    . " lc rgb '#777777' title 'process RSS (right axis)'"
}
eval plot_cmd
