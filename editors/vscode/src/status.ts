// What the status bar item says. The state comes from the client (starting,
// stopped), from `$/progress` (analysing) and from the server's
// `pointee/status` notification (ready, partial, failed). No `vscode` here.

export type Status =
  | { state: 'starting' }
  | { state: 'analysing'; message?: string; percentage?: number }
  | { state: 'ready'; ms?: number; partial?: boolean; reason?: string }
  | { state: 'failed'; message: string }
  | { state: 'stopped' }
  | { state: 'noServer'; message: string };

export interface StatusView {
  text: string;
  tooltip: string;
  /** The command a click runs. */
  command: string;
  /** Shown as a warning (yellow) or error (red) item. */
  severity?: 'warning' | 'error';
}

export function formatMs(ms: number): string {
  if (ms < 1000) {
    return `${Math.round(ms)} ms`;
  }
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

export function statusView(s: Status): StatusView {
  switch (s.state) {
    case 'starting':
      return { text: '$(loading~spin) pointee', tooltip: 'pointee: starting the server', command: 'pointee.showOutput' };
    case 'analysing': {
      const pct = s.percentage !== undefined ? ` ${Math.round(s.percentage)}%` : '';
      const what = s.message ? `: ${s.message}` : '';
      return {
        text: `$(sync~spin) pointee: analysing${pct}`,
        tooltip: `pointee is analysing the workspace${what}`,
        command: 'pointee.showOutput',
      };
    }
    case 'ready': {
      const took = s.ms !== undefined ? ` (${formatMs(s.ms)})` : '';
      if (s.partial) {
        return {
          text: `$(warning) pointee: partial${took}`,
          tooltip:
            'pointee: the last analysis was cut short by its budget' +
            (s.reason ? ` (${s.reason})` : '') +
            '; answers may say less than a full run. Raise pointee.budget.* to analyse further.',
          command: 'pointee.showOutput',
          severity: 'warning',
        };
      }
      return {
        text: `$(check) pointee: ready${took}`,
        tooltip: s.ms !== undefined ? `pointee: the last analysis took ${formatMs(s.ms)}` : 'pointee: ready',
        command: 'pointee.showOutput',
      };
    }
    case 'failed':
      return {
        text: '$(error) pointee: failed',
        tooltip: `pointee: ${s.message} (click for the output)`,
        command: 'pointee.showOutput',
        severity: 'error',
      };
    case 'stopped':
      return {
        text: '$(debug-stop) pointee: stopped',
        tooltip: 'pointee: the server is not running (click to restart it)',
        command: 'pointee.restartServer',
        severity: 'error',
      };
    case 'noServer':
      return {
        text: '$(error) pointee: no server',
        tooltip: `pointee: ${s.message}`,
        command: 'pointee.openServerSetting',
        severity: 'error',
      };
  }
}

/** The `pointee/status` notification (docs/lsp.md). */
export interface StatusNotification {
  state: 'ready' | 'failed';
  /** How long the analysis took. */
  ms?: number;
  partial?: boolean;
  /** Why it was partial (which budget), or why it failed. */
  message?: string;
}

export function fromNotification(n: StatusNotification): Status {
  if (n.state === 'failed') {
    return { state: 'failed', message: n.message ?? 'the analysis failed' };
  }
  return { state: 'ready', ms: n.ms, partial: n.partial, reason: n.message };
}
