// `npm run package`: a .vsix with the pointee server for this platform
// inside (server/pointee), named pointee-TARGET-VERSION.vsix.
// The server is $POINTEE_SERVER_BINARY when set, else the workspace's
// release build (`cargo build --release --bin pointee`, run here; a no-op
// when it is up to date).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repo = resolve(here, '..', '..');
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: 'inherit', ...opts });

const targets = { 'linux-x64': 1, 'linux-arm64': 1, 'linux-armhf': 1, 'darwin-x64': 1, 'darwin-arm64': 1, 'win32-x64': 1, 'win32-arm64': 1 };
const os = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform];
const cpu = { x64: 'x64', arm64: 'arm64', arm: 'armhf' }[process.arch];
const target = `${os}-${cpu}`;
if (!targets[target]) {
  console.error(`package: no VS Code target for ${process.platform}-${process.arch}`);
  process.exit(2);
}
const exe = process.platform === 'win32' ? 'pointee.exe' : 'pointee';

let binary = process.env.POINTEE_SERVER_BINARY;
if (!binary) {
  run('cargo', ['build', '--release', '--bin', 'pointee'], { cwd: repo });
  const targetDir = process.env.CARGO_TARGET_DIR ? resolve(repo, process.env.CARGO_TARGET_DIR) : join(repo, 'target');
  binary = join(targetDir, 'release', exe);
}

const server = join(here, 'server');
rmSync(server, { recursive: true, force: true });
mkdirSync(server);
const bundled = join(server, exe);
copyFileSync(binary, bundled);
chmodSync(bundled, 0o755);
// The release build keeps symbols; the package does not need them.
if (process.platform === 'linux') {
  try {
    run('strip', [bundled]);
  } catch {
    console.warn('package: strip failed; the server goes in with its symbols');
  }
}

run(process.execPath, [join(here, 'scripts', 'build.mjs')], { cwd: here });
const { version } = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const out = `pointee-${target}-${version}.vsix`;
run(
  process.execPath,
  [
    join(here, 'node_modules', '@vscode', 'vsce', 'vsce'),
    'package',
    '--target', target,
    '--no-dependencies',
    '--skip-license',
    '--allow-missing-repository',
    '--out', out,
  ],
  { cwd: here },
);
console.log(`package: ${join(here, out)}`);
