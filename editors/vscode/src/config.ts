// The extension's settings (`pointee.*`) turned into the server's
// configuration (docs/lsp.md, "Configuration"), sent as
// `initializationOptions` and again in `workspace/didChangeConfiguration`
// on every change, so no setting needs a restart (but `pointee.serverPath`).
// No `vscode` here: settings are read through a function, so the unit tests
// run it under plain Node.

/** Reads `pointee.KEY` (e.g. `java.contextSensitivity`). */
export type SettingsReader = (key: string) => unknown;

/** Whether other extensions answer go-to requests, per language. */
export interface Neighbours {
  c: boolean;
  java: boolean;
}

/** Extensions that answer go to definition and declaration in C. */
export const C_NEIGHBOURS = ['llvm-vs-code-extensions.vscode-clangd', 'ms-vscode.cpptools'];
/** ... and in Java. */
export const JAVA_NEIGHBOURS = ['redhat.java', 'oracle.oracle-java'];

export function neighboursFrom(installed: (id: string) => boolean): Neighbours {
  return { c: C_NEIGHBOURS.some(installed), java: JAVA_NEIGHBOURS.some(installed) };
}

/**
 * Whether go to definition answers only on indirect and virtual calls in
 * `languageId`: the setting, or with `auto` whether a neighbour answers the
 * rest.
 */
export function indirectCallsOnly(setting: unknown, neighbours: Neighbours, languageId: string): boolean {
  if (setting === 'on') {
    return true;
  }
  if (setting === 'off') {
    return false;
  }
  return languageId === 'c' ? neighbours.c : languageId === 'java' ? neighbours.java : false;
}

/**
 * Settings the server reads today; the others are declared by the extension
 * and sent, and take effect once the server reads them (docs/lsp.md,
 * "Proposed").
 */
export const LIVE_SETTINGS = [
  'java.contextSensitivity',
  'java.entry',
  'c.contextBound',
  'budget.steps',
  'budget.ms',
  'budget.maxMemoryMb',
  'diagnostics.aliasChecks',
  'diagnostics.okChecks',
  'diagnostics.notes',
  'inlayHints.enable',
  'debounceMs',
];
export const PROPOSED_SETTINGS = [
  'c.mallocMayFail',
  'diagnostics.checks',
  'goto.indirectCallsOnly',
];

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

function bool(v: unknown, dflt: boolean): boolean {
  return typeof v === 'boolean' ? v : dflt;
}

/** A positive integer, or null for 0, unset or nonsense (no limit). */
function limit(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= 1 ? Math.floor(v) : null;
}

function millis(v: unknown, dflt: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : dflt;
}

function checks(v: unknown): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  if (v && typeof v === 'object') {
    for (const [k, b] of Object.entries(v as Record<string, unknown>)) {
      if (typeof b === 'boolean') {
        out[k] = b;
      }
    }
  }
  return out;
}

/**
 * The server's configuration for the current settings. Every key is sent,
 * with `null` for "unset", since the server keeps the value of a missing
 * key: a setting cleared in VS Code must reach the server as cleared.
 */
export function serverConfiguration(get: SettingsReader, neighbours: Neighbours) {
  const gotoSetting = get('goto.indirectCallsOnly');
  return {
    pointee: {
      java: {
        contextSensitivity: str(get('java.contextSensitivity')),
        entry: str(get('java.entry')),
      },
      c: {
        contextBound: limit(get('c.contextBound')),
        mallocMayFail: bool(get('c.mallocMayFail'), true),
      },
      budget: {
        steps: limit(get('budget.steps')),
        ms: limit(get('budget.ms')),
        maxMemoryMb: limit(get('budget.maxMemoryMb')),
      },
      diagnostics: {
        aliasChecks: bool(get('diagnostics.aliasChecks'), true),
        okChecks: bool(get('diagnostics.okChecks'), true),
        notes: bool(get('diagnostics.notes'), true),
        checks: checks(get('diagnostics.checks')),
      },
      inlayHints: { enable: bool(get('inlayHints.enable'), false) },
      goto: {
        indirectCallsOnly: {
          c: indirectCallsOnly(gotoSetting, neighbours, 'c'),
          java: indirectCallsOnly(gotoSetting, neighbours, 'java'),
        },
      },
      debounceMs: millis(get('debounceMs'), 150),
    },
  };
}

/** Settings whose change needs a new server process. */
export function needsRestart(changed: (section: string) => boolean): boolean {
  return changed('pointee.serverPath');
}

/** The Java context sensitivities, in the order the quick pick shows them. */
export const JAVA_SENSITIVITIES: { value: string; description: string }[] = [
  { value: 'ci', description: 'context-insensitive (fastest, least precise)' },
  { value: '1-call', description: 'call-site sensitive, the last call' },
  { value: '2-call', description: 'call-site sensitive, the last two calls' },
  { value: '3-call', description: 'call-site sensitive, the last three calls' },
  { value: '1-obj', description: 'object sensitive, the receiver' },
  { value: '2-obj', description: 'object sensitive, receiver and its allocator (default)' },
  { value: '3-obj', description: 'object sensitive, three allocators deep' },
  { value: '1-type', description: 'type sensitive, the receiver’s allocating class' },
  { value: '2-type', description: 'type sensitive, two classes deep' },
  { value: '3-type', description: 'type sensitive, three classes deep' },
];
