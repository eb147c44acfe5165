// How finely the figures draw a run: buckets across the plot, windows of
// the ops figure, points of a slow series, buckets per spike marker.

export const BUCKETS = 1000; // about one per pixel of the plot area

export const OP_WINDOWS = 60;

export const MAX_POINTS = 3000;

export const SPIKE_GROUP = 5; // buckets per spike marker at most
