// What the browser test of the graph webview (tests/vscode/e2e.test.mjs)
// needs from the extension's sources, bundled by `build.mjs --tests` into
// out/test/webview-kit.js: the page, the state merge and the fake answers.
export { graphPage } from '../src/graph/page';
export { emptyState, mergeAnswer } from '../src/graph/state';
export * as fakes from './fakes';
