// Exit codes (documented in README.md) and the error type that carries one.
// The codes are C's (ws_protocol.h WS_EXIT_CODES, which the judge returns);
// this copy lets help, usage errors and the missing-addon error exit without
// the addon, and test/unit/analysis/judge.test.js checks it against the addon's export.

export const EXIT = Object.freeze({
  OK: 0,
  FINDING: 1,
  USAGE: 2,
  FAILED: 3,
  INTERRUPTED: 130,
});

/**
 * An error meant for the user: `message` names the problem, `fix` says what
 * to do, `exitCode` is one of EXIT. `code` is a stable WS_* name for tests.
 */
export class SoakError extends Error {
  constructor(code, message, { fix = '', exitCode = EXIT.USAGE, cause } = {}) {
    super(message, cause ? { cause } : undefined);
    this.code = code;
    this.fix = fix;
    this.exitCode = exitCode;
  }

  /** One paragraph: the problem, then the fix. */
  paragraph() {
    return this.fix ? `${this.message}\n${this.fix}` : this.message;
  }
}

export const usageError = (code, message, fix) => new SoakError(code, message, { fix, exitCode: EXIT.USAGE });
