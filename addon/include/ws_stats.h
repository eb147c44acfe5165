/* wasm-soak statistics core: window statistics, quantiles, warm-up
 * detection, the early and late windows, time drift, memory trends,
 * classification into findings and the whole-run analysis that the final
 * summary and the progress line's preliminary verdict both run. Nothing here
 * includes node_api.h; addon/napi/verdict.c adapts it to Node-API. Functions
 * return 0 or a negative WS_E* code unless stated. Methods and defaults are
 * described in docs/verdicts.md. */
#ifndef WS_STATS_H
#define WS_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "ws.h"

/* ---- Window statistics for the summary (ws_summary.c) ---- */

/* Computes a row laid out as WS_WINDOW_STATS (n, median, p90, p99) of
 * elapsed[from..to) for all calls (row 0) and for each op k < n_ops (row
 * k + 1) into out[(n_ops + 1) * WS_WINDOW_STAT_FIELDS]; a row with
 * no calls has n = 0 and NaN quantiles; an op that made every call of the
 * window gets row 0's figures (the same values). Gathers an op's times into a copy
 * when the window has others. Returns 0, WS_EINVAL for a bad window, WS_ENOMEM. */
int ws_window_stats(const float *elapsed, const uint16_t *op, size_t from, size_t to,
                    uint32_t n_ops, double *out);

/* ---- Quantiles ---- */

/* Computes quantiles of x[0..n) for each probability probs[0..k) (0..1, linear
 * interpolation between order statistics, type 7; NaN ranks as +infinity) into
 * out[0..k), in two passes over x, which is not modified. Returns 0, WS_ENOMEM,
 * or WS_EINVAL when n == 0 or a probability is outside [0, 1]. */
int ws_quantiles_f32(const float *x, size_t n, const double *probs, size_t k,
                     double *out);

/* ---- Trend test on a short sequence (ws_trend.c) ---- */

/* Result of a trend test on points (x[i], y[i]), x strictly increasing. */
typedef struct {
  double slope;         /* Theil-Sen slope: median of pairwise slopes (y per unit x) */
  double intercept;     /* median of y[i] - slope * x[i] */
  double low, high;     /* 95 % Sen interval of the slope: 2.5 % in each tail */
  double low98, high98; /* 98 % Sen interval: 1 % in each tail */
  double z;             /* Mann-Kendall z, variance corrected for autocorrelation */
  double p_up;          /* one-sided p-value of the z for an increasing trend */
  double var_ratio;     /* Hamed-Rao variance inflation n/n* applied (>= 1) */
} ws_trend;

/* Largest sequence ws_trend_fit accepts (its work is O(n^2)). */
#define WS_TREND_MAX 256

/* Fits a Theil-Sen line through (x[i], y[i]) for i in [0, n), tests it with
 * the Mann-Kendall test (tie-corrected variance of S, inflated by the
 * Hamed-Rao factor from the autocorrelation of the detrended ranks) and
 * brackets the slope with Sen's distribution-free interval: the pairwise
 * slopes of ranks (N -+ z sd(S)) / 2 among the N pairs, from the same
 * corrected variance. Deterministic. Allocates n(n-1)/2 floats and 3n doubles
 * and frees them. Returns 0, WS_EINVAL when n < 4 or n > WS_TREND_MAX,
 * WS_ENOMEM. */
int ws_trend_fit(const double *x, const double *y, size_t n, ws_trend *out);

/* Returns the upper-tail probability of the standard normal at z. */
double ws_normal_sf(double z);

/* ---- Warm-up (ws_warmup.c) ---- */

/* Finds the end of warm-up of per-call times x[0..n) with MSER against a
 * least-squares line on batch means of ln(time) (batches of max(5, n / 2000)
 * calls, truncation searched over the first half): a start-up transient is
 * cut, a drift through the whole run is left to the drift test. Stores the first
 * post-warm-up iteration in *end (0 when n is too short to tell). Allocates O(n / batch)
 * doubles. Returns 0 or WS_ENOMEM. */
int ws_warmup_time(const float *x, size_t n, size_t *end);

/* Finds the end of memory warm-up from a step series of m points: bytes[i]
 * holds from iteration iter[i] (iter[0] is 0, iter increasing) in a run of
 * calls iterations. Warm-up ends after the first growth event at iteration e
 * (e < calls / 2) that is followed by a quiet gap of at least max(e, calls /
 * 20) iterations: from there on, growth is no longer the normal state. No event at or
 * after one that reaches limit (> 0) ends it: growth the limit stopped did not stop.
 * Stores that event's iteration + 1 in *end, or 0 when there is none. Returns 0. */
int ws_warmup_memory(const double *iter, const double *bytes, size_t m, size_t calls,
                     double limit, size_t *end);

/* The auto warm-up is at most calls / WS_WARMUP_CAP_DIVISOR: a quarter of
 * the run, so that at least three quarters are always judged. */
#define WS_WARMUP_CAP_DIVISOR 4

