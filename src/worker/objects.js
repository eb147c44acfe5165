// The glue's objects by class (docs/allocator.md, "Objects the JS side
// owns"): wasm-bindgen, embind and emnapi tie a block of linear memory to a
// JS object and free it from a FinalizationRegistry callback when the
// garbage collector gets round to it; an application that forgets free()
// leaves its memory to the collector. This counts, per class: objects
// created (registered with a registry, or made by embind), freed by the
// application (unregistered, or a free method called), reclaimed by the
// garbage collector (the glue's finalizer ran), and collected without any
// free (a glue with no registry: embind's raw pointers; their memory is
// never returned). Installed before the target loads; invisible to glue
// code: the registry it creates is a FinalizationRegistry that behaves as
// one, held values and tokens reach the glue unchanged.

import { callerFile, isRuntime } from './caller.js';

// Method names by which glue code frees an object's block.
const FREE_METHODS = ['free', 'delete', 'destroy', '__destroy__', 'dispose'];
// Distinct classes counted; past this, objects of new classes go to one row.
const MAX_CLASSES = 64;
const OTHER = '(other classes)';

// The engine's own, as it was before installObjectTracker replaced it.
export const NativeFinalizationRegistry = globalThis.FinalizationRegistry;

/**
 * The name of the class obj was made by: the name of the first constructor
 * on its prototype chain, read from data properties only (no getter runs).
 */
function classOf(obj) {
  if (typeof obj === 'function') return 'Function';
  return constructorName(Object.getPrototypeOf(obj)) ?? '(anonymous)';
}

/** The name of the first named constructor on the chain from proto, or null. */
function constructorName(proto) {
  for (let depth = 0; proto !== null && depth < 8; depth++) {
    const d = Object.getOwnPropertyDescriptor(proto, 'constructor');
    if (d && 'value' in d && typeof d.value === 'function' && d.value.name) return d.value.name;
    if (d && 'value' in d) break; // a class of its own, without a name: not its base's
    proto = Object.getPrototypeOf(proto);
  }
  return null;
}

/**
 * The class name embind keeps for an object made with props (its $$
 * record: the pointer type's registered class), for a class whose
 * constructor has no name (minified glue); null when none is found.
 * Reads data properties only.
 */
function embindClassName(props) {
  const record = Object.values(props)[0]?.value;
  if (!record || typeof record !== 'object') return null;
  for (const ptrType of Object.values(record)) {
    if (!ptrType || typeof ptrType !== 'object') continue;
    for (const cls of Object.values(ptrType)) {
      const d = cls && typeof cls === 'object' ? Object.getOwnPropertyDescriptor(cls, 'name') : undefined;
      if (d && typeof d.value === 'string' && /^[A-Za-z_$][\w$]*$/.test(d.value)) return d.value;
    }
  }
  return null;
}

/** Whether F is a class of Emscripten's WebIDL glue: its objects cached by pointer (F.__cache__), freed by __destroy__. */
function isWebIdlClass(F) {
  const cache = Object.getOwnPropertyDescriptor(F, '__cache__');
  const proto = Object.getOwnPropertyDescriptor(F, 'prototype')?.value;
  const destroy = proto && Object.getOwnPropertyDescriptor(proto, '__destroy__');
  return Boolean(cache?.value && typeof cache.value === 'object' && typeof destroy?.value === 'function');
}

// A scenario's state walked for WebIDL classes: this deep, this many properties at most.
const WEBIDL_DEPTH = 3;
const WEBIDL_PROPERTIES = 20_000;

/** Whether proto is an embind class's prototype (ClassHandle's public methods on its chain). */
function isEmbindPrototype(proto) {
  try {
    return typeof proto.isAliasOf === 'function' && typeof proto.isDeleted === 'function' && 'clone' in proto;
  } catch {
    return false;
  }
}

/**
 * Installs the tracker; control: the ring's control words (CTL.call says
 * which op is running: 1 + its index, 0 between calls). Returns
 * { snapshot(iteration), counts(), result(opNames), settled() }.
 * Long: the replaced FinalizationRegistry and Object.create, and embind's
 * and WebIDL's watchers, share the counts by class and are installed
 * together, so that none is missed.
 */
