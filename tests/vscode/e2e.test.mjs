// The VS Code extension end to end: the packaged .vsix installed into
// code-server (VS Code's workbench served to a browser), driven in Debian's
// Chromium through playwright-core as a user would (keyboard and clicks),
// on a copy of tests/vscode/fixture. Each step saves a screenshot into
// $POINTEE_E2E_ARTIFACTS. Run by tests/vscode/run.sh, which installs
// everything and sets the environment below.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Lsp } from './lsp.mjs';

const env = (name) => {
  const v = process.env[name];
  assert.ok(v, `${name} is not set (run tests/vscode/run.sh)`);
  return v;
};
const NODE = env('POINTEE_E2E_NODE');
const CODE_SERVER = env('POINTEE_E2E_CODE_SERVER');
const VSIX = env('POINTEE_E2E_VSIX');
const ARTIFACTS = env('POINTEE_E2E_ARTIFACTS');
const { chromium } = createRequire(join(env('POINTEE_E2E_MODULES'), 'x.js'))('playwright-core');

const HERE = dirname(fileURLToPath(import.meta.url));
const STEP_MS = 90_000;
/** Monaco's DOM writes spaces as U+00A0. */
const spaces = (s) => s.replace(/\u00a0/g, ' ');

let tmp;
let ws;
let codeServer;
let browser;
let page;
let serverBinary;
let shot = 0;

async function screenshot(name) {
  shot += 1;
  const file = join(ARTIFACTS, `${String(shot).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Runs a step; on failure saves a screenshot of what the page showed. */
async function step(name, f) {
  try {
    await f();
    await screenshot(name);
  } catch (e) {
    await screenshot(`${name}-FAILED`).catch(() => undefined);
    throw e;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function run(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')}: exit ${code}\n${out}`))));
  });
}

async function waitForHttp(url, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.ok) {
        return;
      }
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      throw new Error(`${url} did not answer within ${ms} ms (see code-server.log)`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Kills code-server's whole process group (its extension host outlives it). */
async function stopCodeServer() {
  if (!codeServer || codeServer.exitCode !== null) {
    return;
  }
  const exited = new Promise((r) => codeServer.once('exit', r));
  try {
    process.kill(-codeServer.pid, 'SIGTERM');
  } catch {
    return;
  }
  const t = setTimeout(() => {
    try {
      process.kill(-codeServer.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }, 5000);
  await exited;
  clearTimeout(t);
  // The group may outlive its leader for a moment.
  try {
    process.kill(-codeServer.pid, 'SIGKILL');
  } catch {
    // gone
  }
}

const input = () => page.locator('.quick-input-widget input.input');

/** Runs a command from the palette, picking the row with exactly `label`. */
async function command(label) {
  await page.keyboard.press('F1');
  await input().waitFor();
  await input().fill(`>${label}`);
  const exact = new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  const row = page.locator('.quick-input-list .monaco-list-row').filter({
    has: page.locator('.label-name').filter({ hasText: exact }),
  });
  await row.first().waitFor({ timeout: 20_000 });
  await row.first().click();
}

/** Quick Open: waits for the row holding the file name before Enter. */
async function openFile(name) {
  await page.keyboard.press('F1');
  await input().waitFor();
  await input().fill(name);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 30_000 });
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: name }).waitFor();
}