/* ---- Window change with a bootstrap interval (ws_bootstrap.c) ---- */

/* Relative change between two windows of a log-scale series. */
typedef struct {
  double change;     /* exp(mean(late) - mean(early)) - 1 */
  double low, high;  /* percentile bootstrap interval of the change */
  size_t block;      /* block length used (values), the larger window's */
  size_t replicates; /* bootstrap replicates drawn */
} ws_window_change;

/* Fewest values per window ws_bootstrap_change accepts. */
#define WS_BOOT_MIN_WINDOW 4

/* Estimates the relative change exp(mean(late) - mean(early)) - 1 between
 * windows early[0..ne) and late[0..nl) of a series on the log scale, with a
 * percentile interval at level (0.95: 2.5 % in each tail) from a moving-block
 * bootstrap: each replicate resamples each window on its own in blocks of
 * ceil(m^(1/3)) consecutive values (m the window's length), block starts
 * uniform, and takes the difference of the resampled means. Deterministic
 * for a seed (ws_rng). Allocates replicates doubles and frees them. Returns
 * 0, WS_EINVAL when a window has fewer than WS_BOOT_MIN_WINDOW values,
 * replicates < 2 or level is outside (0, 1), or WS_ENOMEM. */
int ws_bootstrap_change(const double *early, size_t ne, const double *late, size_t nl,
                        size_t replicates, double level, uint64_t seed,
                        ws_window_change *out);

/* Estimates the ratio exp(mean(d)) - 1 of paired log differences d[0..n)
 * (d[i] = log(b_i) - log(a_i) for the i-th pair of blocks of two arms run
 * side by side, e.g. in ABBA order), with a percentile interval at level
 * (0.95: 2.5 % in each tail) from a moving-block bootstrap of the pairs:
 * each replicate resamples d in blocks of ceil(n^(1/3)) consecutive pairs,
 * so drift that spans neighbouring pairs stays in its block; the interval
 * is the same expanded, centred percentile interval as
 * ws_bootstrap_change's. Deterministic for a seed (ws_rng). Allocates
 * replicates doubles and frees them. Returns 0, WS_EINVAL when n <
 * WS_BOOT_MIN_WINDOW, a value is not finite, replicates < 2 or level is
 * outside (0, 1), or WS_ENOMEM. */
int ws_bootstrap_paired(const double *d, size_t n, size_t replicates, double level,
                        uint64_t seed, ws_window_change *out);

/* ---- A family of arms compared with the first (ws_compare.c) ---- */

/* How the time ratios of several arms to the first are judged together. */
typedef struct {
  size_t family;    /* claims in the family: the arms compared with the first */
  double arm_level; /* each interval's own level, 1 - (1 - level) / family */
  double widen;     /* Bonferroni factor on each interval's log half-widths */
  double spread;    /* sd of one block's log median about its arm's mean, the
                       rounds' common drift removed (arms x rounds layout) */
  double floor;     /* the relative change a real difference must clear: the
                       larger of expm1(WS_COMPARE_SPREAD_FLOOR * spread) and
                       WS_COMPARE_INSTANCE_FLOOR */
} ws_arm_family;

/* How many block spreads a real difference must clear (ws_compare_family):
 * identical builds in their own instances differed by up to 2.4 spreads,
 * constant over rounds (docs/compare.md, "Many arms"). */
#define WS_COMPARE_SPREAD_FLOOR 2
/* The least floor, a relative change: identical builds in their own
 * instances sat up to +2.65 % apart (3.4 spreads of a quiet run, a
 * clean-clone CI run), an offset of code placement and memory layout that
 * does not shrink with the blocks' spread. */
#define WS_COMPARE_INSTANCE_FLOOR 0.03

/* Judges arms 1..arms-1 against arm 0 from x[arm * rounds + round], the log
 * block medians of every arm in the same rounds (rounds >=
 * WS_BOOT_MIN_WINDOW), as a family of `family` claims (1 <= family <= arms -
 * 1) at a joint level by Bonferroni: each arm at 1 - (1 - level) / family.
 * For each arm j >= 1 out[j - 1] holds ws_bootstrap_paired's change of the
 * paired differences x_j - x_0 (replicates, level, seed) and the wider, on
 * each side, of two intervals at that level: the bootstrap's, its log
 * half-widths times t_{rounds-1}(1 - (1 - level) / (2 family)) /
 * t_{rounds-1}(1 - (1 - level) / 2) (the bootstrap of a few rounds has no
 * support that far out in its tails), and Student's t interval of the mean
 * of the differences (the bootstrap of 8 rounds runs narrow). With family 1
 * the bootstrap's interval is kept unless the t interval is wider. fam gets
 * the family, the level, the factor and the block spread: the residual
 * standard deviation of the two-way layout (arm and round effects removed),
 * (arms - 1)(rounds - 1) degrees of freedom, and its floor. Allocates rounds
 * doubles and frees them. Returns 0, WS_EINVAL (arms < 2, too few rounds, a
 * family out of range, a value not finite, replicates < 2, level outside (0,
 * 1)) or WS_ENOMEM. */
