// The extension's settings as the server's configuration (src/config.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  indirectCallsOnly,
  LIVE_SETTINGS,
  neighboursFrom,
  PROPOSED_SETTINGS,
  serverConfiguration,
} from '../../src/config';

// The bundled test runs from out/test/unit/: the manifest is three folders up.
const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
const declared: Record<string, { default: unknown }> = manifest.contributes.configuration.properties;

/** Reads the manifest's defaults, with `over` on top (as VS Code would). */
function reader(over: Record<string, unknown> = {}) {
  return (key: string) => (key in over ? over[key] : declared[`pointee.${key}`]?.default);
}

const none = { c: false, java: false };

test('the defaults give the server its own defaults', () => {
  assert.deepEqual(serverConfiguration(reader(), none), {
    pointee: {
      java: { contextSensitivity: '2-obj', entry: null },
      c: { contextBound: 256, mallocMayFail: true },
      budget: { steps: null, ms: null, maxMemoryMb: 2048 },
      diagnostics: {
        aliasChecks: true,
        okChecks: true,
        notes: true,
        checks: {
          'null-deref': true,
          'uninit-deref': true,
          'use-after-free': true,
          'double-free': true,
          'free-non-heap': true,
          'dangling-stack': true,
          'alias-overlap': true,
          'cast-may-fail': true,
          'unreachable-method': true,
        },
      },
      inlayHints: { enable: false },
      goto: { indirectCallsOnly: { c: false, java: false } },
      debounceMs: 150,
    },
  });
});

test('changed settings reach the server under its key names', () => {
  const c = serverConfiguration(
    reader({
      'java.contextSensitivity': '1-call',
      'java.entry': ' Main ',
      'c.contextBound': 8,
      'budget.steps': 5000,
      'budget.ms': 0,
      'diagnostics.okChecks': false,
      'diagnostics.checks': { 'null-deref': false, bogus: 'yes' },
      'inlayHints.enable': true,
      'c.mallocMayFail': false,
      debounceMs: 0,
    }),
    none,
  ).pointee;
  assert.equal(c.java.contextSensitivity, '1-call');
  assert.equal(c.java.entry, 'Main');
  assert.equal(c.c.contextBound, 8);
  assert.equal(c.c.mallocMayFail, false);
  assert.deepEqual(c.budget, { steps: 5000, ms: null, maxMemoryMb: 2048 });
  assert.equal(c.diagnostics.okChecks, false);
  assert.deepEqual(c.diagnostics.checks, { 'null-deref': false });
  assert.equal(c.inlayHints.enable, true);
  assert.equal(c.debounceMs, 0);
});

test('cleared or nonsensical values are sent as null (the server keeps a missing key)', () => {
  const c = serverConfiguration(
    reader({ 'java.entry': '', 'java.contextSensitivity': undefined, 'c.contextBound': -3, debounceMs: 'soon' }),
    none,
  ).pointee;
  assert.equal(c.java.entry, null);
  assert.equal(c.java.contextSensitivity, null);
  assert.equal(c.c.contextBound, null);
  assert.equal(c.debounceMs, 150);
});

test('go-to on indirect calls only: auto follows the neighbours, per language', () => {
  const clangd = neighboursFrom((id) => id === 'llvm-vs-code-extensions.vscode-clangd');
  assert.deepEqual(clangd, { c: true, java: false });
  assert.deepEqual(neighboursFrom((id) => id === 'redhat.java'), { c: false, java: true });
  assert.deepEqual(neighboursFrom((id) => id === 'ms-vscode.cpptools'), { c: true, java: false });
  assert.equal(indirectCallsOnly('auto', clangd, 'c'), true);
  assert.equal(indirectCallsOnly('auto', clangd, 'java'), false);
  assert.equal(indirectCallsOnly('off', clangd, 'c'), false);
  assert.equal(indirectCallsOnly('on', none, 'java'), true);
  assert.equal(indirectCallsOnly(undefined, clangd, 'c'), true);
  assert.deepEqual(serverConfiguration(reader(), clangd).pointee.goto, { indirectCallsOnly: { c: true, java: false } });
  assert.deepEqual(serverConfiguration(reader({ 'goto.indirectCallsOnly': 'off' }), clangd).pointee.goto, {
    indirectCallsOnly: { c: false, java: false },
  });
});

test('every setting the manifest declares is sent, and is either live or proposed', () => {
  const keys = Object.keys(declared)
    .map((k) => k.slice('pointee.'.length))
    .filter((k) => !['serverPath', 'trace.server'].includes(k))
    .sort();
  assert.deepEqual(keys, [...LIVE_SETTINGS, ...PROPOSED_SETTINGS].sort());
  const sent = serverConfiguration(reader(), none).pointee as Record<string, unknown>;
  for (const k of keys) {
    const value = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown> | undefined)?.[p], sent);
    assert.notEqual(value, undefined, `pointee.${k} is not sent`);
  }
});
