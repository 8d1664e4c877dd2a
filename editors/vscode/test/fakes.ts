// Answers of `pointee/graph` in the shape docs/lsp.md proposes, standing in
// for the server in the unit tests (graph.test.ts) and in the browser test of
// the webview (tests/vscode/e2e.test.mjs, through out/test/webview-kit.js).
import { GraphResult } from '../src/graph/protocol';

export const loc = (line: number) => ({
  uri: 'file:///w/main.c',
  range: { start: { line, character: 4 }, end: { line, character: 9 } },
});

/** main calls apply directly, apply calls inc or dec through a pointer. */
export const first: GraphResult = {
  kind: 'call',
  roots: ['main'],
  nodes: [
    { id: 'main', label: 'main', kind: 'function', location: loc(20), flags: ['entry'] },
    { id: 'apply', label: 'apply', kind: 'function', location: loc(10), more: true },
  ],
  edges: [{ from: 'main', to: 'apply', kind: 'direct', location: loc(22) }],
};
export const expandApply: GraphResult = {
  kind: 'call',
  roots: ['apply'],
  nodes: [
    { id: 'apply', label: 'apply', kind: 'function', location: loc(10) },
    { id: 'main', label: 'main', kind: 'function', location: loc(20), more: true },
    { id: 'inc', label: 'inc', kind: 'function', location: loc(2) },
    { id: 'dec', label: 'dec', kind: 'function', location: loc(5) },
  ],
  edges: [
    { from: 'main', to: 'apply', kind: 'direct', location: loc(22) },
    { from: 'apply', to: 'inc', kind: 'indirect', location: loc(11) },
    { from: 'apply', to: 'dec', kind: 'indirect', location: loc(11) },
  ],
};

/** A Java pointer flow graph: an object flows into a, then b, then a field. */
export const pointerFlow: GraphResult = {
  kind: 'pointerFlow',
  roots: ['v:Main.main/a'],
  nodes: [
    { id: 'o:12', label: 'new A at 12', kind: 'object' },
    { id: 'v:Main.main/a', label: 'a', kind: 'variable' },
    { id: 'v:Main.main/b', label: 'b', kind: 'variable' },
    { id: 'f:A.next', label: 'A.next', kind: 'field' },
  ],
  edges: [
    { from: 'o:12', to: 'v:Main.main/a', kind: 'new' },
    { from: 'v:Main.main/a', to: 'v:Main.main/b', kind: 'assign' },
    { from: 'v:Main.main/b', to: 'f:A.next', kind: 'store' },
  ],
};

/** A C invocation graph with a recursive cycle: walk calls itself through a pointer. */
export const invocation: GraphResult = {
  kind: 'invocation',
  roots: ['main#0'],
  nodes: [
    { id: 'main#0', label: 'main', kind: 'context', flags: ['entry'] },
    { id: 'walk#1', label: 'walk [main@7]', kind: 'context', flags: ['recursive'] },
    { id: 'walk#2', label: 'walk [main@7 > walk@3]', kind: 'context', flags: ['approximate'] },
    { id: 'visit#3', label: 'visit [main@7 > walk@4]', kind: 'context' },
  ],
  edges: [
    { from: 'main#0', to: 'walk#1', kind: 'direct' },
    { from: 'walk#1', to: 'walk#2', kind: 'indirect' },
    { from: 'walk#2', to: 'walk#1', kind: 'recursion' },
    { from: 'walk#1', to: 'visit#3', kind: 'indirect' },
  ],
};