int ws_compare_family(const double *x, size_t arms, size_t rounds, size_t family,
                      size_t replicates, double level, uint64_t seed,
                      ws_window_change *out, ws_arm_family *fam);

/* ---- Early and late windows (ws_windows.c) ---- */

/* How the post-warm-up calls [from, to) are cut into batches, and the early
 * and late windows: the first and last fifth of those batches. One
 * definition for the time test (ws_drift_analyze), the summary's time
 * windows and per-op rows, and the figures (docs/verdicts.md). */

/* Fewest calls per batch once there are enough calls (50) for five batches. */
#define WS_BATCH_MIN_CALLS 10

typedef struct {
  size_t from, to;       /* the calls cut: [from, to) */
  size_t batches;        /* at most 60 batches of at least 10 calls; under 50
                          * calls, one batch per call */
  size_t batch_size;     /* calls per batch; the last one also takes the rest */
  size_t window_batches; /* batches in each window: a fifth, at least 1 (0
                          * without calls) */
  size_t early_to;       /* the early window is [from, early_to) */
  size_t late_from;      /* the late window is [late_from, to) */
} ws_windows;

/* Fills w for the calls [from, to) (from > to counts as empty at to). The
 * windows never overlap while there are at least two batches; with one call
 * both are that call. */
void ws_time_windows(size_t from, size_t to, ws_windows *w);

/* ---- Time drift (ws_drift.c) ---- */

/* Fewest calls the time test takes after warm-up: 8 batches of
 * WS_BATCH_MIN_CALLS. */
#define WS_TIME_MIN_CALLS 80

typedef struct {
  double threshold; /* relative change across the run that matters (0.10) */
  double alpha;     /* one-sided significance level (0.01) */
  uint64_t seed;    /* seeds the windows' bootstrap (the run's seed) */
} ws_drift_opts;

/* The machine measured in the same run (ws_control.h): the reference
 * workload's time at ctl_n points by iteration (a sample belongs to the call
 * before it), and each call's record flags (WS_FLAG_PREEMPTED), or NULL. */
typedef struct {
  const double *ctl_iter, *ctl_ns;
  size_t ctl_n;
  const uint8_t *flags;
} ws_time_control;

/* A batch is disturbed when fewer than 4 of its calls, or fewer than this
 * share of them, ran without being preempted: its value then comes from
 * every call (else from the calls that were not preempted). */
#define WS_UNPREEMPTED_SHARE 0.25

typedef struct {
  int tested;        /* 0 when there were too few post-warm-up calls (under 8
                      * batches); the window fields are filled either way */
  size_t from, to;   /* analysed iterations [from, to) */
  size_t batches;    /* number of batches (ws_time_windows) */
  size_t batch_size; /* calls per batch (the last one takes the rest) */
  ws_trend trend;    /* on the batches' interquartile mean of ln(ns), per iteration */
  double effect;     /* exp(slope * calls) - 1: change across the run */
  double effect_low, effect_high;   /* the same from the slope interval */
  size_t early_to;                  /* the early window is iterations [from, early_to) */
  size_t late_from;                 /* the late window is iterations [late_from, to) */
  size_t window_batches;            /* batches in each window: a fifth of them, >= 1 */
  double early_ns, late_ns;         /* typical call in the early and late window: exp of
                                     * the mean of its batches' interquartile means */
  double windows_change;            /* late_ns / early_ns - 1 */
  double windows_low, windows_high; /* its 95 % moving-block bootstrap interval,
                                     * NaN when a window has fewer than
                                     * WS_BOOT_MIN_WINDOW batches */
  size_t windows_block; /* bootstrap block length in batches (0: no interval) */
  double effect_low98, effect_high98; /* the effect from the 98 % interval */
  int flagged;       /* p_up < alpha and the 98 % interval's low end of the effect
                      * >= threshold: a drift of at least the threshold with 99 %
                      * one-sided confidence */
  int spans;         /* p_up < alpha, not flagged, and the 98 % interval reaches
                      * the threshold: a drift of the threshold is possible but not
                      * shown (inconclusive) */
  double more_calls; /* with spans: calls to add for the interval to clear
                      * the threshold, if its width falls as 1 / sqrt(calls) */
  /* Against the machine (a control was given): */
  int controlled;         /* the control covered enough batches to judge against */
  size_t control_batches; /* batches holding a control sample */
  size_t preempted;       /* calls flagged preempted, left out of their batch */
  size_t disturbed;       /* batches mostly preempted (WS_UNPREEMPTED_SHARE) */
  int adjusted_tested;    /* the test against the machine ran: adjusted_* are set */
  double control_effect;  /* the machine's own change across the run: the
                           * reference workload's trend, like effect */
  double control_low98, control_high98; /* its 98 % interval */
  double control_p;                     /* its trend's p-value (upward) */
  double adjusted_effect; /* the module's change relative to the machine's: the
                           * trend of each batch's ln(ns) minus its control's */
  double adjusted_low98, adjusted_high98; /* its 98 % interval */
  double adjusted_p;                      /* its trend's p-value (upward) */
  int machine_noise; /* one trend (the calls' own, or against the machine)
                      * reaches the threshold and the other does not even
                      * span it: not a finding, inconclusive
                      * (WS_UNDECIDED_MACHINE_NOISE) */
  int unsustained;   /* flagged, but one half of the batches does
                      * not rise on its own (p >= 0.1; against the machine when
                      * controlled): a step or a stretch of wander, not a
                      * drift; inconclusive (WS_UNDECIDED_UNSUSTAINED) */
  double first_half_effect, second_half_effect; /* with unsustained: each half's
                                                 * trend as a change across the run */
  int unreplicated; /* flagged, but a second pass of the same calls showed no
                     * significant rise reaching the threshold
                     * (ws_drift_replicate): the first pass's wander, not a
                     * drift; inconclusive (WS_UNDECIDED_NOT_REPLICATED) */
  /* The interval that decided, quoted by every report: the trend against the
   * machine when controlled, else the calls' own (effect_low98 ..). */
  double decided_effect, decided_low98, decided_high98;
  double decided_p; /* the upward p-value of the trend that decided */
} ws_drift_result;

