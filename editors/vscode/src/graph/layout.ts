// The layout of a graph by dagre (a layered layout, which suits call graphs:
// callers above callees), as positioned boxes and edge polylines for the
// webview to draw. No DOM here (text widths come from the monospace font's
// character width), so the unit tests run it under plain Node.

import dagre from '@dagrejs/dagre';
import { RESOLVED_EDGE_KINDS } from './protocol';
import { edgeKey, GraphState } from './state';

export interface Point {
  x: number;
  y: number;
}

export interface LayoutNode {
  id: string;
  label: string;
  kind: string;
  flags: string[];
  more: boolean;
  root: boolean;
  /** Centre, as dagre gives it. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LayoutEdge {
  key: string;
  from: string;
  to: string;
  kind: string;
  label?: string;
  /** Resolved through a function pointer or virtual dispatch. */
  resolved: boolean;
  points: Point[];
}

export interface Layout {
  width: number;
  height: number;
  nodes: LayoutNode[];
  edges: LayoutEdge[];
}

export interface LayoutOptions {
  /** Width of one character of the node font (monospace). */
  charWidth: number;
  nodeHeight: number;
  /** Extra width of a node that can be expanded (the "+" badge). */
  badgeWidth: number;
  rankdir: 'TB' | 'LR';
}

export const DEFAULT_LAYOUT: LayoutOptions = { charWidth: 7.8, nodeHeight: 30, badgeWidth: 22, rankdir: 'TB' };

/** Node width: the label in the monospace font, padding, and the badge. */
export function nodeWidth(label: string, more: boolean, o: LayoutOptions): number {
  return Math.ceil([...label].length * o.charWidth) + 24 + (more ? o.badgeWidth : 0);
}

/** Lays out the nodes and edges of `g` (edges to unknown nodes are left out). */
export function layoutGraph(g: Pick<GraphState, 'nodes' | 'edges' | 'roots'>, options: Partial<LayoutOptions> = {}): Layout {
  const o = { ...DEFAULT_LAYOUT, ...options };
  const d = new dagre.graphlib.Graph({ multigraph: true });
  d.setGraph({ rankdir: o.rankdir, nodesep: 24, ranksep: 48, edgesep: 12, marginx: 16, marginy: 16 });
  d.setDefaultEdgeLabel(() => ({}));
  const roots = new Set(g.roots);
  for (const n of g.nodes) {
    d.setNode(n.id, { width: nodeWidth(n.label, Boolean(n.more), o), height: o.nodeHeight });
  }
  const known = new Set(g.nodes.map((n) => n.id));
  const edges = g.edges.filter((e) => known.has(e.from) && known.has(e.to));
  for (const e of edges) {
    d.setEdge(e.from, e.to, { minlen: 1 }, edgeKey(e));
  }
  dagre.layout(d);
  const nodes: LayoutNode[] = g.nodes.map((n) => {
    const p = d.node(n.id);
    return {
      id: n.id,
      label: n.label,
      kind: n.kind,
      flags: n.flags ?? [],
      more: Boolean(n.more),
      root: roots.has(n.id),
      x: p.x ?? 0,
      y: p.y ?? 0,
      width: p.width,
      height: p.height,
    };
  });
  const laid: LayoutEdge[] = edges.map((e) => {
    const key = edgeKey(e);
    const label = d.edge({ v: e.from, w: e.to, name: key });
    return {
      key,
      from: e.from,
      to: e.to,
      kind: e.kind,
      label: e.label,
      resolved: RESOLVED_EDGE_KINDS.has(e.kind),
      points: ((label?.points ?? []) as Point[]).map((p) => ({ x: p.x, y: p.y })),
    };
  });
  const graph = d.graph();
  return { width: graph.width ?? 0, height: graph.height ?? 0, nodes, edges: laid };
}
