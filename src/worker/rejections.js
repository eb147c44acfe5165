// Unhandled rejections of the target (worker side). Node finds them between
// two turns of the worker's event loop, that is when the loop yields, not
// when the promise is rejected; left to Node's default, the worker dies with
// the reason alone ("the worker died: …"). Watched here, the run fails at
// its next yield with what happened and the calls that can have made it.

/**
 * Installs the worker's unhandledRejection listener. Returns { take() }:
 * the first reason not taken yet ({ reason }), or null.
 */
export function watchRejections() {
  let first = null;
  process.on('unhandledRejection', (reason) => {
    first ??= { reason };
  });
  return {
    take() {
      const r = first;
      first = null;
      return r;
    },
  };
}

/**
 * The run's error for an unhandled rejection: described is the reason as
 * serializeError describes it; during: where it was seen ("setup()", or the
 * iterations { from, to } that ran since the previous yield).
 */
export function rejectionError(described, during) {
  const what = described.name === 'non-Error value' ? described.message : `${described.name}: ${described.message}`;
  const where =
    typeof during === 'string'
      ? `during ${during}`
      : during.from === during.to
        ? `made by iteration ${during.to}`
        : `made by one of iterations ${during.from}–${during.to} (Node finds an unhandled rejection when the loop yields to the event loop, so the call is one of those since the last yield; the stack says where)`;
  return {
    ...described,
    code: 'WS_EREJECTION',
    message: `an unhandled rejection (a promise rejected with nothing to handle it: ${what}) ${where}`,
  };
}
