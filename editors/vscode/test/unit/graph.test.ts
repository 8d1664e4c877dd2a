// Graph answers merged as the user expands nodes (src/graph/state.ts), their
// layout by dagre (src/graph/layout.ts) and the check of the answer's shape
// (src/graph/protocol.ts), on answers shaped as docs/lsp.md proposes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layoutGraph, nodeWidth, DEFAULT_LAYOUT } from '../../src/graph/layout';
import { checkGraphResult } from '../../src/graph/protocol';
import { edgeKey, emptyState, mergeAnswer } from '../../src/graph/state';
import { expandApply, first, invocation, loc, pointerFlow } from '../fakes';

test('an answer of the proposed shape passes the check; broken ones say why', () => {
  assert.deepEqual(checkGraphResult(first), first);
  assert.deepEqual(checkGraphResult({ ...first, roots: undefined }), { ...first, roots: [] });
  assert.equal(checkGraphResult(null), 'the answer is not an object');
  assert.equal(checkGraphResult({ ...first, kind: 'flow' }), 'unknown graph kind "flow"');
  assert.equal(checkGraphResult({ ...first, edges: undefined }), 'the answer has no nodes or edges array');
  assert.equal(checkGraphResult({ ...first, nodes: [{ id: 'main' }] }), 'a node lacks its id or label');
  assert.equal(
    checkGraphResult({ ...first, edges: [{ from: 'main', to: 'ghost', kind: 'direct' }] }),
    'the edge main -> ghost names a node the answer does not hold',
  );
});

test('expanding merges nodes and edges once each and clears the expanded node\'s mark', () => {
  const s1 = mergeAnswer(emptyState('call'), first);
  assert.deepEqual(s1.roots, ['main']);
  assert.deepEqual(
    s1.nodes.map((n) => [n.id, n.more]),
    [
      ['main', false],
      ['apply', true],
    ],
  );
  const s2 = mergeAnswer(s1, expandApply, 'apply');
  assert.deepEqual(s2.roots, ['main'], 'the first root stays the root');
  assert.deepEqual(
    s2.nodes.map((n) => [n.id, n.more]),
    [
      ['main', true],
      ['apply', false],
      ['inc', false],
      ['dec', false],
    ],
  );
  assert.deepEqual(s2.nodes[0].flags, ['entry'], 'fields of the first answer are kept');
  assert.equal(s2.edges.length, 3, 'the edge main -> apply is not doubled');
  assert.deepEqual(s2.expanded, ['apply']);
  assert.equal(s2.partial, false);
  // A node expanded once stays expanded, even if a later answer marks it.
  const s3 = mergeAnswer(s2, { ...first, partial: true });
  assert.equal(s3.nodes.find((n) => n.id === 'apply')?.more, false);
  assert.equal(s3.partial, true, 'one partial answer makes the graph partial');
});

test('edges differ by kind and call site', () => {
  const a = { from: 'f', to: 'g', kind: 'direct', location: loc(1) };
  assert.notEqual(edgeKey(a), edgeKey({ ...a, location: loc(2) }));
  assert.notEqual(edgeKey(a), edgeKey({ ...a, kind: 'indirect' }));
  assert.equal(edgeKey(a), edgeKey({ ...a }));
});

