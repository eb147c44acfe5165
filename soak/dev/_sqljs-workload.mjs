// Shared by sqljs.mjs and sqljs-leak.mjs (not a scenario itself): a small
// key-value style workload on sql.js (SQLite compiled with Emscripten) with
// weighted insert / select / update / delete ops. Row ids are drawn from a
// fixed range, so the table never holds more than ROWS rows, and setup fills
// all of them first, so SQLite's page cache has its working set before the
// first timed call: a correct run is clean from the start. With leakStatements the select op never frees its prepared
// statement, as application code that forgets stmt.free() does.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ROWS = 1000;

/**
 * Returns the scenario object; options: { name, leakStatements, debug }.
 * debug loads sql.js's debug build, which keeps function names (so the
 * counting pass finds its malloc and free) and exports sbrk and the
 * emscripten_stack_* helpers.
 */
export function sqljsScenario({ name, leakStatements, debug = false }) {
  const insertRow = (stmt, id, ctx) => {
    const size = Math.min(4096, Math.round(ctx.lognormal(5, 1)));
    stmt.run([id, ctx.string(ctx.int(4, 40)), ctx.random() * 100, ctx.bytes(size)]);
  };
  return {
    name,
    async setup(ctx) {
      const initSqlJs = require(debug ? 'sql.js/dist/sql-wasm-debug.js' : 'sql.js');
      const wasmPath = require.resolve(debug ? 'sql.js/dist/sql-wasm-debug.wasm' : 'sql.js/dist/sql-wasm.wasm');
      const SQL = await initSqlJs({ locateFile: () => wasmPath });
      const db = new SQL.Database();
      db.run(`CREATE TABLE items (
        id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL, payload BLOB)`);
      db.run('CREATE INDEX items_score ON items (score)');
      // Kept for the whole run and freed in teardown: a long-lived statement.
      const insert = db.prepare('INSERT OR REPLACE INTO items (id, name, score, payload) VALUES (?, ?, ?, ?)');
      for (let id = 0; id < ROWS; id++) insertRow(insert, id, ctx);
      return { db, insert, rowsSeen: 0 };
    },
    ops: {
      insert: {
        weight: 4,
        run(state, ctx) {
          insertRow(state.insert, ctx.int(0, ROWS - 1), ctx);
        },
      },
      select: {
        weight: 4,
        run(state, ctx) {
          const lo = ctx.int(0, ROWS - 1);
          const stmt = state.db.prepare(`SELECT id, name, length(payload) AS n FROM items
            WHERE id BETWEEN ? AND ? ORDER BY score DESC LIMIT 20`);
          stmt.bind([lo, lo + ctx.int(0, 50)]);
          while (stmt.step()) {
            state.rowsSeen += stmt.getAsObject().n > 0 ? 1 : 0;
          }
          if (!leakStatements) stmt.free();
        },
      },
      update: {
        weight: 2,
        run(state, ctx) {
          state.db.run('UPDATE items SET score = ?, name = ? WHERE id = ?', [
            ctx.random() * 100,
            ctx.string(ctx.int(4, 40)),
            ctx.int(0, ROWS - 1),
          ]);
        },
      },
      delete: {
        weight: 1,
        run(state, ctx) {
          state.db.run('DELETE FROM items WHERE id = ?', [ctx.int(0, ROWS - 1)]);
        },
      },
    },
    teardown(state) {
      state.insert.free();
      state.db.close();
    },
  };
}
