// What the status bar says (src/status.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatMs, fromNotification, statusView } from '../../src/status';

test('ready says how long the last analysis took', () => {
  assert.equal(statusView({ state: 'ready', ms: 42 }).text, '$(check) pointee: ready (42 ms)');
  assert.equal(statusView({ state: 'ready' }).text, '$(check) pointee: ready');
  assert.equal(formatMs(1234), '1.2 s');
  assert.equal(formatMs(65_000), '65 s');
});

test('partial and failed stand out; failed and partial open the output', () => {
  const partial = statusView(fromNotification({ state: 'ready', ms: 2000, partial: true, message: 'step budget' }));
  assert.equal(partial.text, '$(warning) pointee: partial (2.0 s)');
  assert.equal(partial.severity, 'warning');
  assert.match(partial.tooltip, /step budget/);
  const failed = statusView(fromNotification({ state: 'failed', message: 'analysis failed: boom' }));
  assert.deepEqual(failed, {
    text: '$(error) pointee: failed',
    tooltip: 'pointee: analysis failed: boom (click for the output)',
    command: 'pointee.showOutput',
    severity: 'error',
  });
});

test('analysing shows the progress; stopped offers a restart; no server opens the setting', () => {
  assert.equal(statusView({ state: 'analysing', percentage: 40.4 }).text, '$(sync~spin) pointee: analysing 40%');
  assert.equal(statusView({ state: 'analysing' }).text, '$(sync~spin) pointee: analysing');
  assert.equal(statusView({ state: 'stopped' }).command, 'pointee.restartServer');
  assert.equal(statusView({ state: 'noServer', message: 'x' }).command, 'pointee.openServerSetting');
});
