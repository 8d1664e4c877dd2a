// The webview that shows a graph. The extension asks the server
// (`pointee/graph`), keeps the merged answers (model.ts) and sends them to the
// webview, which lays them out and draws them (webview/graph.ts). Clicking a
// node opens its source; clicking its "+" asks the server for its neighbours.

import * as crypto from 'crypto';
import * as vscode from 'vscode';
import { LanguageClient, ResponseError } from 'vscode-languageclient/node';
import { graphPage } from './page';
import { emptyState, GraphState, mergeAnswer } from './state';
import { checkGraphResult, GRAPH_METHOD, GRAPH_TITLES, GraphKind, GraphParams, GraphResult } from './protocol';

/** How far the first answer reaches from the current function. */
export const FIRST_DEPTH = 2;
/** How far an expansion reaches from the clicked node. */
export const EXPAND_DEPTH = 1;
export const MAX_NODES = 150;

/** Messages from the webview. */
export type FromWebview = { type: 'ready' } | { type: 'open'; id: string } | { type: 'expand'; id: string };

/** Messages to the webview. */
export type ToWebview = { type: 'graph'; title: string; state: GraphState } | { type: 'error'; message: string };

const METHOD_NOT_FOUND = -32601;

export class GraphPanel {
  private state: GraphState;
  private ready = false;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly client: LanguageClient,
    private readonly kind: GraphKind,
    private readonly uri: string,
    private readonly title: string,
  ) {
    this.state = emptyState(kind);
    panel.webview.onDidReceiveMessage((m: FromWebview) => void this.onMessage(m));
  }

  /** Asks for the graph around the cursor and opens a panel for it. */
  static async show(
    context: vscode.ExtensionContext,
    client: LanguageClient,
    kind: GraphKind,
    editor: vscode.TextEditor | undefined,
  ): Promise<GraphPanel | undefined> {
    if (!editor || !['c', 'java'].includes(editor.document.languageId)) {
      void vscode.window.showInformationMessage('pointee: open a C or Java file to show its graph.');
      return undefined;
    }
    const uri = editor.document.uri.toString();
    const params: GraphParams = {
      textDocument: { uri },
      position: client.code2ProtocolConverter.asPosition(editor.selection.active),
      kind,
      depth: FIRST_DEPTH,
      maxNodes: MAX_NODES,
    };
    const answer = await ask(client, params);
    if (answer === undefined) {
      return undefined;
    }
    if (answer === null) {
      void vscode.window.showInformationMessage(
        `pointee: no ${GRAPH_TITLES[kind].toLowerCase()} here (put the cursor inside a function).`,
      );
      return undefined;
    }
    const name = editor.document.uri.path.split('/').pop() ?? '';
    const title = `${GRAPH_TITLES[kind]}: ${name}`;
    const panel = vscode.window.createWebviewPanel('pointee.graph', title, vscode.ViewColumn.Beside, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'out', 'webview'), vscode.Uri.joinPath(context.extensionUri, 'media')],
    });
    panel.webview.html = html(panel.webview, context.extensionUri, title);
    const view = new GraphPanel(panel, client, kind, uri, title);
    view.state = mergeAnswer(view.state, answer);
    view.post();
    return view;
  }

  private post(): void {
    if (this.ready) {
      const m: ToWebview = { type: 'graph', title: this.title, state: this.state };
      void this.panel.webview.postMessage(m);
    }
  }

  private async onMessage(m: FromWebview): Promise<void> {
    if (m.type === 'ready') {
      this.ready = true;
      this.post();
    } else if (m.type === 'open') {
      const node = this.state.nodes.find((n) => n.id === m.id);
      if (node?.location) {
        const loc = this.client.protocol2CodeConverter.asLocation(node.location);
        // The cursor at the start of the name, as go to definition leaves it.
        const at = new vscode.Range(loc.range.start, loc.range.start);
        await vscode.window.showTextDocument(loc.uri, { selection: at, viewColumn: vscode.ViewColumn.One });
      }
    } else if (m.type === 'expand') {
      const answer = await ask(this.client, {
        textDocument: { uri: this.uri },
        root: m.id,
        kind: this.kind,
        depth: EXPAND_DEPTH,
        maxNodes: MAX_NODES,
      });
      if (answer) {
        this.state = mergeAnswer(this.state, answer, m.id);
        this.post();
      }
    }
  }
}

/** The server's answer; undefined after telling the user what went wrong. */
async function ask(client: LanguageClient, params: GraphParams): Promise<GraphResult | null | undefined> {
  let raw: unknown;
  try {
    raw = await client.sendRequest(GRAPH_METHOD, params);
  } catch (e) {
    if (e instanceof ResponseError && e.code === METHOD_NOT_FOUND) {
      void vscode.window.showErrorMessage(
        'pointee: this pointee server does not answer pointee/graph yet; a newer pointee is needed for graphs.',
      );
    } else {
      void vscode.window.showErrorMessage(`pointee: the graph request failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    return undefined;
  }
  if (raw === null) {
    return null;
  }
  const checked = checkGraphResult(raw);
  if (typeof checked === 'string') {
    void vscode.window.showErrorMessage(`pointee: the server's graph is malformed: ${checked}`);
    return undefined;
  }
  return checked;
}

function html(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
  return graphPage({
    cspSource: webview.cspSource,
    script: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'out', 'webview', 'graph.js')).toString(),
    style: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'graph.css')).toString(),
    nonce: crypto.randomBytes(16).toString('base64'),
    title,
  });
}
