// Bundles the extension (out/extension.js, for VS Code's Node), the graph
// webview's script (out/webview/graph.js, for the browser) and, with
// --tests, the unit tests (out/test/unit/*.test.js, for `node --test`).
// Type checking is `npm run typecheck` (tsc --noEmit); esbuild only strips.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const tests = process.argv.includes('--tests');
const common = { bundle: true, sourcemap: 'linked', logLevel: 'warning', target: 'es2022' };

await esbuild.build({
  ...common,
  entryPoints: ['src/extension.ts'],
  outfile: 'out/extension.js',
  platform: 'node',
  format: 'cjs',
  external: ['vscode'],
  minify: !tests,
});
await esbuild.build({
  ...common,
  entryPoints: ['src/webview/graph.ts'],
  outfile: 'out/webview/graph.js',
  platform: 'browser',
  format: 'iife',
  minify: !tests,
});
if (tests) {
  rmSync('out/test', { recursive: true, force: true });
  const dir = 'test/unit';
  await esbuild.build({
    ...common,
    entryPoints: [
      ...readdirSync(dir).filter((f) => f.endsWith('.test.ts')).map((f) => join(dir, f)),
      'test/webview-kit.ts',
    ],
    outdir: 'out/test',
    outbase: 'test',
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
  });
}
