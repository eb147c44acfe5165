// node:wasi prints an ExperimentalWarning when it is first used; it would
// only clutter the progress output. The worker replaces Node's default
// warning printer with one that drops that warning and prints the rest.
const printers = process.listeners('warning');
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'ExperimentalWarning' && /WASI/.test(warning.message)) return;
  for (const print of printers) print(warning);
});
