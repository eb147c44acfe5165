// Allocation sites' frames (the counting pass with --sites): binaryen gives
// the module a shadow stack of the innermost SITE_FRAMES function indices,
// four to a v128 global (ws$frames0 holds frames 0 (the innermost) to 3 in
// its lanes 0 to 3, ws$frames1 frames 4 to 7, …), kept only by the
// functions that can reach the allocator. Such a function keeps its index
// and name; its body moves to a new function that it calls between a push
// (save the globals in locals, shift every frame one lane up, a shuffle per
// global, and put its own original index in lane 0) and a pop (restore
// them), so a return, a tail call or a branch out of the body all pop. A
// vector global a shuffle shifts costs a few instructions where one i32
// global per frame cost three per frame at every call (measured in
// bench/sites.js). An allocator entry point reads the
// globals as they are: its caller first. A function that cannot reach the
// allocator (by the call graph: direct calls, calls through a table to any
// function the table holds, calls to imports when a function that reaches
// is exported or in a table, since the host may call back) pays nothing. A
// trap or exception that unwinds through a pushed frame skips its pop: the
// frames stay stale until the next call of an instrumented function. The
// module's functions keep their indices as the frames name them: the
// original index of each function, counted before any rewrite.
import { SITE_FRAMES, SITE_NO_FRAME } from '../../protocol.js';

// Frames per v128 global: four i32 lanes.
const LANES = 4;
if (SITE_FRAMES % LANES !== 0) throw new Error(`SITE_FRAMES (${SITE_FRAMES}) must be a multiple of ${LANES}`);
const VECTORS = SITE_FRAMES / LANES;

/** The v128 global holding frames LANES·g to LANES·g + 3. */
const frameVector = (g) => `ws$frames${g}`;

// i8x16.shuffle's bytes of [a's lane 3, b's lanes 0, 1, 2]: b's frames one
// lane up, the frame below them (a's last lane) in lane 0.
const SHIFT_IN = [12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27];

/** The SITE_FRAMES frames of module m (binaryen b) as i32 expressions, the innermost first. */
export function frameValues(b, m) {
  return Array.from({ length: SITE_FRAMES }, (_, i) =>
    m.i32x4.extract_lane(m.global.get(frameVector(Math.floor(i / LANES)), b.v128), i % LANES),
  );
}

/**
 * Per expression id, the fields that hold child expressions; ids without
 * children are in leafIds. An expression of any other id makes its
 * function count as one that may call anything.
 */
function childFields(b) {
  return new Map([
    [b.BlockId, ['children']],
    [b.IfId, ['condition', 'ifTrue', 'ifFalse']],
    [b.LoopId, ['body']],
    [b.BreakId, ['condition', 'value']],
    [b.SwitchId, ['condition', 'value']],
    [b.CallId, ['operands']],
    [b.CallIndirectId, ['target', 'operands']],
    [b.LocalSetId, ['value']],
    [b.GlobalSetId, ['value']],
    [b.LoadId, ['ptr']],
    [b.StoreId, ['ptr', 'value']],
    [b.UnaryId, ['value']],
    [b.BinaryId, ['left', 'right']],
    [b.SelectId, ['ifTrue', 'ifFalse', 'condition']],
    [b.DropId, ['value']],
    [b.ReturnId, ['value']],
    [b.MemoryGrowId, ['delta']],
    [b.MemoryFillId, ['dest', 'value', 'size']],
    [b.MemoryCopyId, ['dest', 'source', 'size']],
    [b.MemoryInitId, ['dest', 'offset', 'size']],
    [b.AtomicRMWId, ['ptr', 'value']],
    [b.AtomicCmpxchgId, ['ptr', 'expected', 'replacement']],
    [b.AtomicWaitId, ['ptr', 'expected', 'timeout']],
    [b.AtomicNotifyId, ['ptr', 'notifyCount']],
    [b.SIMDExtractId, ['vec']],
    [b.SIMDReplaceId, ['vec', 'value']],
    [b.SIMDShuffleId, ['left', 'right']],
    [b.SIMDTernaryId, ['a', 'b', 'c']],
    [b.SIMDShiftId, ['vec', 'shift']],
    [b.SIMDLoadId, ['ptr']],
    [b.SIMDLoadStoreLaneId, ['ptr', 'vec']],
    [b.TableGetId, ['index']],
    [b.TableSetId, ['index', 'value']],
    [b.TableGrowId, ['value', 'delta']],
    [b.RefIsNullId, ['value']],
    [b.RefEqId, ['left', 'right']],
    [b.TryId, ['body', 'catchBodies']],
    [b.ThrowId, ['operands']],
    [b.TupleMakeId, ['operands']],
    [b.TupleExtractId, ['tuple']],
  ]);
}

const leafIds = (b) =>
  new Set([
    b.NopId,
    b.UnreachableId,
    b.ConstId,
    b.LocalGetId,
    b.GlobalGetId,
    b.MemorySizeId,
    b.AtomicFenceId,
    b.DataDropId,
    b.RefNullId,
    b.RefFuncId,
    b.TableSizeId,
    b.RethrowId,
    b.PopId,
  ]);

/**
 * Visits every expression of body (binaryen b) that the walk knows,
 * visit(id, info) for those with children (calls, copies, …); returns
 * whether it met an expression it does not know (unknown).
 */
export function walkExpressions(b, body, visit, fields = childFields(b), leaves = leafIds(b)) {
  let unknown = false;
  const stack = [body];
  while (stack.length > 0) {
    const e = stack.pop();
    if (!e) continue;
    const id = b.getExpressionId(e);
    if (leaves.has(id)) continue;
    const names = fields.get(id);
    if (!names) {
      unknown = true;
      continue;
    }
    const info = b.getExpressionInfo(e);
    visit(id, info);
    for (const f of names) {
      const v = info[f];
      if (Array.isArray(v)) stack.push(...v);
      else if (typeof v === 'number') stack.push(v);
    }
  }
  return unknown;
}