/** Puts the cursor at a 1-based line and column (Go to Line). */
async function goTo(line, column) {
  await page.keyboard.press('F1');
  await input().waitFor();
  await input().fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/** The 1-based (line, column) of `needle`'s first character in the fixture. */
function position(file, needle) {
  const lines = readFileSync(join(HERE, 'fixture', file), 'utf8').split('\n');
  const i = lines.findIndex((l) => l.includes(needle));
  assert.ok(i >= 0, `${needle} is in ${file}`);
  return [i + 1, lines[i].indexOf(needle) + 1];
}

/** Runs a compiled fixture with `args`; resolves to its exit code and standard error. */
function runFixture(exe, args) {
  return new Promise((resolve) => {
    const p = spawn(exe, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (code) => resolve({ code, err }));
  });
}

describe('the fixture', () => {
  const compile = async (extra) => {
    const out = join(mkdtempSync(join(tmpdir(), 'pointee-fixture-')), 'devices');
    await run('gcc', [...extra, '-I', join(HERE, '..', '..', 'fixtures', 'c', 'flow'), join(HERE, 'fixture', 'devices.c'), '-o', out]);
    return out;
  };

  it('fails its NOALIAS check at run time too (gcc with alias_runtime.h), so the warning is true', async () => {
    const out = await compile([]);
    const [line] = position('devices.c', 'NOALIAS(dev->ops');
    const r = await runFixture(out, ['with-console']);
    rmSync(dirname(out), { recursive: true, force: true });
    assert.equal(r.code, 3, r.err);
    assert.match(r.err, new RegExp(`devices\\.c:${line}: NOALIAS failed at run time`));
  });

  it('dereferences NULL where pointee warns when run without a console (AddressSanitizer)', async () => {
    const out = await compile(['-g', '-fsanitize=address']);
    const [line] = position('devices.c', 'con->file->fd');
    const r = await runFixture(out, []);
    rmSync(dirname(out), { recursive: true, force: true });
    assert.notEqual(r.code, 0, r.err);
    assert.match(r.err, /AddressSanitizer: SEGV/, r.err);
    assert.match(r.err, new RegExp(`#0 .* in main .*devices\\.c:${line}`), r.err);
  });
});

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function launchChromium() {
  // playwright gives the browser a fresh profile of its own.
  return chromium.launch({
    executablePath: process.env.POINTEE_E2E_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

// The webview's page and script as the extension ships them, in Chromium
// with a stand-in for the webview API, fed the fake answers the unit tests
// use: what the graph looks like and does before the server answers
// pointee/graph (the test in code-server below checks the real one).
describe('the graph webview (fake answers of the proposed shape)', () => {
  const EXT = join(HERE, '..', '..', 'editors', 'vscode');
  let kit;
  let b;
  let p;

  before(async () => {
    // Built by `npm test` (build.mjs --tests), which run.sh runs first.
    kit = createRequire(join(EXT, 'out', 'test', 'x.js'))('./webview-kit.js');
    b = await launchChromium();
    p = await b.newPage({ viewport: { width: 1000, height: 700 } });
    const files = {
      '/index.html': [
        'text/html',
        kit.graphPage({
          cspSource: 'http://webview.test',
          script: 'http://webview.test/graph.js',
          style: 'http://webview.test/graph.css',
          nonce: 'n0nce',
          title: 'Call graph: devices.c',
        }),
      ],
      '/graph.js': ['text/javascript', readFileSync(join(EXT, 'out', 'webview', 'graph.js'))],
      '/graph.css': ['text/css', readFileSync(join(EXT, 'media', 'graph.css'))],
    };
    await p.route('http://webview.test/**', (route) => {
      const [type, body] = files[new URL(route.request().url()).pathname] ?? ['text/plain', ''];
      return route.fulfill({ status: body ? 200 : 404, contentType: type, body });
    });
    await p.addInitScript(() => {
      window.sent = [];
      window.acquireVsCodeApi = () => ({ postMessage: (m) => window.sent.push(m) });
    });
    await p.goto('http://webview.test/index.html');
    await p.waitForFunction(() => window.sent.some((m) => m.type === 'ready'));
    // What VS Code's dark theme gives a webview.
    await p.evaluate(() => {
      const theme = {
        '--vscode-foreground': '#cccccc',
        '--vscode-editor-background': '#1e1e1e',
        '--vscode-editorWidget-background': '#252526',
        '--vscode-editorWidget-border': '#454545',
        '--vscode-focusBorder': '#007fd4',
        '--vscode-button-background': '#0e639c',
        '--vscode-button-foreground': '#ffffff',
        '--vscode-font-family': 'sans-serif',
        '--vscode-editor-font-family': 'monospace',
      };
      for (const [k, v] of Object.entries(theme)) {
        document.documentElement.style.setProperty(k, v);
      }
    });
  });

  after(async () => {
    await b?.close();
  });

  const show = (state, title) => p.evaluate(([state, title]) => window.postMessage({ type: 'graph', title, state }, '*'), [state, title]);
  const drawn = () =>
    p.evaluate(() => ({
      nodes: [...document.querySelectorAll('svg#graph .node')].map((e) => e.getAttribute('data-id')),
      edges: [...document.querySelectorAll('svg#graph .edge')].map((e) => `${e.getAttribute('data-from')} -> ${e.getAttribute('data-to')} (${e.getAttribute('data-kind')})`),
      dashed: [...document.querySelectorAll('svg#graph .edge path')]
        .filter((e) => getComputedStyle(e).strokeDasharray !== 'none')
        .map((e) => e.parentElement.getAttribute('data-to')),
      expandable: [...document.querySelectorAll('svg#graph .expand')].map((e) => e.getAttribute('data-expand')),
      counts: document.getElementById('counts').textContent,
      legend: document.getElementById('legend').textContent,
    }));

  it('draws the answer, dashes resolved calls, opens a node on click and expands on +', async () => {
    const s1 = kit.mergeAnswer(kit.emptyState('call'), kit.fakes.first);
    await show(s1, 'Call graph: devices.c');
    await p.locator('svg#graph .node').nth(1).waitFor();
    let d = await drawn();
    assert.deepEqual(d.nodes, ['main', 'apply']);
    assert.deepEqual(d.edges, ['main -> apply (direct)']);
    assert.deepEqual(d.expandable, ['apply']);
    assert.equal(d.counts, '2 nodes, 1 edges');
    await p.screenshot({ path: join(ARTIFACTS, 'webview-1-first.png') });

    await p.locator('svg#graph .node[data-id="main"]').click();
    await p.locator('svg#graph .expand[data-expand="apply"]').click();
    const sent = await p.evaluate(() => window.sent.filter((m) => m.type !== 'ready'));
    assert.deepEqual(sent, [
      { type: 'open', id: 'main' },
      { type: 'expand', id: 'apply' },
    ]);

    const s2 = kit.mergeAnswer(s1, kit.fakes.expandApply, 'apply');
    await show(s2, 'Call graph: devices.c');
    await p.locator('svg#graph .node').nth(3).waitFor();
    d = await drawn();
    assert.deepEqual(d.nodes, ['main', 'apply', 'inc', 'dec']);
    assert.deepEqual(d.edges, ['main -> apply (direct)', 'apply -> inc (indirect)', 'apply -> dec (indirect)']);
    assert.deepEqual(d.dashed, ['inc', 'dec']);
    assert.deepEqual(d.expandable, ['main']);
    assert.match(d.legend, /direct call.*through a function pointer or virtual call/);
    await p.screenshot({ path: join(ARTIFACTS, 'webview-2-expanded.png') });
  });

  it('draws an invocation graph with its recursion and a pointer flow graph', async () => {
    await show(kit.mergeAnswer(kit.emptyState('invocation'), kit.fakes.invocation), 'Invocation graph: walk.c');
    await p.locator('svg#graph[data-kind="invocation"] .node').nth(3).waitFor();
    let d = await drawn();
    assert.deepEqual(d.edges, ['main#0 -> walk#1 (direct)', 'walk#1 -> walk#2 (indirect)', 'walk#2 -> walk#1 (recursion)', 'walk#1 -> visit#3 (indirect)']);
    assert.deepEqual(d.dashed.sort(), ['visit#3', 'walk#1', 'walk#2']);
    await p.screenshot({ path: join(ARTIFACTS, 'webview-3-invocation.png') });
    await show(kit.mergeAnswer(kit.emptyState('pointerFlow'), kit.fakes.pointerFlow), 'Pointer flow graph: Main.java');
    await p.locator('svg#graph[data-kind="pointerFlow"] .node').nth(3).waitFor();
    d = await drawn();
    assert.deepEqual(d.nodes, ['o:12', 'v:Main.main/a', 'v:Main.main/b', 'f:A.next']);
    assert.match(d.legend, /allocation.*field store/);
    await p.screenshot({ path: join(ARTIFACTS, 'webview-4-pointer-flow.png') });
  });
});

describe('pointee in VS Code (code-server in Chromium)', { timeout: 15 * 60_000 }, () => {
  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'pointee-vscode-e2e-'));
    ws = join(tmp, 'project');
    cpSync(join(HERE, 'fixture'), ws, { recursive: true });
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(join(ws, '.vscode', 'settings.json'), '{}');
    const data = join(tmp, 'data');
    const ext = join(tmp, 'extensions');
    mkdirSync(join(data, 'User'), { recursive: true });
    writeFileSync(
      join(data, 'User', 'settings.json'),
      JSON.stringify(
        {
          'workbench.startupEditor': 'none',
          'workbench.tips.enabled': false,
          'workbench.enableExperiments': false,
          'security.workspace.trust.enabled': false,
          'telemetry.telemetryLevel': 'off',
          'extensions.autoCheckUpdates': false,
          'extensions.autoUpdate': false,
          'extensions.ignoreRecommendations': true,
          'update.mode': 'none',
          'window.restoreWindows': 'none',
          'files.hotExit': 'off',
          'editor.minimap.enabled': false,
          'chat.disableAIFeatures': true,
          'workbench.secondarySideBar.defaultVisibility': 'hidden',
        },
        null,
        2,
      ),
    );
    const childEnv = { ...process.env, XDG_CONFIG_HOME: join(tmp, 'config'), XDG_DATA_HOME: join(tmp, 'xdg-data') };
    const common = ['--user-data-dir', data, '--extensions-dir', ext];
    await run(NODE, [CODE_SERVER, ...common, '--install-extension', VSIX], { env: childEnv });
    const installed = readdirSync(ext).find((d) => d.startsWith('pointee.pointee-'));
    assert.ok(installed, `the .vsix installed into ${ext}: ${readdirSync(ext)}`);
    serverBinary = join(ext, installed, 'server', 'pointee');

    const port = await freePort();
    const log = openSync(join(ARTIFACTS, 'code-server.log'), 'w');
    codeServer = spawn(
      NODE,
      [
        CODE_SERVER,
        '--bind-addr', `127.0.0.1:${port}`,
        '--auth', 'none',
        ...common,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        ws,
      ],
      { env: childEnv, detached: true, stdio: ['ignore', log, log] },
    );
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000);

    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.setDefaultTimeout(STEP_MS);
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
    await page.locator('.monaco-workbench').waitFor();
    await page.locator('.statusbar').waitFor();
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await stopCodeServer();
    if (tmp) {
      // The extension host's log says why, when a step failed.
      try {
        const logs = join(tmp, 'data', 'logs');
        cpSync(logs, join(ARTIFACTS, 'logs'), { recursive: true });
      } catch {
        // no logs
      }
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('opens the fixture and the status bar reaches "ready"', { timeout: STEP_MS * 2 }, async () => {
    await step('ready', async () => {
      await openFile('devices.c');
      await page.locator('.monaco-editor .view-lines', { hasText: 'open_fn' }).waitFor();
      const item = page.locator('.statusbar-item', { hasText: /pointee: ready \(/ });
      await item.waitFor();
      const text = spaces(await item.innerText()).trim();
      assert.match(text, /^pointee: ready \(\d+(\.\d)? m?s\)$/, text);
    });
  });

  it('hover on a function pointer shows its points-to set under a pointee heading', { timeout: STEP_MS * 2 }, async () => {
    await step('hover', async () => {
      const [line, column] = position('devices.c', 'open_fn(dev->file)');
      await goTo(line, column);
      await command('Show or Focus Hover');
      const hover = page.locator('.monaco-hover', { hasText: 'disk_open' });
      await hover.waitFor();
      const text = spaces(await hover.innerText());
      assert.match(text, /pointee — points-to/, text);
      assert.match(text, /open_fn/, text);
      assert.match(text, /possibly: disk_open\b.*, tty_open\b/, text);
      assert.match(text, /May call: disk_open\b.*, tty_open\b/, text);
    });
    await page.keyboard.press('Escape');
  });

  it('go to definition on an indirect call lists every possible callee', { timeout: STEP_MS * 2 }, async () => {
    await step('definition', async () => {
      const [line, column] = position('devices.c', 'open_fn(dev->file)');
      await goTo(line, column);
      await command('Go to Definition');
      // Two answers: the peek view lists them.
      const peek = page.locator('.peekview-widget');
      await peek.waitFor();
      const rows = peek.locator('.monaco-list-row');
      await rows.nth(1).waitFor();
      const texts = (await rows.allInnerTexts()).map(spaces);
      const callees = texts.filter((t) => /int \w+_open\(/.test(t)).map((t) => /int (\w+_open)\(/.exec(t)[1]);
      assert.deepEqual(callees.sort(), ['disk_open', 'tty_open'], texts.join(' | '));
      assert.match(spaces(await peek.innerText()), /2 definitions|devices\.c/, 'the peek names the file');
    });
    await page.keyboard.press('Escape');
  });

  it('the Problems panel shows the failing alias check as a warning', { timeout: STEP_MS * 2 }, async () => {
    await step('problems', async () => {
      await command('Problems: Focus on Problems View');
      const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'NOALIAS' });
      await row.waitFor();
      const text = spaces(await row.innerText());
      const [line] = position('devices.c', 'NOALIAS(dev->ops');
      assert.match(text, /NOALIAS/, text);
      assert.match(text, new RegExp(`\\[Ln ${line}, Col 5\\]`), text);
      assert.equal(await row.locator('.codicon-warning').count(), 1, `a warning: ${text}`);
    });
  });

  it('the Problems panel shows the possible NULL dereference as a warning', { timeout: STEP_MS * 2 }, async () => {
    await step('problems-null', async () => {
      await command('Problems: Focus on Problems View');
      const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'may be NULL' });
      await row.waitFor();
      const text = spaces(await row.innerText());
      const [line] = position('devices.c', 'con->file->fd');
      assert.match(text, /`con` may be NULL where it is dereferenced/, text);
      assert.match(text, /null-deref/, text);
      assert.match(text, new RegExp(`\\[Ln ${line}, Col 5\\]`), text);
      assert.equal(await row.locator('.codicon-warning').count(), 1, `a warning: ${text}`);
    });
  });

  it('with go-to on indirect calls only, definition answers on the indirect call and nowhere else', { timeout: STEP_MS * 2 }, async () => {
    const [line, column] = position('devices.c', 'dev->file');
    const [declLine, declColumn] = position('devices.c', 'dev) {');
    await step('definition-elsewhere', async () => {
      // No neighbour installed: pointee answers the parameter's declaration.
      await goTo(line, column);
      await command('Go to Definition');
      await page.locator('.statusbar-item', { hasText: `Ln ${declLine}, Col ${declColumn}` }).waitFor();
    });
    await step('indirect-only', async () => {
      // As with clangd installed (pointee.goto.indirectCallsOnly: auto); read per request.
      writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'pointee.goto.indirectCallsOnly': 'on' }));
      await page.waitForTimeout(1000); // the settings file is watched
      await goTo(line, column);
      await command('Go to Definition');
      // VS Code says it found nothing, where pointee would answer the parameter's declaration.
      await page.locator('.monaco-editor-overlaymessage', { hasText: /No definition found/ }).waitFor();
      await screenshot('indirect-only-elsewhere');
      const [l2, c2] = position('devices.c', 'open_fn(dev->file)');
      await goTo(l2, c2);
      await command('Go to Definition');
      const rows = page.locator('.peekview-widget .monaco-list-row');
      await rows.nth(1).waitFor();
      const texts = (await rows.allInnerTexts()).map(spaces).join(' | ');
      assert.match(texts, /disk_open/);
      assert.match(texts, /tty_open/);
    });
    await page.keyboard.press('Escape');
    writeFileSync(join(ws, '.vscode', 'settings.json'), '{}');
  });

  it('the Java context sensitivity quick pick applies at once, without a new server', { timeout: STEP_MS * 3 }, async () => {
    const servers = () => serverPids(serverBinary);
    const before = servers();
    assert.equal(before.length, 1, `one server runs: ${before}`);
    await openFile('Boxes.java');
    const [line, column] = position('Boxes.java', 'x.get()');
    const hoverText = async () => {
      await goTo(line, column);
      await command('Show or Focus Hover');
      const hover = page.locator('.monaco-hover', { hasText: 'new One()' });
      await hover.waitFor();
      const text = spaces(await hover.innerText());
      await page.keyboard.press('Escape');
      return text;
    };
    await step('java-2-obj', async () => {
      const text = await hoverText();
      assert.doesNotMatch(text, /new Two\(\)/, `2-obj tells the boxes apart: ${text}`);
    });
    await step('java-quick-pick', async () => {
      await command('pointee: Choose Java Context Sensitivity');
      const row = page.locator('.quick-input-list .monaco-list-row').filter({
        has: page.locator('.label-name').filter({ hasText: /^\s*ci\s*$/ }),
      });
      await row.waitFor();
      assert.match(spaces(await page.locator('.quick-input-list').innerText()), /2-obj\s*object sensitive.*\(current\)/);
      await screenshot('java-quick-pick-open');
      await row.click();
    });
    await step('java-ci', async () => {
      // The server re-analyses after the configuration change.
      const deadline = Date.now() + 30_000;
      let text = '';
      while (Date.now() < deadline && !/new Two\(\)/.test(text)) {
        text = await hoverText();
      }
      assert.match(text, /new One\(\) at 9.*\n?.*new Two\(\) at 10/s, `ci merges the boxes: ${text}`);
      const saved = JSON.parse(readFileSync(join(ws, '.vscode', 'settings.json'), 'utf8'));
      assert.equal(saved['pointee.java.contextSensitivity'], 'ci');
      assert.deepEqual(servers(), before, 'the same server process answered');
    });
  });

  it('the graph command shows what the server answers for pointee/graph', { timeout: STEP_MS * 2 }, async () => {
    const [line, column] = position('devices.c', 'open_fn(dev->file)');
    // What the server itself answers, asked without the extension.
    const lsp = new Lsp(serverBinary);
    let answer;
    try {
      await lsp.initialize(pathToFileURL(ws).href);
      answer = await lsp.request('pointee/graph', {
        textDocument: { uri: pathToFileURL(join(ws, 'devices.c')).href },
        position: { line: line - 1, character: column - 1 },
        kind: 'call',
        depth: 2,
        maxNodes: 150,
      });
    } finally {
      await lsp.close();
    }
    await openFile('devices.c');
    await goTo(line, column);
    assert.equal(answer.error, undefined, JSON.stringify(answer.error));
    const graph = answer.result;
    assert.ok(graph && graph.nodes.length > 0, 'the server answers a graph for start()');
    await step('graph', async () => {
      await command('pointee: Show Call Graph');
      const frame = await webviewFrame();
      await frame.locator('svg#graph .node').first().waitFor();
      const nodes = await frame.locator('svg#graph .node').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
      const edges = await frame
        .locator('svg#graph .edge')
        .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-from')} -> ${e.getAttribute('data-to')} (${e.getAttribute('data-kind')})`));
      assert.deepEqual(nodes.sort(), graph.nodes.map((n) => n.id).sort());
      // One drawn edge per (from, to, kind, call site), as docs/lsp.md says.
      const site = (e) => (e.location ? `${e.location.uri}:${e.location.range.start.line}:${e.location.range.start.character}` : '');
      const unique = new Map(graph.edges.map((e) => [`${e.from}|${e.to}|${e.kind}|${site(e)}`, `${e.from} -> ${e.to} (${e.kind})`]));
      assert.deepEqual(edges.sort(), [...unique.values()].sort());
    });
    await step('graph-click-opens', async () => {
      // Clicking a node with a location opens its source there.
      const target = graph.nodes.find((n) => n.location && !graph.roots.includes(n.id)) ?? graph.nodes.find((n) => n.location);
      assert.ok(target, 'some node has a location');
      const frame = await webviewFrame();
      await frame.locator(`svg#graph .node[data-id="${target.id}"]`).click();
      const at = `Ln ${target.location.range.start.line + 1}, Col ${target.location.range.start.character + 1}`;
      await page.locator('.statusbar-item', { hasText: at }).waitFor();
    });
  });

  it('a server path that names no binary: a notification with a button to the setting; cleared, a new server starts', { timeout: STEP_MS * 3 }, async () => {
    const before = serverPids(serverBinary);
    await step('no-server', async () => {
      writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'pointee.serverPath': '/nowhere/pointee' }));
      const toast = page.locator('.notification-toast', { hasText: 'pointee.serverPath is set to "/nowhere/pointee", which is not an executable file.' });
      await toast.waitFor();
      await page.locator('.statusbar-item', { hasText: 'pointee: no server' }).waitFor();
      assert.deepEqual(serverPids(serverBinary), [], 'the old server stopped');
      await page.waitForTimeout(500); // the toast fades in
      await screenshot('no-server-notification');
      await toast.getByRole('button', { name: 'Open Setting' }).click();
      await page.locator('.settings-editor .setting-item-contents', { hasText: 'Server Path' }).first().waitFor();
    });
    await step('server-again', async () => {
      writeFileSync(join(ws, '.vscode', 'settings.json'), '{}');
      await page.locator('.statusbar-item', { hasText: /pointee: ready \(/ }).waitFor();
      const now = serverPids(serverBinary);
      assert.equal(now.length, 1, `one server runs: ${now}`);
      assert.notDeepEqual(now, before, 'a new server process');
    });
  });
});

/** The pids of the running `BINARY lsp` processes. */
function serverPids(binary) {
  const pids = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (argv[0] === binary && argv[1] === 'lsp') {
        pids.push(Number(pid));
      }
    } catch {
      // gone
    }
  }
  return pids.sort();
}

/** The frame of the graph webview (webviews are nested iframes). */
async function webviewFrame() {
  const deadline = Date.now() + STEP_MS;
  for (;;) {
    for (const f of page.frames()) {
      if (await f.locator('svg#graph').count().catch(() => 0)) {
        return f;
      }
    }
    if (Date.now() > deadline) {
      throw new Error('no webview with the graph');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
