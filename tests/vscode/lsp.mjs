// A small LSP client over stdio: the end-to-end test asks the server itself
// what the page must show (the graph), independently of the extension.
import { spawn } from 'node:child_process';

export class Lsp {
  constructor(binary, args = ['lsp']) {
    this.proc = spawn(binary, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    this.buf = Buffer.alloc(0);
    this.next = 1;
    this.pending = new Map();
    this.notes = [];
    this.proc.stdout.on('data', (d) => this.onData(d));
  }

  onData(d) {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end < 0) {
        return;
      }
      const m = /Content-Length: (\d+)/i.exec(this.buf.subarray(0, end).toString());
      const len = Number(m[1]);
      if (this.buf.length < end + 4 + len) {
        return;
      }
      const msg = JSON.parse(this.buf.subarray(end + 4, end + 4 + len).toString());
      this.buf = this.buf.subarray(end + 4 + len);
      if (msg.id !== undefined && msg.method !== undefined) {
        this.send({ jsonrpc: '2.0', id: msg.id, result: null }); // the server's own requests
      } else if (msg.id !== undefined) {
        this.pending.get(msg.id)?.(msg);
        this.pending.delete(msg.id);
      } else {
        this.notes.push(msg);
      }
    }
  }

  send(msg) {
    const body = Buffer.from(JSON.stringify(msg));
    this.proc.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.proc.stdin.write(body);
  }

  /** The whole response ({result} or {error}). */
  request(method, params, timeoutMs = 60_000) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer in ${timeoutMs} ms`)), timeoutMs);
      this.pending.set(id, (msg) => {
        clearTimeout(timer);
        resolve(msg);
      });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method, params) {
    this.send({ jsonrpc: '2.0', method, params });
  }

  async initialize(folderUri) {
    const r = await this.request('initialize', {
      processId: process.pid,
      rootUri: folderUri,
      workspaceFolders: [{ uri: folderUri, name: 'ws' }],
      capabilities: {},
    });
    this.notify('initialized', {});
    return r.result;
  }

  async close() {
    await this.request('shutdown', null, 10_000).catch(() => undefined);
    this.notify('exit', null);
    this.proc.stdin.end();
    await new Promise((resolve) => {
      const t = setTimeout(() => {
        this.proc.kill();
        resolve();
      }, 5000);
      this.proc.on('exit', () => {
        clearTimeout(t);
        resolve();
      });
    });
  }
}
