// The `pointee/graph` request, as proposed in docs/lsp.md ("Proposed:
// pointee/graph"). Plain data only: this module is shared by the extension,
// the webview and the unit tests, so it must not import `vscode`.

export type GraphKind = 'call' | 'invocation' | 'pointerFlow';

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface Location {
  uri: string;
  range: Range;
}

export interface GraphParams {
  textDocument: { uri: string };
  /** The root: the function (or, for pointerFlow, the expression) here. */
  position?: Position;
  /** The root instead of `position`: a node id from an earlier answer. */
  root?: string;
  kind: GraphKind;
  /** Hops from the root, in both directions. */
  depth?: number;
  /** At most this many nodes; the nodes cut off mark their neighbours `more`. */
  maxNodes?: number;
}

export interface GraphNode {
  /** Stable within one analysis; passed back as `root` to expand. */
  id: string;
  label: string;
  /** function, method, context, variable, field, object, ... (open set). */
  kind: string;
  location?: Location;
  detail?: string;
  /** entry, recursive, approximate, external, unreached, ... */
  flags?: string[];
  /** Has edges this answer does not hold: ask again with `root: id`. */
  more?: boolean;
}

export interface GraphEdge {
  from: string;
  to: string;
  /** direct, indirect, virtual, recursion, assign, load, store, param, return, new, ... */
  kind: string;
  /** The call site or statement behind the edge. */
  location?: Location;
  label?: string;
}

export interface GraphResult {
  kind: GraphKind;
  /** The nodes the answer starts from (the function at the position). */
  roots: string[];
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** The analysis behind the graph was cut short by its budget. */
  partial?: boolean;
}

export const GRAPH_METHOD = 'pointee/graph';

/** The names people read, per kind. */
export const GRAPH_TITLES: Record<GraphKind, string> = {
  call: 'Call graph',
  invocation: 'Invocation graph',
  pointerFlow: 'Pointer flow graph',
};

/** Edge kinds that a plain call graph would not have: drawn dashed. */
export const RESOLVED_EDGE_KINDS = new Set(['indirect', 'virtual']);

/**
 * Checks the shape of an answer (it comes from another process) and returns
 * it, or a sentence saying what is wrong.
 */
export function checkGraphResult(v: unknown): GraphResult | string {
  if (v === null || typeof v !== 'object') {
    return 'the answer is not an object';
  }
  const r = v as Record<string, unknown>;
  if (r.kind !== 'call' && r.kind !== 'invocation' && r.kind !== 'pointerFlow') {
    return `unknown graph kind ${JSON.stringify(r.kind)}`;
  }
  if (!Array.isArray(r.nodes) || !Array.isArray(r.edges)) {
    return 'the answer has no nodes or edges array';
  }
  const ids = new Set<string>();
  for (const n of r.nodes as unknown[]) {
    const node = n as Record<string, unknown>;
    if (typeof node?.id !== 'string' || typeof node.label !== 'string') {
      return 'a node lacks its id or label';
    }
    ids.add(node.id);
  }
  for (const e of r.edges as unknown[]) {
    const edge = e as Record<string, unknown>;
    if (typeof edge?.from !== 'string' || typeof edge.to !== 'string') {
      return 'an edge lacks its from or to';
    }
    if (!ids.has(edge.from) || !ids.has(edge.to)) {
      return `the edge ${edge.from} -> ${edge.to} names a node the answer does not hold`;
    }
  }
  const roots = Array.isArray(r.roots) ? (r.roots as unknown[]).filter((x): x is string => typeof x === 'string') : [];
  return { ...(r as unknown as GraphResult), roots };
}
