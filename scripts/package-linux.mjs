#!/usr/bin/env node
// `npm run package:linux`: release/tributary-agent_<version>_<arch>.deb, the headless agent and its
// console for an edge PC without internet: the built product (dist/, no test code, no source maps),
// its production dependencies only (no dev dependencies, no packages only the console's bundle
// uses), and its own Node runtime (this Node, which the native modules were built for) under
// /usr/lib/tributary/; /usr/bin/tributary; the systemd unit tributary.service; /etc/default/tributary
// (a conffile); maintainer scripts that create the user and the data directory /var/lib/tributary.
// Needs dpkg-deb (Debian, Ubuntu). Options: --version V (default: package.json's), --out DIR,
// --compress none|gzip (default gzip), --no-build (package dist/ as it is).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resources = path.join(root, 'resources', 'linux');
const { values } = parseArgs({ options: { version: { type: 'string' }, out: { type: 'string' }, compress: { type: 'string' }, 'no-build': { type: 'boolean' } } });
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const version = values.version ?? pkg.version;
const out = path.resolve(values.out ?? path.join(root, 'release'));
const compress = values.compress ?? 'gzip';

/** Bundled into dist/renderer by Vite: the headless agent never loads them from node_modules. */
const CONSOLE_ONLY = new Set([
  'react', 'react-dom', 'scheduler', 'monaco-editor', '@monaco-editor/react', '@monaco-editor/loader',
  '@tanstack/react-query', '@tanstack/query-core', 'uplot', 'marked', 'jsonc-parser', 'dompurify', 'state-local',
]);
/** Compiled files that are not the product: tests, test helpers, source maps, the desktop shell. */
const NOT_SHIPPED = /(^|\/)(testing|main|preload|\.tsbuildinfo)(\/|$)|\.test\.js$|\.map$|(^|\/)\.build-stamp$/;

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.status !== 0 && !options.allowFailure) {
    process.stderr.write(`${command} ${args.join(' ')} failed:\n${result.stdout ?? ''}${result.stderr ?? ''}\n`);
    process.exit(1);
  }
  return result.stdout ?? '';
}

function copyTree(from, to, skip = () => false, base = from) {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const relative = path.relative(base, source).split(path.sep).join('/');
    if (skip(relative)) continue;
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      fs.mkdirSync(target, { recursive: true });
      copyTree(source, target, skip, base);
    } else if (entry.isSymbolicLink()) {
      fs.symlinkSync(fs.readlinkSync(source), target);
    } else {
      fs.copyFileSync(source, target);
      fs.chmodSync(target, fs.statSync(source).mode & 0o755 | 0o644);
    }
  }
}

function install(from, to, mode) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
  fs.chmodSync(to, mode);
}

// 1. The product, built when sources changed (the same check npm run serve makes); --no-build takes
// dist/ as it is (the test suite built it already).
if (!values['no-build']) run(process.execPath, [path.join(root, 'scripts', 'build-if-needed.mjs')], { stdio: ['ignore', 'inherit', 'inherit'] });
for (const needed of ['dist/electron/cli.js', 'dist/renderer/index.html'])
  if (!fs.existsSync(path.join(root, needed))) {
    process.stderr.write(`${needed} is missing: run npm run build first.\n`);
    process.exit(1);
  }
const arch = run('dpkg', ['--print-architecture']).trim();
const stage = path.join(out, `stage-${arch}`);
fs.rmSync(stage, { recursive: true, force: true });
const app = path.join(stage, 'usr', 'lib', 'tributary', 'app');
fs.mkdirSync(app, { recursive: true });
copyTree(path.join(root, 'dist'), path.join(app, 'dist'), (relative) => NOT_SHIPPED.test(relative));
const shipped = { name: pkg.name, version, description: pkg.description, type: pkg.type, private: true, dependencies: pkg.dependencies };
fs.writeFileSync(path.join(app, 'package.json'), `${JSON.stringify(shipped, null, 2)}\n`);

