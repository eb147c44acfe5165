# What every figure shares: the terminal, the axes' style, the warm-up and
# the window tested. Loaded by each figure script after its parameters
# (gnuplot runs with plots/ as its working folder).
#
# Parameters:
#   title, out, term ('pngcairo' or 'svg'), xlabel
#   warmup     x where warm-up ends (0: none);  xmax  x of the last call (0:
#              an axis that is not iterations)
#   wfrom, wto the window a trend test judged (wto <= wfrom: none), shaded
#   wtitle     its key entry
#   trendnote  what the dashed trend line fits, its slope and interval, set in
#              the margin above the plot in trendcolor (''/unset: none)
#   xticlist, yticlist, y2ticlist  tic lists ('("1" 1, "2" 2)') with labels in the
#              axis's unit, written by the one number formatter, or ''
#   narrow     1: an SVG for narrow screens (taller, larger text, the key in
#              one column, the trend note on three lines); 0 or unset: not
if (!exists('narrow')) {
  narrow = 0
}
if (term ne 'svg') {
  set terminal pngcairo size 1000,560 font 'sans,10' noenhanced background rgb 'white'
}
if (term eq 'svg' && narrow) {
  set terminal svg size 600,940 font 'sans,17' noenhanced background rgb 'white'
}
if (term eq 'svg' && !narrow) {
  set terminal svg size 1000,560 font 'sans,12' noenhanced background rgb 'white'
}
set output out
set encoding utf8
set title title font (narrow ? ',19' : ',13')
set xlabel xlabel offset 0, 0.4
set grid xtics ytics lc rgb '#e4e4e4'
set key outside below center horizontal maxcols 2 samplen 2.5 width 1 height 1
if (narrow) {
  set key outside below left Left reverse horizontal maxcols 1 samplen 2 width 0 height 0.5
}
set border 3
set tics nomirror
if (xmax > 0) {
  set xrange [0:xmax]
}
if (exists('xticlist') && xticlist ne '') {
  eval 'set xtics ' . xticlist
}
if (yticlist ne '') {
  eval 'set ytics ' . yticlist
}
if (y2ticlist ne '') {
  eval 'set y2tics ' . y2ticlist
}

if (exists('trendnote') && trendnote ne '') {
  note = trendnote
  # Narrow: what it fits, the slope and the interval on lines of their own.
  if (narrow && strstrt(note, ': ') > 0) {
    note = note[1:strstrt(note, ': ')] . "\n" . note[strstrt(note, ': ') + 2:]
  }
  if (narrow && strstrt(note, ' (95 %') > 0) {
    note = note[1:strstrt(note, ' (95 %') - 1] . "\n" . note[strstrt(note, ' (95 %') + 1:]
  }
  set tmargin (narrow ? 6.5 : 4.5)
  set title offset 0, (narrow ? 2.4 : 0.6)
  set label 3 note at graph 0.5, graph 1 offset 0, (narrow ? 2.2 : 0.9) center tc rgb trendcolor font (narrow ? ',15' : ',11')
}

# The window tested: a light tint behind the data. Warm-up: excluded from
# the trend tests, washed out in front of the data. Both are keyed (no label
# inside the plot, where it would cover data).
window_keys = ''
if (wto > wfrom) {
  set object 2 rect from wfrom, graph 0 to wto, graph 1 behind fc rgb '#fdf6dc' fs solid noborder
  window_keys = window_keys . ", keyentry with boxes fc rgb '#fdf6dc' fs solid noborder title wtitle"
}
if (warmup > 0) {
  set object 1 rect from 0, graph 0 to warmup, graph 1 front fc rgb '#9a9a9a' fs transparent solid 0.22 noborder
  window_keys = window_keys . ", keyentry with boxes fc rgb '#9a9a9a' fs transparent solid 0.22 noborder" \
    . " title 'warm-up (not tested)'"
}