/* Tests per-call times x[from..calls) for an upward drift: the interquartile
 * mean of ln(ns) per batch (the batches of ws_time_windows; at least 8; the
 * calls ctl->flags marks preempted left out, WS_UNPREEMPTED_SHARE),
 * Theil-Sen slope, Mann-Kendall with Hamed-Rao correction and Sen's interval;
 * the effect is the relative change the trend implies across the whole run.
 * Also measures the change between the early and late window
 * (ws_time_windows: the first and last fifth of the batches;
 * windows_change) with a 95 % moving-block bootstrap interval
 * (ws_bootstrap_change, WS_BOOT_DRIFT_REPLICATES replicates, seeded by o->seed);
 * the flag depends on the trend test only: the 98 % interval's low end of
 * the effect must reach o->threshold. With a control ctl (NULL: none) that
 * has samples in at least 8 batches, including the early and the late
 * window, the same test also runs on each batch's ln(ns) minus the median
 * ln(ns) of its control samples (a batch without one takes its nearest
 * neighbours', interpolated); the flag then needs both tests, and a flag of the
 * calls' own test that the one against the machine does not confirm (nor
 * leaves spanning the threshold) is machine_noise. Allocates
 * O(calls / batches) floats and WS_BOOT_DRIFT_REPLICATES doubles. Returns 0
 * (r->tested says whether a test was possible), WS_EINVAL for bad options,
 * WS_ENOMEM. */
int ws_drift_analyze(const float *x, size_t calls, size_t from, const ws_drift_opts *o,
                     const ws_time_control *ctl, ws_drift_result *r);

/* Replicates first, a flagged drift, on a second pass of the same calls
 * (same seed, a fresh instance): tests x[from..calls) with ws_drift_analyze
 * into *second and keeps the flag only when the second pass's deciding trend
 * (against the machine when ctl covers it) rises with p < o->alpha and its
 * 98 % interval reaches o->threshold, cleared or spanned: a lenient test,
 * since it can only turn a finding into a question. Otherwise clears
 * first->flagged and sets first->unreplicated, with first->more_calls the
 * first pass's window. first unflagged is left as it is (second is still
 * filled). Returns 0, WS_EINVAL for bad options, WS_ENOMEM. */
int ws_drift_replicate(const float *x, size_t calls, size_t from, const ws_drift_opts *o,
                       const ws_time_control *ctl, ws_drift_result *first,
                       ws_drift_result *second);

/* ---- Memory trend (ws_memtrend.c) ---- */

enum {
  WS_PATTERN_UNTESTED = 0, /* too few points after warm-up */
  WS_PATTERN_FLAT = 1,     /* no significant upward trend */
  WS_PATTERN_STEP = 2,     /* grew, but in one or two steps, then plateaued */
  WS_PATTERN_SUSTAINED = 3 /* grows throughout the window */
};

/* Lenient level of the test that leaves a step open as still rising (it can
 * only make a verdict less certain, never a finding). */
#define WS_STILL_RISING_P 0.1

/* Segments a memory window is cut into. */
#define WS_MEM_SEGMENTS 16
/* Fewest samples a sampled series needs inside the window to be tested: with
 * fewer, the trend test has no power and "flat" would be a guess. */
#define WS_MEM_MIN_POINTS 12

/* Growth events of a step series (linear memory) inside the window: each
 * increase is one event. A large event adds more than one 64 KiB page (the
 * finest step there is) and at least 1/WS_LARGE_STEP_DIVISOR of the value in
 * effect at the window's start (12.5 %: below Emscripten's 20 % geometric
 * step). */