// 2. Production dependencies, as installed here (native modules built for this Node), nothing else.
const listed = run('npm', ['ls', '--omit=dev', '--all', '--parseable'], { allowFailure: true }).split('\n').filter(Boolean);
const modules = path.join(root, 'node_modules');
let packages = 0;
for (const dir of listed) {
  if (!dir.startsWith(`${modules}${path.sep}`)) continue;
  const relative = path.relative(modules, dir);
  const top = relative.split(`${path.sep}node_modules${path.sep}`).at(-1);
  if (CONSOLE_ONLY.has(top) || CONSOLE_ONLY.has(relative.split(path.sep).slice(0, relative.startsWith('@') ? 2 : 1).join('/'))) continue;
  const target = path.join(app, 'node_modules', relative);
  if (fs.existsSync(target)) continue;
  fs.mkdirSync(target, { recursive: true });
  // A package's own nested node_modules are listed on their own.
  // Type declarations and source maps are for developers, not for running.
  copyTree(dir, target, (rel) => rel === 'node_modules' || rel.startsWith('node_modules/') || /\.(d\.[cm]?ts|map)$/.test(rel));
  packages += 1;
}

// 3. Its own Node, the command, the service, the defaults file, the docs.
install(process.execPath, path.join(stage, 'usr', 'lib', 'tributary', 'node'), 0o755);
install(path.join(resources, 'tributary.sh'), path.join(stage, 'usr', 'bin', 'tributary'), 0o755);
install(path.join(resources, 'tributary.service'), path.join(stage, 'lib', 'systemd', 'system', 'tributary.service'), 0o644);
install(path.join(resources, 'tributary.default'), path.join(stage, 'etc', 'default', 'tributary'), 0o644);
install(path.join(root, 'README.md'), path.join(stage, 'usr', 'share', 'doc', 'tributary-agent', 'README.md'), 0o644);
install(path.join(root, 'docs', 'install.md'), path.join(stage, 'usr', 'share', 'doc', 'tributary-agent', 'install.md'), 0o644);

// 4. Debian's control files.
const debian = path.join(stage, 'DEBIAN');
fs.mkdirSync(debian);
for (const script of ['postinst', 'prerm', 'postrm']) install(path.join(resources, script), path.join(debian, script), 0o755);
fs.writeFileSync(path.join(debian, 'conffiles'), '/etc/default/tributary\n');
const installedKb = Number(run('du', ['-sk', '--exclude=DEBIAN', stage]).split('\t')[0]);
fs.writeFileSync(
  path.join(debian, 'control'),
  [
    'Package: tributary-agent',
    `Version: ${version}`,
    `Architecture: ${arch}`,
    'Maintainer: Tributary <support@tributary.invalid>',
    `Installed-Size: ${installedKb}`,
    // Its own Node is inside: no nodejs. adduser for the service user; glibc as Node needs it.
    'Depends: adduser, libc6 (>= 2.28), libstdc++6',
    'Section: misc',
    'Priority: optional',
    'Homepage: https://tributary.invalid',
    'Description: Tributary edge data-collection agent',
    ' Reads machine data from folders, Windows shares, SQL databases, OPC UA servers and MQTT',
    ' brokers, keeps it safe on disk and delivers it to the cloud, a folder or the plant\'s broker.',
    ' Runs as the systemd service tributary.service (user tributary, data in /var/lib/tributary)',
    ' with its own Node.js runtime; its console is served on http://127.0.0.1:4900/.',
    '',
  ].join('\n'),
);

// 5. The package.
fs.mkdirSync(out, { recursive: true });
const deb = path.join(out, `tributary-agent_${version}_${arch}.deb`);
const level = compress === 'none' ? ['-Znone'] : ['-Zgzip', '-z6'];
run('dpkg-deb', ['--root-owner-group', ...level, '--build', stage, deb]);
fs.rmSync(stage, { recursive: true, force: true });
process.stdout.write(`${deb} (${(fs.statSync(deb).size / 1024 / 1024).toFixed(1)} MiB; ${packages} packages; installed ${Math.round(installedKb / 1024)} MiB)\n`);
