# Memory vs iteration.
#
# Parameters (set with gnuplot -e "name=value; ..." before this file, run
# from plots/; common.gp lists the ones every figure takes). Every file
# holds rows x, bytes in its axis's unit unless said otherwise, or is '':
#   memfile    total linear memory, drawn as steps
#   heapfile   heap top (stats() or the allocator)
#   livefile   live bytes (stats(), the allocator or the counting pass)
#   heaptitle, livetitle  their key entries, naming the source
#   peakfile   rows x, live, peak: the highest live bytes within the calls
#              around each live sample (counting pass), a band over live bytes
#   peaktitle  its key entry
#   gapfile    rows x, low, heap: the free memory the heap holds beyond its
#              early level (low = live bytes + that level; low = heap where it
#              holds no more), shaded: fragmentation widens it
#   censuslivefile, censusfreefile, censuslargestfile  the heap census: bytes
#              in use, bytes free (top chunk excluded), the largest free block
#   censusname  their key entries' source ('heap census', or naming the
#              memory when the run has several)
#   censuslivetitle  the census's bytes in use key entry (garbage awaiting
#              the collector included, when live bytes are the held ones)
#   jsheapfile the worker's V8 heap (second axis)
#   jsheaptitle  its key entry (the heap retained after full GCs when known)
#   threadsheapfile  the V8 heaps of the worker threads the target started,
#              summed, each after its own full GC (second axis)
#   rssfile    process RSS (second axis; '' when the JS heap is the finding,
#              so that the second axis is the JS heap's own)
#   memoriesfile  when the run has several memories: one block per memory
#              that grew (first line: its key entry in quotes, then rows x,
#              bytes), its linear memory, drawn as steps; nmemories  blocks
#   memorieslivefile  likewise, the live bytes of those whose heap census
#              recognised an allocator; nmemorieslive  blocks
#   growfile   one block per op (first line: its key entry in quotes, then
#              rows x, bytes) of calls during which memory grew
#   nops       number of blocks in growfile;  growsize  their marker size
#   trendfile  rows x, y: the finding's fitted trend;  trendtitle  its key
#              entry;  trendnote, trendcolor  its slope (common.gp);
#              trendaxes  'x1y1' or 'x1y2' (the JS heap's)
#   yunit, y2unit  units of the first and second axis ('KiB', 'MiB', ...)
#   ymax       top of the first axis (from 0);  y2min, y2max  the second's range
load 'common.gp'
set ylabel sprintf('wasm memory (%s)', yunit)
set yrange [0:ymax]

plot_cmd = "plot memfile using 1:2 with steps lw 2.5 lc rgb '#2c7bb6' title 'linear memory'"
if (gapfile ne '') {
  plot_cmd = "plot gapfile using 1:2:3 with filledcurves fc rgb '#f6d0b8' fs solid" \
    . " title 'heap top − live bytes beyond its early level (held free: fragmentation)', " \
    . "memfile using 1:2 with steps lw 2.5 lc rgb '#2c7bb6' title 'linear memory'"
}
if (heapfile ne '') {
  plot_cmd = plot_cmd . ", heapfile using 1:2 with lines lw 2 lc rgb '#1a9641' title heaptitle"
}
# The peak band lies between live bytes and the heap top: drawn just before
# the live bytes line, which stays on top of it, and keyed next to it.
if (peakfile ne '') {
  plot_cmd = plot_cmd . ", peakfile using 1:2:3 with filledcurves fc rgb '#f4a6a6' fs solid title peaktitle"
}
if (livefile ne '') {
  plot_cmd = plot_cmd . ", livefile using 1:2 with lines lw 2 lc rgb '#d7191c' title livetitle"
}
if (censuslivefile ne '') {
  plot_cmd = plot_cmd . ", censuslivefile using 1:2 with linespoints lw 1.5 pt 7 ps 0.5 lc rgb '#a6611a'" \
    . " title censuslivetitle"
}
if (censusfreefile ne '') {
  plot_cmd = plot_cmd . ", censusfreefile using 1:2 with linespoints lw 1.5 pt 5 ps 0.5 lc rgb '#018571'" \
    . " title 'free bytes (' . censusname . ')'"
}
if (censuslargestfile ne '') {
  plot_cmd = plot_cmd . ", censuslargestfile using 1:2 with linespoints lw 1.5 dt 4 pt 4 ps 0.5 lc rgb '#80cdc1'" \
    . " title 'largest free block (' . censusname . ')'"
}
if (memoriesfile ne '') {
  plot_cmd = plot_cmd . ", for [i=0:nmemories-1] memoriesfile index i using 1:2 with steps lw 1.5 dt 2" \
    . " lc rgb word('#4393c3 #2166ac #92c5de #053061', i % 4 + 1) title columnheader(1)"
}
if (memorieslivefile ne '') {
  plot_cmd = plot_cmd . ", for [i=0:nmemorieslive-1] memorieslivefile index i using 1:2 with linespoints" \
    . " lw 1.5 pt 13 ps 0.5 lc rgb word('#d6604d #b2182b #f4a582 #67001f', i % 4 + 1) title columnheader(1)"
}
if (growfile ne '') {
  plot_cmd = plot_cmd . ", for [i=0:nops-1] growfile index i using 1:2 with points" \
    . " pt (i == 0 ? 9 : 4 + 2 * i) ps growsize lc rgb word('#e66101 #5e3c99 #b2abd2 #fdb863 #018571', i % 5 + 1)" \
    . " title columnheader(1)"
}
if (jsheapfile ne '' || threadsheapfile ne '' || rssfile ne '') {
  set y2label sprintf('%s (%s)', rssfile ne '' ? 'JS heap and RSS' : 'JS heap', y2unit)
  set y2range [y2min:y2max]
  if (y2ticlist eq '') {
    set y2tics
  }
  set border 11
}
if (jsheapfile ne '') {
  plot_cmd = plot_cmd . ", jsheapfile using 1:2 axes x1y2 with lines lw 2 dt 2" \
    . " lc rgb '#7b3294' title '" . jsheaptitle . " (right axis)'"
}
if (threadsheapfile ne '') {
  plot_cmd = plot_cmd . ", threadsheapfile using 1:2 axes x1y2 with linespoints lw 2 dt 4 pt 7 ps 0.6" \
    . " lc rgb '#c51b7d' title 'worker threads JS heap after their GCs (right axis)'"
}
if (rssfile ne '') {
  plot_cmd = plot_cmd . ", rssfile using 1:2 axes x1y2 with lines lw 1.5 dt 3" \
    . " lc rgb '#777777' title 'process RSS (right axis)'"
}
if (trendfile ne '') {
  plot_cmd = plot_cmd . ", trendfile using 1:2 axes " . trendaxes . " with lines lw 3 dt 2 lc rgb trendcolor title trendtitle"
}
eval plot_cmd . window_keys
