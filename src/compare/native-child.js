// The process a native arm runs in (child-pass.js forks it): native code can
// crash or corrupt the process it runs in, so a native arm's loop, ring and
// log live here, apart from compare's process and the other arms. It runs
// the arm's timed pass as any arm's (runPass: a worker whose C loop calls
// the library through the native engine, src/worker/targets/native.js; the
// ring drained into the arm's own log) and relays over the IPC channel:
// from the parent, grant (run one more block) and stop; to the parent, the
// pass's 'ready' and 'block' messages and, at the end, its outcome.
import { CTL, CTL_WORDS } from '../protocol.js';
import { requestStop } from '../run/drain.js';
import { runPass } from '../run/pass.js';

// compare's own process handles a Ctrl-C for every arm (it asks this one to
// stop): the terminal's SIGINT to the whole group must not end this one first.
process.on('SIGINT', () => {});
// Without compare (it ended first) there is nothing to report to; after
// the pass the process ends by itself, its exit code its own (a leak
// checker's at exit, say).
let reported = false;
process.on('disconnect', () => {
  if (!reported) process.exit(0);
});

let control = null;
let sab = null;

function grant() {
  Atomics.add(control, CTL.grant, 1);
  Atomics.notify(control, CTL.grant);
}

process.on('message', (msg) => {
  if (msg.type === 'grant') grant();
  else if (msg.type === 'stop') {
    requestStop(sab);
    grant();
  }
});

process.once('message', async ({ type, target, cfg, argv, logPath, outputs }) => {
  if (type !== 'start') return;
  const { outcome, wroteLog } = await runPass({
    target,
    cfg,
    argv,
    logPath,
    outputs,
    pass: 'timed',
    interrupt: null,
    hooks: {
      onRing(ring) {
        sab = ring;
        control = new Int32Array(ring, 0, CTL_WORDS);
      },
      onAbortable() {}, // the parent ends a hung block by ending this process
      onMessage: (m) => process.send(m),
    },
  });
  reported = true;
  process.send({ type: 'pass', outcome, wroteLog }, () => process.disconnect());
});
