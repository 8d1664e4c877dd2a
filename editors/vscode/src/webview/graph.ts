// Runs inside the graph webview: lays out what the extension sends (dagre,
// through model.ts) and draws it as SVG. Drag to pan, wheel to zoom; click a
// node to open its source, click its "+" to expand it. Each node and edge
// carries data attributes (data-id, data-from, data-to, data-kind) that the
// end-to-end test compares with the server's answer.

import { Layout, layoutGraph, LayoutNode } from '../graph/layout';
import type { FromWebview, ToWebview } from '../graph/panel';
import type { GraphState } from '../graph/state';

declare function acquireVsCodeApi(): { postMessage(m: FromWebview): void };

const vscode = acquireVsCodeApi();
const SVG = 'http://www.w3.org/2000/svg';
const svg = document.getElementById('graph') as unknown as SVGSVGElement;

let view = { x: 0, y: 0, scale: 1 };
let layout: Layout | undefined;
let viewport: SVGGElement | undefined;

function el<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, parent?: Element): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    e.setAttribute(k, String(v));
  }
  parent?.appendChild(e);
  return e;
}

function applyView(): void {
  viewport?.setAttribute('transform', `translate(${view.x} ${view.y}) scale(${view.scale})`);
}

function fit(): void {
  if (!layout) {
    return;
  }
  const box = svg.getBoundingClientRect();
  const scale = Math.min(1.5, box.width / Math.max(layout.width, 1), box.height / Math.max(layout.height, 1));
  view = {
    scale,
    x: (box.width - layout.width * scale) / 2,
    y: Math.max(0, (box.height - layout.height * scale) / 2),
  };
  applyView();
}

function edgePath(points: { x: number; y: number }[]): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
}

function drawNode(n: LayoutNode, parent: SVGGElement, details: Map<string, string>): void {
  const classes = ['node', `kind-${n.kind}`, ...n.flags.map((f) => `flag-${f}`)];
  if (n.root) {
    classes.push('root');
  }
  const g = el('g', { class: classes.join(' '), 'data-id': n.id, 'data-kind': n.kind, tabindex: 0, role: 'button' }, parent);
  g.setAttribute('transform', `translate(${n.x - n.width / 2} ${n.y - n.height / 2})`);
  const title = el('title', {}, g);
  title.textContent = details.get(n.id) ?? n.label;
  el('rect', { class: 'box', width: n.width, height: n.height, rx: 6 }, g);
  const text = el('text', { class: 'label', x: 12, y: n.height / 2, 'dominant-baseline': 'central' }, g);
  text.textContent = n.label;
  g.addEventListener('click', () => vscode.postMessage({ type: 'open', id: n.id }));
  g.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      vscode.postMessage({ type: 'open', id: n.id });
    } else if (e.key === '+' && n.more) {
      vscode.postMessage({ type: 'expand', id: n.id });
    }
  });
  if (n.more) {
    const b = el('g', { class: 'expand', 'data-expand': n.id, transform: `translate(${n.width - 22} 0)` }, g);
    const t = el('title', {}, b);
    t.textContent = 'Show the neighbours of this node';
    el('rect', { width: 22, height: n.height, rx: 6 }, b);
    const plus = el('text', { x: 11, y: n.height / 2, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, b);
    plus.textContent = '+';
    b.addEventListener('click', (e) => {
      e.stopPropagation();
      vscode.postMessage({ type: 'expand', id: n.id });
    });
  }
}

/** What each line style means, per kind of graph. */
const LEGENDS: Record<string, [string, string][]> = {
  call: [
    ['direct', 'direct call'],
    ['resolved', 'through a function pointer or virtual call'],
  ],
  invocation: [
    ['direct', 'direct call'],
    ['resolved', 'through a function pointer'],
    ['recursion', 'approximate to recursive node'],
  ],
  pointerFlow: [
    ['new', 'allocation'],
    ['direct', 'assignment, parameter, return'],
    ['load', 'field load'],
    ['store', 'field store'],
  ],
};

