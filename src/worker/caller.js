// Who called a hook: the file of the first stack frame outside the hook's
// own file, so that the worker's hooks (capture.js, objects.js) can leave
// Node's own code alone (undici instantiating llhttp, its Response objects).

// Frames read by callerFile: the hooks' own (a few) and the caller's.
const RUNTIME_FRAMES = 16;

/**
 * The file of the code that called the hook running now: the first stack
 * frame outside ownFile (the hook module's import.meta.url) — a file: URL,
 * a path, or a `node:` module — or null when no such frame is on the stack.
 * Costs one stack capture: for a hook that runs per instantiation or per
 * registry, never per call.
 */
export function callerFile(ownFile) {
  const { stackTraceLimit, prepareStackTrace } = Error;
  const holder = {};
  try {
    Error.stackTraceLimit = RUNTIME_FRAMES;
    Error.prepareStackTrace = (_, sites) => sites;
    Error.captureStackTrace(holder, callerFile);
    const sites = holder.stack;
    const caller = Array.isArray(sites) ? sites.find((site) => site.getFileName() !== ownFile) : undefined;
    return caller?.getFileName() ?? null;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
    Error.prepareStackTrace = prepareStackTrace;
  }
}

/** Whether a caller's file (callerFile) is Node's own code. */
export const isRuntime = (file) => file?.startsWith('node:') ?? false;
