// The HTML of the graph webview. No `vscode` here: the end-to-end test loads
// the same page in Chromium with a stand-in for the webview API.

export interface PageParts {
  /** The webview's source for the Content-Security-Policy. */
  cspSource: string;
  script: string;
  style: string;
  nonce: string;
  title: string;
}

export function graphPage(p: PageParts): string {
  const csp = [
    "default-src 'none'",
    `style-src ${p.cspSource}`,
    `script-src 'nonce-${p.nonce}'`,
    `img-src ${p.cspSource}`,
  ].join('; ');
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${esc(p.style)}">
<title>${esc(p.title)}</title>
</head>
<body>
<header id="toolbar">
  <span id="title">${esc(p.title)}</span>
  <span id="partial" hidden>partial</span>
  <span id="counts"></span>
  <span id="legend"></span>
  <button id="fit" title="Fit the graph to the window">Fit</button>
</header>
<svg id="graph" role="img" aria-label="${esc(p.title)}"></svg>
<script nonce="${p.nonce}" src="${esc(p.script)}"></script>
</body>
</html>`;
}
