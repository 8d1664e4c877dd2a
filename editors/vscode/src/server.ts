// Where the `pointee` binary comes from: the `pointee.serverPath` setting,
// else the binary bundled in the package, else `PATH`. No `vscode` here:
// the file system is passed in, so the unit tests run it under plain Node.

import * as path from 'path';

export type ServerSource = 'setting' | 'bundled' | 'path';

export type Resolved = { path: string; source: ServerSource } | { error: string; source?: ServerSource };

export interface ServerLookup {
  /** `pointee.serverPath` ('' when unset). */
  setting: string;
  /** The extension's own folder (the bundled binary is `server/pointee` in it). */
  extensionPath: string;
  /** The first workspace folder, for a relative `pointee.serverPath`. */
  workspaceFolder?: string;
  /** The `PATH` environment variable. */
  pathEnv?: string;
  homeDir: string;
  platform: NodeJS.Platform;
  /** Whether `p` is a file this user may execute. */
  isExecutable(p: string): boolean;
}

export function binaryName(platform: NodeJS.Platform): string {
  return platform === 'win32' ? 'pointee.exe' : 'pointee';
}

/** Where `npm run package` puts the server inside the extension. */
export function bundledServerPath(extensionPath: string, platform: NodeJS.Platform): string {
  return path.join(extensionPath, 'server', binaryName(platform));
}

/** `~/x` and paths relative to the workspace folder, made absolute. */
export function expandSetting(setting: string, homeDir: string, workspaceFolder?: string): string {
  let p = setting.trim();
  if (p === '~' || p.startsWith('~/')) {
    p = path.join(homeDir, p.slice(1));
  }
  if (!path.isAbsolute(p) && workspaceFolder !== undefined) {
    p = path.join(workspaceFolder, p);
  }
  return p;
}

/**
 * The binary to start. An explicit setting that names no executable is an
 * error (the user asked for that one); otherwise the bundled binary, then
 * `PATH`.
 */
export function resolveServer(l: ServerLookup): Resolved {
  if (l.setting.trim() !== '') {
    const p = expandSetting(l.setting, l.homeDir, l.workspaceFolder);
    if (l.isExecutable(p)) {
      return { path: p, source: 'setting' };
    }
    return {
      error: `pointee.serverPath is set to "${l.setting}", which is not an executable file.`,
      source: 'setting',
    };
  }
  const bundled = bundledServerPath(l.extensionPath, l.platform);
  if (l.isExecutable(bundled)) {
    return { path: bundled, source: 'bundled' };
  }
  const name = binaryName(l.platform);
  const sep = l.platform === 'win32' ? ';' : ':';
  for (const dir of (l.pathEnv ?? '').split(sep)) {
    if (dir === '') {
      continue;
    }
    const p = path.join(dir, name);
    if (l.isExecutable(p)) {
      return { path: p, source: 'path' };
    }
  }
  return {
    error:
      'No pointee server found: this package holds none for this platform and there is no `pointee` on PATH. ' +
      'Set pointee.serverPath to the `pointee` binary (cargo build --release --bin pointee builds it).',
  };
}

/** The vsce target of this platform (the package holds one binary). */
export function vsceTarget(platform: NodeJS.Platform, arch: string): string | undefined {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[platform as string];
  const cpu = { x64: 'x64', arm64: 'arm64', arm: 'armhf' }[arch];
  return os && cpu ? `${os}-${cpu}` : undefined;
}