/**
 * What function body calls: { direct: Set of names, indirect (a
 * call_indirect), unknown (an expression the walk does not know) }.
 */
function callsOf(b, body, fields, leaves) {
  const out = { direct: new Set(), indirect: false, unknown: false };
  out.unknown = walkExpressions(
    b,
    body,
    (id, info) => {
      if (id === b.CallId) out.direct.add(info.target);
      else if (id === b.CallIndirectId) out.indirect = true;
    },
    fields,
    leaves,
  );
  return out;
}

/**
 * The names of m's defined functions that can reach one of targets (names)
 * through calls, targets included (see the file's comment for the call
 * graph). imports: names of imported functions.
 */
function reaching(b, m, targets, imports) {
  const fields = childFields(b);
  const leaves = leafIds(b);
  const callers = new Map(); // callee -> [caller]
  const indirectCallers = [];
  const importCallers = [];
  const unknown = [];
  for (let i = 0; i < m.getNumFunctions(); i++) {
    const info = b.getFunctionInfo(m.getFunctionByIndex(i));
    if (info.module !== '') continue;
    const calls = callsOf(b, info.body, fields, leaves);
    for (const callee of calls.direct) {
      if (!callers.has(callee)) callers.set(callee, []);
      callers.get(callee).push(info.name);
      if (imports.has(callee)) importCallers.push(info.name);
    }
    if (calls.indirect) indirectCallers.push(info.name);
    if (calls.unknown) unknown.push(info.name);
  }
  const inTable = new Set();
  for (let i = 0; i < m.getNumElementSegments(); i++) {
    for (const name of b.getElementSegmentInfo(m.getElementSegmentByIndex(i)).data) inTable.add(name);
  }
  const exported = new Set();
  for (let i = 0; i < m.getNumExports(); i++) {
    const e = b.getExportInfo(m.getExportByIndex(i));
    if (e.kind === b.ExternalFunction) exported.add(e.value);
  }
  const reached = new Set();
  const queue = [];
  const reach = (name) => {
    if (reached.has(name) || imports.has(name)) return;
    reached.add(name);
    queue.push(name);
  };
  for (const t of targets) reach(t);
  for (const u of unknown) reach(u);
  let throughTable = false;
  let throughHost = false;
  while (queue.length > 0) {
    const name = queue.shift();
    for (const caller of callers.get(name) ?? []) reach(caller);
    if (!throughTable && inTable.has(name)) {
      throughTable = true;
      for (const caller of indirectCallers) reach(caller);
    }
    if (!throughHost && (inTable.has(name) || exported.has(name))) {
      throughHost = true;
      for (const caller of importCallers) reach(caller);
    }
  }
  return reached;
}

/**
 * Adds the frame globals to m (binaryen module b) and the push and pop to
 * every defined function that can reach targets (the allocator's wrapped
 * entry points), except those named in skip (the entry points and the
 * forwarders in front of them: the allocator is no frame of its own).
 * indexOf maps a function name to its original index. Returns the number
 * of functions instrumented.
 */
export function addFrames(b, m, { targets, skip, indexOf }) {
  const imports = new Set();
  for (let i = 0; i < m.getNumFunctions(); i++) {
    const info = b.getFunctionInfo(m.getFunctionByIndex(i));
    if (info.module !== '') imports.add(info.name);
  }
  const none = new Uint8Array(new Int32Array(LANES).fill(SITE_NO_FRAME).buffer);
  for (let g = 0; g < VECTORS; g++) m.addGlobal(frameVector(g), b.v128, true, m.v128.const([...none]));
  const v128 = b.v128;
  let count = 0;
  for (const name of reaching(b, m, targets, imports)) {
    if (skip.has(name) || !indexOf.has(name)) continue;
    const info = b.getFunctionInfo(m.getFunction(name));
    if (b.expandType(info.results).length > 1) continue; // multi-value: left as it is
    const params = b.expandType(info.params);
    const inner = `${name}$ws_frames`;
    m.addFunction(inner, info.params, info.results, info.vars, info.body);
    m.removeFunction(name);
    const saved = (g) => params.length + g;
    const hasResult = info.results !== b.none;
    const result = params.length + VECTORS;
    const body = [];
    for (let g = 0; g < VECTORS; g++) body.push(m.local.set(saved(g), m.global.get(frameVector(g), v128)));
    // Each vector's frames one lane up, the lane below them in lane 0: this function's index in the first.
    for (let g = 0; g < VECTORS; g++) {
      const below = g === 0 ? m.i32x4.splat(m.i32.const(indexOf.get(name))) : m.local.get(saved(g - 1), v128);
      body.push(m.global.set(frameVector(g), m.i8x16.shuffle(below, m.local.get(saved(g), v128), SHIFT_IN)));
    }
    const call = m.call(
      inner,
      params.map((t, i) => m.local.get(i, t)),
      info.results,
    );
    body.push(hasResult ? m.local.set(result, call) : call);
    for (let g = 0; g < VECTORS; g++) body.push(m.global.set(frameVector(g), m.local.get(saved(g), v128)));
    if (hasResult) body.push(m.local.get(result, info.results));
    const vars = [...Array(VECTORS).fill(v128), ...(hasResult ? [info.results] : [])];
    m.addFunction(name, info.params, info.results, vars, m.block(null, body, info.results));
    count++;
  }
  return count;
}