export function installObjectTracker({ control, callWord }) {
  const Native = NativeFinalizationRegistry;
  const classes = new Map(); // name -> row
  const wrappedFree = new WeakSet(); // prototypes whose free methods count
  const snapshots = [];
  let cleanups = 0; // the glue's finalizer callbacks run so far

  function row(name) {
    let r = classes.get(name);
    if (r) return r;
    if (classes.size >= MAX_CLASSES) return row(OTHER);
    r = { name, created: 0, freed: 0, reclaimed: 0, collected: 0, registry: false, freeable: false, byOp: [] };
    classes.set(name, r);
    return r;
  }

  // Objects made per op: byOp[1 + op], byOp[0] between calls (an array: no Map in the calls' path).
  function created(r) {
    r.created++;
    const at = control[callWord];
    r.byOp[at] = (r.byOp[at] ?? 0) + 1;
  }

  // The last prototype seen and its class's row: glue makes one class at a
  // time, and no per-object map is kept (a WeakMap costs a microsecond an
  // object, in the calls' path).
  let lastProto = null;
  let lastRow = null;
  function rowOfObject(obj) {
    const proto = typeof obj === 'function' ? null : Object.getPrototypeOf(obj);
    if (proto !== lastProto || lastRow === null) {
      lastProto = proto;
      lastRow = (proto !== null && embind.get(proto)) || row(classOf(obj));
    }
    return lastRow;
  }

  const embind = new WeakMap(); // prototype -> its row if it is embind's, else false
  let embindSeen = false;

  // Objects made with no finalizer of their glue's (embind's raw pointers),
  // registered here with themselves as the token: a free unregisters them
  // (counted once), and one the collector takes before any free is counted.
  const lost = new Native((r) => {
    r.collected++;
  });

  /** Wraps the free methods on proto's chain (once per prototype) to count the frees of their objects. */
  function countFrees(proto) {
    for (let p = proto, depth = 0; p !== null && p !== Object.prototype && depth < 8; depth++) {
      if (wrappedFree.has(p)) return;
      wrappedFree.add(p);
      for (const name of FREE_METHODS) {
        const d = Object.getOwnPropertyDescriptor(p, name);
        if (!d || typeof d.value !== 'function' || !d.writable) continue;
        const original = d.value;
        const counted = {
          [name](...args) {
            const result = Reflect.apply(original, this, args);
            if (this !== null && typeof this === 'object' && lost.unregister(this)) rowOfObject(this).freed++;
            return result;
          },
        }[name];
        Object.defineProperty(p, name, { ...d, value: counted });
      }
      p = Object.getPrototypeOf(p);
    }
  }

  // Tokens that are not their target (rare: wasm-bindgen's token is the
  // object itself): the class of what they unregister.
  const tokenRows = new WeakMap();
  let separateTokens = false;

  class CountingRegistry extends Native {
    // Node's own registries (undici's Response objects), and one whose cleanup is no function, as they are.
    #counted = false;

    constructor(cleanup) {
      if (typeof cleanup !== 'function' || isRuntime(callerFile(import.meta.url))) {
        super(cleanup); // the engine's own TypeError for a cleanup that is no function
        return;
      }
      super((held) => {
        cleanups++;
        held.row.reclaimed++;
        return cleanup(held.value);
      });
      this.#counted = true;
    }

    register(target, value, token) {
      if (!this.#counted || target === null || (typeof target !== 'object' && typeof target !== 'function'))
        return super.register(target, value, token); // as is; or the engine's own TypeError
      const r = rowOfObject(target);
      r.registry = true;
      if (token !== undefined) r.freeable = true;
      // An object embind made and now registers (a smart pointer): counted
      // when made; the glue's finalizer will say when it is collected.
      if (!(embindSeen && lost.unregister(target))) created(r);
      super.register(target, { value, row: r }, token);
      if (token !== target && token !== null && (typeof token === 'object' || typeof token === 'function')) {
        tokenRows.set(token, r);
        separateTokens = true;
      }
      return undefined;
    }

    unregister(token) {
      const removed = super.unregister(token);
      if (!this.#counted || !removed) return removed;
      const r = (separateTokens && tokenRows.get(token)) || rowOfObject(token);
      r.freed++;
      return removed;
    }
  }
  Object.defineProperty(CountingRegistry, 'name', { value: 'FinalizationRegistry' });
  Object.defineProperty(globalThis, 'FinalizationRegistry', {
    ...Object.getOwnPropertyDescriptor(globalThis, 'FinalizationRegistry'),
    value: CountingRegistry,
  });

  // embind makes each object as Object.create(its class's prototype, { $$ }):
  // seen here, counted by class, its class's free methods counted too.
  const create = Object.create;
  const tracked = {
    create(proto, props) {
      const obj = create(proto, props);
      // Instances only: a prototype made for a class (props define its constructor) is none.
      if (props === undefined || proto === null || typeof proto !== 'object' || Object.hasOwn(props, 'constructor'))
        return obj;
      let r = embind.get(proto);
      if (r === undefined) {
        const name = isEmbindPrototype(proto) && (constructorName(proto) ?? embindClassName(props) ?? '(anonymous)');
        r = name ? row(name) : false;
        embind.set(proto, r);
        if (r) countFrees(proto);
      }
      if (r) {
        embindSeen = true;
        r.freeable = true;
        created(r);
        lost.register(obj, r, obj);
      }
      return obj;
    },
  }.create;
  Object.defineProperty(Object, 'create', { ...Object.getOwnPropertyDescriptor(Object, 'create'), value: tracked });

  // Emscripten's WebIDL glue has no registry: its objects stay in their
  // class's cache until Module.destroy(). Its classes, found on the
  // scenario's state, are counted through it: made by the class's
  // constructor (a Proxy put in its place, so a call through the module
  // object is seen), freed by __destroy__, held while in the cache.
  const webIdl = new WeakMap(); // class -> its row
  function watchWebIdlClass(holder, key, F) {
    let r = webIdl.get(F);
    if (!r) {
      r = row(F.name || key);
      r.freeable = true;
      r.cache = F.__cache__;
      webIdl.set(F, r);
      const proto = F.prototype;
      const d = Object.getOwnPropertyDescriptor(proto, '__destroy__');
      if (d.writable) {
        const original = d.value;
        const counted = {
          __destroy__(...args) {
            const result = Reflect.apply(original, this, args);
            r.freed++;
            return result;
          },
        }.__destroy__;
        Object.defineProperty(proto, '__destroy__', { ...d, value: counted });
      }
    }
    const made = new Proxy(F, {
      construct(target, args, newTarget) {
        const obj = Reflect.construct(target, args, newTarget === made ? target : newTarget);
        created(r);
        return obj;
      },
    });
    holder[key] = made;
  }

  /** A WebIDL row's counts brought up to date: what its cache holds is held, made at least what was freed and is held. */
  function webIdlCounts(r) {
    if (!r.cache) return;
    const held = Object.keys(r.cache).length;
    if (r.created < r.freed + held) r.created = r.freed + held;
  }

  return {
    /**
     * Finds the WebIDL classes on root (a scenario's state: own data
     * properties, WEBIDL_DEPTH deep) and counts their objects from now on.
     */
    watchWebIdl(root) {
      const seen = new Set();
      let budget = WEBIDL_PROPERTIES;
      const visit = (obj, depth) => {
        if (obj === null || (typeof obj !== 'object' && typeof obj !== 'function') || seen.has(obj)) return;
        seen.add(obj);
        for (const key of Object.keys(obj)) {
          if (--budget < 0) return;
          const d = Object.getOwnPropertyDescriptor(obj, key);
          if (!d || !('value' in d)) continue; // no getter runs
          const v = d.value;
          if (typeof v === 'function' && isWebIdlClass(v)) {
            if (d.writable) watchWebIdlClass(obj, key, v);
          } else if (depth < WEBIDL_DEPTH) visit(v, depth + 1);
        }
      };
      visit(root, 0);
    },
    /** Whether any object of the glue's has been counted (or a WebIDL class found). */
    seen: () => classes.size > 0,
    /** How many of the glue's finalizer callbacks have run so far. */
    cleanups: () => cleanups,
    /** Records every class's counts as of iteration (the calls done). */
    snapshot(iteration) {
      if (classes.size === 0) return;
      for (const r of classes.values()) webIdlCounts(r);
      snapshots.push({
        iteration,
        classes: [...classes.values()].map((r) => [r.name, r.created, r.freed, r.reclaimed, r.collected]),
      });
    },
    /** Every class's counts now: [{ name, registry, freeable, created, freed, reclaimed, collected }]. */
    counts() {
      for (const r of classes.values()) webIdlCounts(r);
      return [...classes.values()].map(({ byOp: _, ...counts }) => counts);
    },
    /**
     * The counts as the summary takes them: { classes: [{ name, registry,
     * freeable, created, freed, reclaimed, collected, held, createdBy: [{ op,
     * count }] }], snapshots }, op names from opNames (null: between calls);
     * null when no object was seen.
     */
    result(opNames) {
      if (classes.size === 0) return null;
      for (const r of classes.values()) webIdlCounts(r);
      return {
        classes: [...classes.values()].map((r) => ({
          name: r.name,
          registry: r.registry,
          freeable: r.freeable,
          created: r.created,
          freed: r.freed,
          reclaimed: r.reclaimed,
          collected: r.collected,
          held: r.created - r.freed - r.reclaimed - r.collected,
          createdBy: r.byOp
            .map((count, at) => ({ op: at > 0 ? (opNames[at - 1] ?? null) : null, count }))
            .filter((x) => x.count > 0)
            .sort((a, b) => b.count - a.count),
        })),
        snapshots,
      };
    },
  };
}