test('the layout places every node apart, callers above callees, and routes every edge', () => {
  const s = mergeAnswer(mergeAnswer(emptyState('call'), first), expandApply, 'apply');
  const l = layoutGraph(s);
  const at = new Map(l.nodes.map((n) => [n.id, n]));
  assert.deepEqual([...at.keys()], ['main', 'apply', 'inc', 'dec']);
  assert.ok(at.get('main')!.y < at.get('apply')!.y);
  assert.ok(at.get('apply')!.y < at.get('inc')!.y);
  assert.equal(at.get('inc')!.y, at.get('dec')!.y, 'the two possible callees share a rank');
  // No two boxes overlap.
  const boxes = l.nodes;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      const apart = Math.abs(a.x - b.x) >= (a.width + b.width) / 2 || Math.abs(a.y - b.y) >= (a.height + b.height) / 2;
      assert.ok(apart, `${a.id} and ${b.id} overlap`);
    }
  }
  for (const n of l.nodes) {
    assert.ok(n.x - n.width / 2 >= 0 && n.x + n.width / 2 <= l.width, `${n.id} inside the width`);
    assert.ok(n.y - n.height / 2 >= 0 && n.y + n.height / 2 <= l.height, `${n.id} inside the height`);
  }
  assert.deepEqual(
    l.edges.map((e) => [e.from, e.to, e.kind, e.resolved]),
    [
      ['main', 'apply', 'direct', false],
      ['apply', 'inc', 'indirect', true],
      ['apply', 'dec', 'indirect', true],
    ],
  );
  for (const e of l.edges) {
    assert.ok(e.points.length >= 2, 'an edge has a start and an end');
    const from = at.get(e.from)!;
    const to = at.get(e.to)!;
    assert.ok(e.points[0].y >= from.y && e.points[e.points.length - 1].y <= to.y, 'edges run downwards');
  }
  assert.deepEqual(
    l.nodes.map((n) => [n.id, n.root, n.more, n.flags]),
    [
      ['main', true, true, ['entry']],
      ['apply', false, false, []],
      ['inc', false, false, []],
      ['dec', false, false, []],
    ],
  );
});

test('nodes are wide enough for their label and badge; unknown endpoints are dropped', () => {
  assert.equal(nodeWidth('main', false, DEFAULT_LAYOUT), Math.ceil(4 * DEFAULT_LAYOUT.charWidth) + 24);
  assert.equal(nodeWidth('main', true, DEFAULT_LAYOUT), nodeWidth('main', false, DEFAULT_LAYOUT) + DEFAULT_LAYOUT.badgeWidth);
  const l = layoutGraph({
    roots: [],
    nodes: [{ id: 'a', label: 'a', kind: 'function' }],
    edges: [
      { from: 'a', to: 'b', kind: 'direct' },
      { from: 'a', to: 'a', kind: 'recursion' },
    ],
  });
  assert.deepEqual(
    l.edges.map((e) => [e.from, e.to]),
    [['a', 'a']],
  );
  assert.ok(l.edges[0].points.length >= 2, 'a self edge (recursion) is routed too');
});

test('a pointer flow graph (Java) lays out objects and variables alike', () => {
  const pfg = pointerFlow;
  assert.ok(typeof checkGraphResult(pfg) !== 'string');
  const l = layoutGraph(mergeAnswer(emptyState('pointerFlow'), pfg));
  const y = (id: string) => l.nodes.find((n) => n.id === id)!.y;
  assert.ok(y('o:12') < y('v:Main.main/a') && y('v:Main.main/a') < y('v:Main.main/b') && y('v:Main.main/b') < y('f:A.next'));
  assert.equal(l.edges.filter((e) => e.resolved).length, 0);
});

test('an invocation graph with a recursive cycle lays out, the recursion edge included', () => {
  assert.ok(typeof checkGraphResult(invocation) !== 'string');
  const l = layoutGraph(mergeAnswer(emptyState('invocation'), invocation));
  assert.deepEqual(
    l.edges.map((e) => [e.from, e.to, e.kind, e.resolved]),
    [
      ['main#0', 'walk#1', 'direct', false],
      ['walk#1', 'walk#2', 'indirect', true],
      ['walk#2', 'walk#1', 'recursion', false],
      ['walk#1', 'visit#3', 'indirect', true],
    ],
  );
  for (const e of l.edges) {
    assert.ok(e.points.length >= 2, `${e.from} -> ${e.to} is routed`);
  }
  const n = (id: string) => l.nodes.find((x) => x.id === id)!;
  assert.deepEqual(n('walk#1').flags, ['recursive']);
  assert.deepEqual(n('walk#2').flags, ['approximate']);
  assert.ok(n('main#0').y < n('walk#1').y && n('walk#1').y < n('walk#2').y, 'the back edge does not turn the ranks over');
});