#define WS_LARGE_STEP_DIVISOR 8
typedef struct {
  size_t count;       /* increases inside the window */
  size_t large;       /* of them, large (above) */
  size_t large_early; /* large ones in the first half of the window */
  double first_large; /* iteration of the first and last large one (0: none) */
  double last_large;
  double base;   /* value in effect at the window's start */
  double grown;  /* value at the window's end minus base */
  int staircase; /* >= 3 large events, in both halves of the window */
  int doubling;  /* >= 2 large events, the last in the second half, and the
                  * window ends at >= 2 x base */
  int late;      /* neither rule above, and the last large event is in the
                  * second half of the run (iteration >= to / 2): a step that
                  * no plateau as long as the run before it has followed */
} ws_growth_events;

typedef struct {
  int pattern;             /* WS_PATTERN_* */
  size_t from, to;         /* analysed iterations [from, to) */
  size_t segments;         /* non-empty segments tested */
  ws_trend trend;          /* segment levels, bytes per iteration */
  double start, end;       /* first and last segment level */
  double grown;            /* trend.slope x (to - from): what the level trend grows
                            * across the window (0 when untested) */
  double last;             /* last value of the series */
  double max;              /* largest value in the window */
  size_t rises;            /* segment-to-segment increases */
  size_t points;           /* samples inside the window (a step series: its points
                            * in effect there) */
  ws_growth_events events; /* step series only (zero for samples) */
  int still_rising;        /* pattern step, yet no plateau shown yet: the second
                            * half's levels still rise (Mann-Kendall p <
                            * WS_STILL_RISING_P), or, for a series that never
                            * falls, its last three quarters set more new highs
                            * than a steady mark's (record test, at alpha) */
  int peak_grows;          /* per-segment peaks have a significant upward trend */
  int never_falls;         /* no value in the window is below an earlier one */
  ws_trend peak;           /* trend of per-segment peaks */
} ws_memtrend_result;

/* Tests one memory series for sustained growth over iterations [from, to).
 * Points are (iter[i], value[i]), iter increasing; step != 0 means value[i]
 * holds until the next point (a step series such as linear memory), else
 * they are samples. The window is cut into WS_MEM_SEGMENTS segments whose
 * level is the median sample (step series: the value at the segment's middle)
 * and whose peak is the largest value. Growth is sustained when the level
 * trend is significant (p_up < alpha, interval above 0) and
 * the growth pattern says so, or (step series) when its growth events are a
 * staircase or a doubling (ws_growth_events). Untested (never flat) with
 * fewer than 8 non-empty segments or, for samples, fewer than
 * WS_MEM_MIN_POINTS samples in the window. Allocates O(m) floats. Returns 0,
 * WS_ENOMEM. */
int ws_memtrend_analyze(const double *iter, const double *value, size_t m, int step,
                        size_t from, size_t to, double alpha, ws_memtrend_result *r);

/* ---- Notes: what is no finding but worth saying (ws_notes.c) ---- */

/* Linear memory that grew during warm-up to at least WS_STARTUP_RATIO times
 * its size at the first call, and by at least WS_STARTUP_MIN_BYTES (16
 * pages: a heap set up in the first calls is no news), is a start-up note. */
#define WS_STARTUP_RATIO 4
#define WS_STARTUP_MIN_BYTES (16 * WS_PAGE_BYTES)

/* A sawtooth: at least WS_SAWTOOTH_MIN_FALLS falls, each a run of
 * consecutive decreases that adds up to at least 1/WS_SAWTOOTH_RANGE_DIVISOR
 * of the samples' range and at least WS_SAWTOOTH_STEP_FACTOR times their
 * median absolute change from one sample to the next (so that noise, whose
 * falls are as large as its rises, never qualifies). */
#define WS_SAWTOOTH_MIN_FALLS 3
#define WS_SAWTOOTH_RANGE_DIVISOR 4
#define WS_SAWTOOTH_STEP_FACTOR 8

typedef struct {
  size_t points;      /* samples inside the window */
  size_t falls;       /* falls that count (above) */
  double largest;     /* the largest of them, bytes */
  double low, high;   /* smallest and largest sample inside the window */
  double first, last; /* iterations where the first and the last fall end */
  int sawtooth;       /* falls >= WS_SAWTOOTH_MIN_FALLS */
} ws_sawtooth_result;

/* Finds the sharp, repeated falls of samples (iter, value)[0..m) inside
 * [from, to) (above): what live bytes show when something frees them in
 * bursts (finalizers that run when the event loop turns, a cache flush).
 * Needs WS_MEM_MIN_POINTS samples inside the window; fewer give no falls.
 * Allocates m floats and frees them. Returns 0 or WS_ENOMEM. */
int ws_sawtooth(const double *iter, const double *value, size_t m, size_t from, size_t to,
                ws_sawtooth_result *r);

