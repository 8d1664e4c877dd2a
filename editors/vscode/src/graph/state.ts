// The graph a panel shows: the answers of `pointee/graph` merged as the user
// expands nodes. Kept by the extension, sent whole to the webview. No
// `vscode` and no DOM here, so the unit tests run it under plain Node.

import { GraphEdge, GraphKind, GraphNode, GraphResult } from './protocol';

/** What the extension keeps per open graph. */
export interface GraphState {
  kind: GraphKind;
  roots: string[];
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Nodes the server was asked to expand (their neighbours are all here). */
  expanded: string[];
  partial: boolean;
}

export function emptyState(kind: GraphKind): GraphState {
  return { kind, roots: [], nodes: [], edges: [], expanded: [], partial: false };
}

/** One edge per (from, to, kind, call site). */
export function edgeKey(e: GraphEdge): string {
  const at = e.location ? `${e.location.uri}:${e.location.range.start.line}:${e.location.range.start.character}` : '';
  return `${e.from}\u0000${e.to}\u0000${e.kind}\u0000${at}`;
}

/**
 * Adds an answer to the state. `expandedRoot` is the node the answer was
 * asked for (expansion): its neighbours are all known now, so it loses its
 * `more` mark. A node that one answer says has more edges keeps the mark
 * until it is expanded, since the edges of another answer are not all of
 * its edges.
 */
export function mergeAnswer(state: GraphState, answer: GraphResult, expandedRoot?: string): GraphState {
  const expanded = new Set(state.expanded);
  if (expandedRoot !== undefined) {
    expanded.add(expandedRoot);
  }
  const nodes = new Map<string, GraphNode>();
  for (const n of state.nodes) {
    nodes.set(n.id, n);
  }
  for (const n of answer.nodes) {
    const old = nodes.get(n.id);
    nodes.set(n.id, { ...old, ...n, more: Boolean(old?.more || n.more) });
  }
  for (const id of expanded) {
    const n = nodes.get(id);
    if (n) {
      nodes.set(id, { ...n, more: false });
    }
  }
  const edges = new Map<string, GraphEdge>();
  for (const e of [...state.edges, ...answer.edges]) {
    edges.set(edgeKey(e), e);
  }
  const roots = state.roots.length > 0 ? state.roots : answer.roots;
  return {
    kind: state.kind,
    roots,
    nodes: [...nodes.values()],
    edges: [...edges.values()],
    expanded: [...expanded],
    partial: state.partial || Boolean(answer.partial),
  };
}

