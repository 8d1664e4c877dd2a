// The pointee extension: starts `pointee lsp` (server.ts says which binary),
// keeps its configuration in step with the settings (config.ts), shows its
// state in the status bar (status.ts) and opens graphs (graph/panel.ts).
// Every answer comes from the server; the extension computes none.

import * as fs from 'fs';
import * as os from 'os';
import * as vscode from 'vscode';
import {
  ClientCapabilities,
  DidChangeConfigurationNotification,
  FeatureState,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  StaticFeature,
  WorkDoneProgress,
  WorkDoneProgressBegin,
  WorkDoneProgressCreateParams,
  WorkDoneProgressCreateRequest,
  WorkDoneProgressReport,
} from 'vscode-languageclient/node';
import { JAVA_SENSITIVITIES, needsRestart, neighboursFrom, serverConfiguration } from './config';
import { GraphPanel } from './graph/panel';
import { GraphKind } from './graph/protocol';
import { resolveServer } from './server';
import { fromNotification, Status, StatusNotification, statusView } from './status';

let pointee: Pointee | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  pointee = new Pointee(context);
  await pointee.start();
}

export async function deactivate(): Promise<void> {
  await pointee?.stop();
  pointee = undefined;
}

const STATUS_METHOD = 'pointee/status';

class Pointee {
  private client: LanguageClient | undefined;
  private readonly output: vscode.OutputChannel;
  private readonly item: vscode.StatusBarItem;
  private analysingSince: number | undefined;
  /** The server sends `pointee/status` (else "ready" carries no time). */
  private serverSendsStatus = false;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('pointee');
    this.item = vscode.window.createStatusBarItem('pointee.status', vscode.StatusBarAlignment.Left, 0);
    this.item.name = 'pointee';
    context.subscriptions.push(this.output, this.item);
    const command = (id: string, f: (...args: unknown[]) => unknown) =>
      context.subscriptions.push(vscode.commands.registerCommand(id, f));
    command('pointee.restartServer', () => this.restart());
    command('pointee.showOutput', () => this.output.show(true));
    command('pointee.openServerSetting', () =>
      vscode.commands.executeCommand('workbench.action.openSettings', 'pointee.serverPath'),
    );
    command('pointee.chooseJavaContextSensitivity', () => this.chooseJavaSensitivity());
    const graph = (kind: GraphKind) => () => this.showGraph(kind);
    command('pointee.showCallGraph', graph('call'));
    command('pointee.showInvocationGraph', graph('invocation'));
    command('pointee.showPointerFlowGraph', graph('pointerFlow'));
    context.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('pointee')) {
          return;
        }
        if (needsRestart((s) => e.affectsConfiguration(s))) {
          void this.restart();
        } else {
          this.sendConfiguration();
        }
      }),
      vscode.extensions.onDidChange(() => this.sendConfiguration()),
    );
  }

  private setStatus(s: Status): void {
    const v = statusView(s);
    this.item.text = v.text;
    this.item.tooltip = v.tooltip;
    this.item.command = v.command;
    this.item.backgroundColor =
      v.severity === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : v.severity === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
    this.item.show();
  }

  private configuration() {
    const settings = vscode.workspace.getConfiguration('pointee');
    const neighbours = neighboursFrom((id) => vscode.extensions.getExtension(id) !== undefined);
    return serverConfiguration((key) => settings.get(key), neighbours);
  }

  private sendConfiguration(): void {
    if (this.client?.state === State.Running) {
      void this.client.sendNotification(DidChangeConfigurationNotification.type, { settings: this.configuration() });
    }
  }

  async start(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const found = resolveServer({
      setting: vscode.workspace.getConfiguration('pointee').get<string>('serverPath') ?? '',
      extensionPath: this.context.extensionPath,
      workspaceFolder: folder,
      pathEnv: process.env.PATH,
      homeDir: os.homedir(),
      platform: process.platform,
      isExecutable: isExecutable,
    });
    if ('error' in found) {
      this.output.appendLine(found.error);
      this.setStatus({ state: 'noServer', message: found.error });
      void vscode.window.showErrorMessage(found.error, 'Open Setting').then((choice) => {
        if (choice === 'Open Setting') {
          void vscode.commands.executeCommand('pointee.openServerSetting');
        }
      });
      return;
    }
    this.output.appendLine(`pointee: starting ${found.path} lsp (from the ${found.source})`);
    this.setStatus({ state: 'starting' });
    const serverOptions: ServerOptions = { command: found.path, args: ['lsp'] };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'c' },
        { scheme: 'file', language: 'java' },
      ],
      outputChannel: this.output,
      initializationOptions: this.configuration(),
      middleware: {
        provideHover: async (doc, pos, token, next) => {
          const h = await next(doc, pos, token);
          return h ? withHeading(h) : h;
        },
      },
    };
    const client = new LanguageClient('pointee', 'pointee', serverOptions, clientOptions);
    client.registerFeature(new StatusFeature(client, this));
    client.onDidChangeState((e) => {
      if (e.newState === State.Stopped && this.client === client) {
        this.setStatus({ state: 'stopped' });
      }
    });
    this.client = client;
    try {
      await client.start();
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.output.appendLine(`pointee: the server did not start: ${message}`);
      this.setStatus({ state: 'failed', message: `the server did not start: ${message}` });
      return;
    }
    // A server that sends `pointee/status` says so; its first analysis is
    // under way (its status or progress follows). Another server is ready.
    this.serverSendsStatus = client.initializeResult?.capabilities.experimental?.pointeeStatus === true;
    if (this.analysingSince === undefined) {
      this.setStatus(this.serverSendsStatus ? { state: 'analysing' } : { state: 'ready' });
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop(2000);
      } catch (e) {
        this.output.appendLine(`pointee: stopping the server: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  async restart(): Promise<void> {
    await this.stop();
    this.analysingSince = undefined;
    await this.start();
  }

  /** `$/progress` of an analysis: the item says "analysing". */
  progress(v: WorkDoneProgressBegin | WorkDoneProgressReport | { kind: 'end'; message?: string }): void {
    if (v.kind === 'begin') {
      this.analysingSince = Date.now();
      this.setStatus({ state: 'analysing', message: v.message, percentage: v.percentage });
    } else if (v.kind === 'report') {
      this.setStatus({ state: 'analysing', message: v.message, percentage: v.percentage });
    } else {
      const since = this.analysingSince;
      this.analysingSince = undefined;
      // A server that sends `pointee/status` says more right after.
      if (!this.serverSendsStatus && since !== undefined) {
        this.setStatus({ state: 'ready', ms: Date.now() - since });
      }
    }
  }

  status(n: StatusNotification): void {
    this.analysingSince = undefined;
    if (n.state === 'failed') {
      this.output.appendLine(`pointee: ${n.message ?? 'the analysis failed'}`);
    } else if (n.partial) {
      this.output.appendLine(`pointee: the analysis was cut short (${n.message ?? 'budget'}); results are partial`);
    }
    this.setStatus(fromNotification(n));
  }

  private async chooseJavaSensitivity(): Promise<void> {
    const settings = vscode.workspace.getConfiguration('pointee');
    const current = settings.get<string>('java.contextSensitivity') ?? '2-obj';
    const items = JAVA_SENSITIVITIES.map((s) => ({
      label: s.value,
      description: s.description + (s.value === current ? ' (current)' : ''),
      picked: s.value === current,
    }));
    const pick = await vscode.window.showQuickPick(items, {
      title: 'Java context sensitivity',
      placeHolder: `now ${current}`,
    });
    if (!pick) {
      return;
    }
    const target = vscode.workspace.workspaceFolders ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await settings.update('java.contextSensitivity', pick.label, target);
  }

  private async showGraph(kind: GraphKind): Promise<void> {
    const client = this.client;
    if (!client || client.state !== State.Running) {
      void vscode.window.showErrorMessage('pointee: the server is not running.', 'Restart').then((c) => {
        if (c === 'Restart') {
          void this.restart();
        }
      });
      return;
    }
    await GraphPanel.show(this.context, client, kind, vscode.window.activeTextEditor);
  }
}

/**
 * Tells the server that this client takes `pointee/status` and follows the
 * analysis' `$/progress` for the status bar (instead of the client's own
 * progress part). Initialised on every (re)start of the client.
 */
class StatusFeature implements StaticFeature {
  constructor(
    private readonly client: LanguageClient,
    private readonly owner: Pointee,
  ) {}

  fillClientCapabilities(capabilities: ClientCapabilities): void {
    capabilities.experimental = { ...(capabilities.experimental as object | undefined), pointeeStatus: true };
    capabilities.window = { ...capabilities.window, workDoneProgress: true };
  }

  getState(): FeatureState {
    return { kind: 'static' };
  }

  initialize(): void {
    // Replaces the client's own handler (the client registers it first).
    this.client.onRequest(WorkDoneProgressCreateRequest.type, (params: WorkDoneProgressCreateParams) => {
      const sub = this.client.onProgress(WorkDoneProgress.type, params.token, (v) => {
        this.owner.progress(v);
        if (v.kind === 'end') {
          sub.dispose();
        }
      });
    });
    this.client.onNotification(STATUS_METHOD, (n: StatusNotification) => this.owner.status(n));
  }

  clear(): void {}
}

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** pointee's hover under its own heading, apart from other extensions'. */
function withHeading(h: vscode.Hover): vscode.Hover {
  const heading = new vscode.MarkdownString('**pointee** — points-to');
  return new vscode.Hover([heading, ...h.contents], h.range);
}