/* Below-floor numbers of a sustained memory series. */
typedef struct {
  double grown;      /* bytes it grows across the window: the level trend's
                      * slope x window, for a step series at least its
                      * growth from the window's start to its end */
  double per_call;   /* grown / the window's calls */
  double relative;   /* grown / its level at the window's start (INFINITY when
                      * that level is not positive) */
  double more_calls; /* calls more at this rate until grown reaches the
                      * relative floor (INFINITY when relative is) */
  int below;         /* per_call < floor_per_call and relative < floor_relative */
} ws_floor;

/* Measures a memory series' growth r (a step series when step) against the
 * floors: bytes per call and share of its level at the window's start
 * (WS_MEM_FLOOR_PER_CALL, WS_MEM_FLOOR_RELATIVE; docs/verdicts.md,
 * "Practical significance of memory growth"). Only the numbers: whether the
 * series is sustained, and whether its role has a floor, is the caller's. */
ws_floor ws_mem_floor(const ws_memtrend_result *r, int step, double floor_per_call,
                      double floor_relative);

/* ---- Classification (ws_classify.c) ---- */

/* What classification needs to know about one memory series. */
typedef struct {
  int role;            /* WS_ROLE_* */
  int pattern;         /* WS_PATTERN_* */
  int peak_grows;      /* its per-segment peaks grow */
  double grown;        /* bytes it grows across the tested window
                        * (ws_memtrend_result.grown) */
  int undecided;       /* WS_UNDECIDED_* this series leaves open, or 0 */
  double more_calls;   /* calls that would decide it (with undecided) */
  double exhausted_at; /* iteration at which it reached its limit, or -1 */
  double bytes;        /* its value there */
  int below_floor;     /* sustained or left open (a late step, still rising),
                        * but below the memory floor (ws_mem_floor): a note,
                        * neither a finding nor a question */
} ws_signal;

/* What the time test leaves to classification. */
typedef struct {
  int flagged;       /* ws_drift_result.flagged */
  int undecided;     /* WS_UNDECIDED_* or 0 */
  double more_calls; /* calls that would decide it (with undecided) */
} ws_time_signal;

typedef struct {
  int kind;         /* WS_KIND_* (a finding kind) */
  int series;       /* index of the signal it is about, -1 for time */
  double iteration; /* memory-exhausted: where the limit was reached */
  double bytes;     /* memory-exhausted: the memory there */
  int cause;        /* growth: WS_GROWTH_* (why not leak or fragmentation), else 0 */
} ws_finding;

/* Free bytes between in-use blocks (a HOLES series) account for a heap's
 * growth, and so make it fragmentation, when they grow by at least this
 * share of it, 1/4: a heap that grows while live bytes and the holes in it
 * stay flat grew at its end (its top chunk), to hold peaks of live bytes
 * that were freed again between samples, not between blocks. */
#define WS_HOLES_SHARE_DIVISOR 4

/* Something the data could not decide, and what would. */
typedef struct {
  int reason;        /* WS_UNDECIDED_* */
  int series;        /* index of the signal, -1 for time */
  double more_calls; /* more calls that would decide it, by the run's rates */
} ws_undecided;

#define WS_MAX_FINDINGS 6

/* Turns series patterns and the time signal into findings, most severe
 * first: memory-exhausted (a series reached its limit, the declared maximum
 * or 4 GiB, to within its last growth step or a page: observed, not
 * projected), stack-drift (the stack depth grows for
 * good: a caller that allocates on the shadow stack and never restores it),
 * leak (live bytes sustained), fragmentation (heap or linear memory
 * sustained while live bytes and their peaks are flat), growth (the same
 * without live bytes, or with only their peaks rising), js-heap-growth (a
 * retained JS heap sustained and grown by at least js_heap_threshold bytes
 * across the window: practical significance, as the time threshold is for
 * slowdown; one finding for each WS_ROLE_JS_HEAP series that did, the
 * worker's and the target's threads'), slowdown. A sustained series below
 * the memory floor (ws_signal.below_floor) counts as growing for none of
 * them. One memory finding at most, on the finest growing series (heap,
 * then total linear memory, then one memory). Stores up to
 * WS_MAX_FINDINGS in out, their count in *n, and in *below the index of the
 * first sustained JS heap series dismissed as below the threshold (-1 when
 * none was). Stores what the data left open in und (up to WS_MAX_SERIES + 1,
 * count in *nund): memory questions only while no memory finding was made,
 * a late linear-memory step only while no live-byte series was tested.
 * Returns the verdict of those findings by the judge's rule
 * (ws_judge_verdict): the most severe kind, else WS_KIND_INCONCLUSIVE when
 * something is open, else WS_KIND_STABLE. */
int ws_classify(const ws_signal *s, size_t k, const ws_time_signal *time,
                double js_heap_threshold, ws_finding *out, size_t *n, int *below,
                ws_undecided *und, size_t *nund);

/* ---- The judge (ws_judge.c) ---- */

