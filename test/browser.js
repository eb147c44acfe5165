// Headless Chromium driven over the DevTools protocol on a pipe (fd 3 and 4,
// messages ending in NUL): load a page at a given size and colour scheme,
// measure it with a script of our own (the page itself runs none), take a
// screenshot and print it to PDF. Every wait is bounded.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = '/usr/bin/chromium';
const STEP_MS = 60_000;

/** Starts Chromium; resolves { send, close } where send(method, params, sessionId) resolves the result. */
export async function launch() {
  const profile = await mkdtemp(join(tmpdir(), 'wasm-soak-chromium-'));
  const child = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--hide-scrollbars',
      '--font-render-hinting=none',
      // One locale wherever the tests run: pages that format numbers (DHAT's viewer: 3,000) read the same.
      '--lang=en-US',
      `--user-data-dir=${profile}`,
      '--remote-debugging-pipe',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c) => {
    stderr += c;
  });
  const pending = new Map(),
    listeners = new Set();
  let nextId = 1,
    buffered = '';
  child.stdio[4].setEncoding('utf8').on('data', (chunk) => {
    buffered += chunk;
    let end = buffered.indexOf('\0');
    while (end >= 0) {
      const msg = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      end = buffered.indexOf('\0');
      if (msg.id && pending.has(msg.id)) {
        const { resolve, reject, timer } = pending.get(msg.id);
        pending.delete(msg.id);
        clearTimeout(timer);
        if (msg.error) reject(new Error(`${msg.error.message} (${JSON.stringify(msg.error.data ?? '')})`));
        else resolve(msg.result);
      } else for (const l of listeners) l(msg);
    }
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.on('exit', () => {
    for (const { reject, timer } of pending.values()) {
      clearTimeout(timer);
      reject(new Error(`chromium exited: ${stderr.trim().split('\n').slice(-3).join(' / ')}`));
    }
    pending.clear();
  });
  const send = (method, params = {}, sessionId) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${method}: no answer within ${STEP_MS} ms`));
      }, STEP_MS);
      pending.set(id, { resolve, reject, timer });
      child.stdio[3].write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  // Resolves the first event named method of the session, bounded.
  const once = (method, sessionId) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        listeners.delete(l);
        reject(new Error(`${method}: not seen within ${STEP_MS} ms`));
      }, STEP_MS);
      const l = (msg) => {
        if (msg.method === method && msg.sessionId === sessionId) {
          clearTimeout(timer);
          listeners.delete(l);
          resolve(msg.params);
        }
      };
      listeners.add(l);
    });
  const close = async () => {
    try {
      await send('Browser.close');
    } catch {
      child.kill('SIGKILL');
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    await rm(profile, { recursive: true, force: true });
  };
  const on = (fn) => listeners.add(fn);
  return { send, once, on, close, stderr: () => stderr };
}

/**
 * Opens url in a new tab of browser at width × height (CSS px), with the
 * colour scheme ('light', 'dark') and media ('screen', 'print') forced.
 * Resolves { evaluate(fn source), screenshot() → PNG Buffer, pdf() → PDF
 * Buffer, console: messages logged or thrown, send(method, params): a
 * DevTools command in the page's session }.
 */
export async function openPage(browser, url, { width, height, scheme = 'light', media = 'screen' }) {
  const { send, once } = browser;
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const console = [];
  browser.on((msg) => {
    if (msg.sessionId !== sessionId) return;
    if (msg.method === 'Runtime.consoleAPICalled') console.push(msg.params.args.map((a) => a.value).join(' '));
    if (msg.method === 'Runtime.exceptionThrown') console.push(msg.params.exceptionDetails.text);
    if (msg.method === 'Log.entryAdded') console.push(msg.params.entry.text);
  });
  await send('Page.enable', {}, sessionId);
  await send('Runtime.enable', {}, sessionId);
  await send('Log.enable', {}, sessionId);
  await send(
    'Emulation.setDeviceMetricsOverride',
    { width, height, deviceScaleFactor: 1, mobile: width < 500 },
    sessionId,
  );
  await send(
    'Emulation.setEmulatedMedia',
    { media, features: [{ name: 'prefers-color-scheme', value: scheme }] },
    sessionId,
  );
  const loaded = once('Page.loadEventFired', sessionId);
  await send('Page.navigate', { url }, sessionId);
  await loaded;
  return {
    console,
    async evaluate(source) {
      const r = await send('Runtime.evaluate', { expression: `(${source})()`, returnByValue: true }, sessionId);
      if (r.exceptionDetails) throw new Error(`page script failed: ${r.exceptionDetails.text}`);
      return r.result.value;
    },
    async screenshot() {
      const r = await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: false }, sessionId);
      return Buffer.from(r.data, 'base64');
    },
    async fullScreenshot() {
      const r = await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true }, sessionId);
      return Buffer.from(r.data, 'base64');
    },
    async pdf() {
      const r = await send('Page.printToPDF', { printBackground: true, preferCSSPageSize: false }, sessionId);
      return Buffer.from(r.data, 'base64');
    },
    send: (method, params) => send(method, params, sessionId),
    close: () => send('Target.closeTarget', { targetId }),
  };
}