function drawLegend(kind: string): void {
  const legend = document.getElementById('legend')!;
  legend.replaceChildren();
  for (const [style, text] of LEGENDS[kind] ?? []) {
    const item = document.createElement('span');
    item.className = 'legend';
    const swatch = document.createElement('span');
    swatch.className = `swatch ${style}`;
    item.append(swatch, text);
    legend.append(item);
  }
}

/**
 * Where to look after a redraw: a new graph (other roots) is fitted to the
 * window; after an expansion the expanded node stays where it was on
 * screen, so the user's eye does not lose it.
 */
function keepView(old: Layout | undefined, oldRoots: string, now: Layout, state: GraphState): void {
  const anchor = state.expanded[state.expanded.length - 1];
  const before = old?.nodes.find((n) => n.id === anchor);
  const after = now.nodes.find((n) => n.id === anchor);
  if (!old || oldRoots !== state.roots.join('\n') || !before || !after) {
    fit();
    return;
  }
  view.x += (before.x - after.x) * view.scale;
  view.y += (before.y - after.y) * view.scale;
  applyView();
}

let roots = '';

function draw(m: Extract<ToWebview, { type: 'graph' }>): void {
  const old = layout;
  layout = layoutGraph(m.state);
  document.getElementById('title')!.textContent = m.title;
  document.title = m.title;
  const details = new Map(m.state.nodes.map((n) => [n.id, [n.label, n.detail, ...(n.flags ?? [])].filter(Boolean).join('\n')]));
  svg.replaceChildren();
  svg.setAttribute('data-kind', m.state.kind);
  drawLegend(m.state.kind);
  const defs = el('defs', {}, svg);
  const marker = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse' }, defs);
  el('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }, marker);
  viewport = el('g', { id: 'viewport' }, svg);
  const edges = el('g', { class: 'edges' }, viewport);
  for (const e of layout.edges) {
    const g = el('g', { class: `edge kind-${e.kind}${e.resolved ? ' resolved' : ''}`, 'data-from': e.from, 'data-to': e.to, 'data-kind': e.kind }, edges);
    const t = el('title', {}, g);
    t.textContent = `${e.kind}${e.label ? `: ${e.label}` : ''}`;
    el('path', { d: edgePath(e.points), 'marker-end': 'url(#arrow)' }, g);
  }
  const nodes = el('g', { class: 'nodes' }, viewport);
  for (const n of layout.nodes) {
    drawNode(n, nodes, details);
  }
  document.getElementById('partial')!.hidden = !m.state.partial;
  document.getElementById('counts')!.textContent = `${layout.nodes.length} nodes, ${layout.edges.length} edges`;
  keepView(old, roots, layout, m.state);
  roots = m.state.roots.join('\n');
  document.body.dataset.ready = 'true';
}

window.addEventListener('message', (e: MessageEvent<ToWebview>) => {
  const m = e.data;
  if (m.type === 'graph') {
    draw(m);
  }
});

// Pan by dragging the background, zoom with the wheel around the pointer.
let drag: { x: number; y: number } | undefined;
svg.addEventListener('pointerdown', (e) => {
  if ((e.target as Element).closest('.node')) {
    return;
  }
  drag = { x: e.clientX - view.x, y: e.clientY - view.y };
  svg.setPointerCapture(e.pointerId);
});
svg.addEventListener('pointermove', (e) => {
  if (drag) {
    view.x = e.clientX - drag.x;
    view.y = e.clientY - drag.y;
    applyView();
  }
});
svg.addEventListener('pointerup', () => (drag = undefined));
svg.addEventListener(
  'wheel',
  (e) => {
    e.preventDefault();
    const box = svg.getBoundingClientRect();
    const px = e.clientX - box.left;
    const py = e.clientY - box.top;
    const k = Math.exp(-e.deltaY * 0.0015);
    const scale = Math.min(4, Math.max(0.1, view.scale * k));
    view.x = px - ((px - view.x) * scale) / view.scale;
    view.y = py - ((py - view.y) * scale) / view.scale;
    view.scale = scale;
    applyView();
  },
  { passive: false },
);
document.getElementById('fit')!.addEventListener('click', fit);
window.addEventListener('resize', fit);

vscode.postMessage({ type: 'ready' });