/* What the judge takes: what became of the run, the finding kinds it has,
 * what --fail-on lists, and whether the data left a question open. */
typedef struct {
  int status;               /* WS_RUN_* */
  uint32_t kinds;           /* WS_KIND_BIT(k) of every finding kind k present */
  uint32_t fail_on;         /* WS_KIND_BIT(k) of every kind --fail-on lists */
  int fail_on_inconclusive; /* --fail-on lists "inconclusive" */
  int inconclusive;         /* something is open (the verdict inconclusive, if
                             * no finding names another) */
} ws_judge_in;

/* What the judge decides. */
typedef struct {
  int verdict;   /* WS_KIND_*: a kind that names a verdict, WS_KIND_STABLE,
                  * WS_KIND_INCONCLUSIVE or WS_KIND_ERROR */
  int exit_code; /* WS_EXIT_* (never WS_EXIT_USAGE) */
} ws_judgement;

/* Returns the verdict of kinds (WS_KIND_BIT set) on a run that did not
 * fail: the first kind in severity order (WS_FINDING_KINDS) whose gate names
 * a verdict (WS_GATE_FAIL_ON, WS_GATE_ALWAYS), else WS_KIND_INCONCLUSIVE
 * when inconclusive, else WS_KIND_STABLE. Kinds of other gates are
 * ignored. */
int ws_judge_verdict(uint32_t kinds, int inconclusive);

/* Returns the gate (WS_GATE_*) of a finding kind, or 0 for a value that is
 * none. */
int ws_kind_gate(int kind);

/* The one decision of a run, a comparison or a suite target (docs/verdicts.md,
 * "The judge"). Verdict: WS_KIND_ERROR when the status is WS_RUN_FAILED or a
 * kind's gate is WS_GATE_FAILS_RUN, else ws_judge_verdict. Exit code, first
 * that applies: WS_EXIT_FAILED for WS_KIND_ERROR; WS_EXIT_INTERRUPTED for
 * WS_RUN_INTERRUPTED; WS_EXIT_FAILED for WS_RUN_INCOMPLETE; WS_EXIT_FINDING
 * for a kind gated WS_GATE_ALWAYS or WS_GATE_AGAINST, for a kind gated
 * WS_GATE_FAIL_ON that fail_on lists, or for inconclusive with
 * fail_on_inconclusive; else WS_EXIT_OK. WS_RUN_MODULE_EXHAUSTED is judged as
 * WS_RUN_COMPLETED. Stores the result in *out. Returns 0, or WS_EINVAL (out
 * untouched) for an unknown status or a bit of kinds or fail_on that is no
 * finding kind. Pure: no allocation, any thread. */
int ws_judge(const ws_judge_in *in, ws_judgement *out);

/* ---- Whole-run analysis (ws_verdict.c) ---- */

/* Most memory series ws_analyze_run takes. */
#define WS_MAX_SERIES 16

/* One memory series of a run (docs/architecture.md, "Decoded run data"). */
typedef struct {
  int role; /* WS_ROLE_* */
  int step; /* 1 for a step series, 0 for samples */
  const double *iter, *value;
  size_t n;
  double limit; /* bytes it cannot grow past (a linear memory's declared
                 * maximum, else WS_WASM32_MAX_BYTES), 0 for none */
} ws_series_in;

/* Something a run shows that is no finding (WS_NOTE_KINDS), with its
 * numbers; fields a kind does not use are 0. */
typedef struct {
  int kind;          /* WS_NOTE_* */
  int series;        /* index of the series it is about */
  double grown;      /* below-floor: ws_floor.grown; start-up: bytes grown
                      * before warm-up's end; sawtooth: the largest fall */
  double per_call;   /* below-floor: ws_floor.per_call */
  double relative;   /* below-floor: ws_floor.relative; start-up: memory at
                      * warm-up's end / memory at the first call */
  double more_calls; /* below-floor: ws_floor.more_calls */
  double from, to;   /* start-up: memory at the first call and at warm-up's
                      * end; sawtooth: the samples' low and high */
  double at;         /* start-up: warm-up's end (an iteration); sawtooth:
                      * calls from the first fall to the last / (falls - 1) */
  double count;      /* sawtooth: the falls */
} ws_note;

/* Most notes one analysis makes: one per series, start-up, sawtooth. */
#define WS_MAX_NOTES (WS_MAX_SERIES + 2)

/* A second timed pass of a run's calls (same seed, a fresh instance): its
 * per-call times and its control (ctl_n 0: none; flags: its calls' flags or
 * NULL), to replicate a flagged slowdown (ws_drift_replicate), and its
 * memory series[0..k), index for index the first pass's (n 0: not seen), to
 * replicate growth that rests on peaks (ws_analyze_run). */
typedef struct {
  const float *elapsed;
  size_t calls;
  ws_time_control control;
  const ws_series_in *series;
  size_t k;
} ws_replica;

