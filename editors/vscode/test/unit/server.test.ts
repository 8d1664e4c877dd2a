// Which `pointee` binary the extension starts (src/server.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bundledServerPath, resolveServer, ServerLookup, vsceTarget } from '../../src/server';

function lookup(executables: string[], over: Partial<ServerLookup> = {}): ServerLookup {
  const set = new Set(executables);
  return {
    setting: '',
    extensionPath: '/ext',
    workspaceFolder: '/ws',
    pathEnv: '/usr/local/bin:/usr/bin',
    homeDir: '/home/u',
    platform: 'linux',
    isExecutable: (p) => set.has(p),
    ...over,
  };
}

test('the setting wins over the bundled binary and PATH', () => {
  const r = resolveServer(lookup(['/opt/pointee', '/ext/server/pointee', '/usr/bin/pointee'], { setting: '/opt/pointee' }));
  assert.deepEqual(r, { path: '/opt/pointee', source: 'setting' });
});

test('a setting that names no executable is an error, with no fallback', () => {
  const r = resolveServer(lookup(['/ext/server/pointee'], { setting: '/nowhere/pointee' }));
  assert.deepEqual(r, {
    error: 'pointee.serverPath is set to "/nowhere/pointee", which is not an executable file.',
    source: 'setting',
  });
});

test('the setting expands ~ and is relative to the workspace folder', () => {
  assert.deepEqual(resolveServer(lookup(['/home/u/bin/pointee'], { setting: '~/bin/pointee' })), {
    path: '/home/u/bin/pointee',
    source: 'setting',
  });
  assert.deepEqual(resolveServer(lookup(['/ws/target/release/pointee'], { setting: 'target/release/pointee' })), {
    path: '/ws/target/release/pointee',
    source: 'setting',
  });
  assert.deepEqual(resolveServer(lookup(['/opt/p'], { setting: '  /opt/p  ' })), { path: '/opt/p', source: 'setting' });
});

test('without a setting: the bundled binary, then PATH in order', () => {
  assert.deepEqual(resolveServer(lookup(['/ext/server/pointee', '/usr/bin/pointee'])), {
    path: '/ext/server/pointee',
    source: 'bundled',
  });
  assert.deepEqual(resolveServer(lookup(['/usr/bin/pointee', '/usr/local/bin/pointee'])), {
    path: '/usr/local/bin/pointee',
    source: 'path',
  });
  assert.deepEqual(resolveServer(lookup(['/usr/bin/pointee'], { pathEnv: '::/usr/bin:' })), {
    path: '/usr/bin/pointee',
    source: 'path',
  });
});

test('nothing found says how to fix it', () => {
  const r = resolveServer(lookup([], { pathEnv: undefined }));
  assert.ok('error' in r);
  assert.match(r.error, /^No pointee server found/);
  assert.match(r.error, /pointee\.serverPath/);
});

test('Windows: pointee.exe and ; in PATH', () => {
  assert.equal(bundledServerPath('/ext', 'win32'), '/ext/server/pointee.exe');
  const r = resolveServer(lookup(['/b/pointee.exe'], { platform: 'win32', pathEnv: '/a;/b' }));
  assert.deepEqual(r, { path: '/b/pointee.exe', source: 'path' });
});

test('the package target of this platform', () => {
  assert.equal(vsceTarget('linux', 'x64'), 'linux-x64');
  assert.equal(vsceTarget('darwin', 'arm64'), 'darwin-arm64');
  assert.equal(vsceTarget('linux', 'arm'), 'linux-armhf');
  assert.equal(vsceTarget('aix', 'ppc64'), undefined);
});