/* Options of the whole-run analysis; the defaults are WS_VERDICT_DEFAULTS
 * (ws_protocol.h). */
typedef struct {
  long warmup;               /* first post-warm-up iteration, or < 0 for auto */
  double time_threshold;     /* WS_TIME_THRESHOLD */
  double js_heap_threshold;  /* WS_JS_HEAP_THRESHOLD bytes */
  double mem_floor_per_call; /* WS_MEM_FLOOR_PER_CALL bytes per call */
  double mem_floor_relative; /* WS_MEM_FLOOR_RELATIVE of the level */
  double alpha;              /* WS_ALPHA */
  uint64_t seed;             /* seeds the randomised methods (the time windows'
                              * bootstrap): the run's seed, for reproducibility */
  const uint8_t *flags;      /* each call's record flags (WS_FLAG_PREEMPTED calls
                              * leave the time test), or NULL: none known */
  const ws_replica *replica; /* a second timed pass of the same calls, or NULL */
} ws_verdict_opts;

/* Fills o with the defaults: auto warm-up, WS_VERDICT_DEFAULTS, seed 1, no
 * flags. */
void ws_verdict_opts_default(ws_verdict_opts *o);

/* Memory series a replica can test again: one memory finding and every
 * still-rising series. */
#define WS_MAX_REPLICA (WS_MAX_SERIES + 1)

typedef struct {
  int warmup_auto;
  size_t warmup;         /* the chosen point: memory tests start here, and
                          * so does the time test unless auto (then at
                          * warmup_time, capped at the same point) */
  size_t warmup_time;    /* MSER's end of time warm-up (auto) */
  size_t warmup_memory;  /* end of memory warm-up (auto) */
  double startup_growth; /* linear memory grown before the chosen point */
  ws_drift_result time;
  int replica_tested;         /* the time test was flagged and o->replica given */
  ws_drift_result replica;    /* with replica_tested: the second pass's test */
  ws_memtrend_result *series; /* k results, in the caller's storage */
  /* The memory findings and questions that must recur
   * (ws_finding_must_recur, ws_question_must_recur) tested again on
   * o->replica: the series' indexes and their results there. */
  int replica_series[WS_MAX_REPLICA];
  ws_memtrend_result replica_results[WS_MAX_REPLICA];
  int replica_recurred[WS_MAX_REPLICA]; /* the rise recurred there */
  size_t nreplica_series;
  int must_recur; /* a finding or question of the first pass must recur */
  ws_finding findings[WS_MAX_FINDINGS];
  size_t nfindings;
  ws_undecided undecided[WS_MAX_SERIES + 1];
  size_t nundecided;
  int below_threshold; /* series sustained but below js_heap_threshold, or -1 */
  ws_note notes[WS_MAX_NOTES];
  size_t nnotes;
} ws_verdict;

/* Returns whether memory finding f (leak, fragmentation, growth; results:
 * the run's series results) must recur in a second run before it stands
 * (docs/verdicts.md, "A finding must recur"): growth held by peaks of blocks
 * freed late (a GC's timing moves them), and a finding decided by the level
 * trend of a series that can fall, short of beyond doubt (p above
 * WS_BEYOND_DOUBT_P): a working set's own wander. Else 0 (time: ws_drift). */
int ws_finding_must_recur(const ws_finding *f, const ws_memtrend_result *results);

/* Returns whether question u (results as above) must recur: a still-rising
 * series that can fall, short of beyond doubt, as above. */
int ws_question_must_recur(const ws_undecided *u, const ws_memtrend_result *results);

/* Analyses a run: warm-up (auto: the later of the time and the memory
 * warm-up, at most a quarter of the run), time drift (auto: from the time warm-up
 * alone), every series' trend, then classification (ws_classify, with
 * o->js_heap_threshold; a live-byte, heap or linear-memory series that is
 * sustained, or left open as a late step or still rising, but below both
 * floors, o->mem_floor_*, is neither a finding nor a question but a note), and the
 * notes: below-floor series, large start-up growth of the first linear
 * series, a sawtooth in the first tested live-byte series. elapsed[0..calls) are per-call
 * ns; series[0..k) the memory series (the first WS_ROLE_LINEAR one drives memory
 * warm-up); v->series must point at k results. The same call judges a finished run and
 * the decimated run so far (ws_live.h, whose iterations count kept calls).
 * Returns 0, WS_EINVAL (bad options, k > WS_MAX_SERIES), WS_ENOMEM. */
int ws_analyze_run(const float *elapsed, size_t calls, const ws_series_in *series,
                   size_t k, const ws_verdict_opts *o, ws_verdict *v);

/* Returns the verdict of a whole-run analysis's findings alone
 * (ws_judge_verdict of v's finding kinds, inconclusive when v left
 * something open): for C callers. A run's verdict also weighs the findings
 * made outside it (failed grows, budgets, ...): src/analysis/judge.js. */
int ws_verdict_of(const ws_verdict *v);

#endif
