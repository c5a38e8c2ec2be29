/**
 * The production layout: what an image (or a node without the repository) holds. The root
 * package.json and package-lock.json, every workspace's package.json (npm ci checks the lockfile
 * against all of them), and for the workspaces shipped, the entries of their package.json `files`
 * (dist/, plus assets such as libs/proto's .proto files): never src/, tests or tooling. Then
 * `npm ci --omit=dev --workspace ...` installs production dependencies only. The Dockerfiles and
 * the e2e test of the built output both use this, so what is tested is what is shipped.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

interface LockEntry {
  readonly name?: string;
  readonly dependencies?: Readonly<Record<string, string>>;
}

interface WorkspaceManifest {
  readonly name: string;
  readonly files?: readonly string[];
}

export interface ProductionLayout {
  /** The workspace folders whose files were copied (the requested ones and their workspace dependencies). */
  readonly shipped: readonly string[];
  /** The workspace package names to install (`npm ci --workspace`). */
  readonly workspaces: readonly string[];
}

/**
 * Writes the layout of `packages` (workspace package names, e.g. `@hookgate/cli`) into `outDir`.
 * Throws, naming the package, when a shipped package has no `files` or a listed file is missing
 * (dist/ not built: run `npm run build`).
 */
export async function writeProductionLayout(
  repoRoot: string,
  outDir: string,
  packages: readonly string[],
): Promise<ProductionLayout> {
  const lock = JSON.parse(await readFile(join(repoRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  // Workspace folders are the lockfile's entries outside node_modules (the root is '').
  const folders = Object.keys(lock.packages).filter((key) => key !== '' && !key.includes('node_modules/'));
  const folderOf = new Map(folders.map((folder) => [lock.packages[folder]!.name ?? folder, folder]));

  const shipped = new Set<string>();
  const visit = (name: string): void => {
    const folder = folderOf.get(name);
    if (folder === undefined) throw new Error(`production layout: ${name} is not a workspace of ${repoRoot}`);
    if (shipped.has(folder)) return;
    shipped.add(folder);
    for (const dependency of Object.keys(lock.packages[folder]!.dependencies ?? {}))
      if (folderOf.has(dependency)) visit(dependency);
  };
  for (const name of packages) visit(name);

  await mkdir(outDir, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) await cp(join(repoRoot, file), join(outDir, file));
  for (const folder of folders) {
    await mkdir(join(outDir, folder), { recursive: true });
    await cp(join(repoRoot, folder, 'package.json'), join(outDir, folder, 'package.json'));
  }
  for (const folder of shipped) await copyShippedFiles(join(repoRoot, folder), join(outDir, folder));
  return { shipped: [...shipped].sort(), workspaces: [...packages] };
}

async function copyShippedFiles(from: string, to: string): Promise<void> {
  const manifest = JSON.parse(await readFile(join(from, 'package.json'), 'utf8')) as WorkspaceManifest;
  if (manifest.files === undefined || manifest.files.length === 0)
    throw new Error(`production layout: ${manifest.name} has no "files" in its package.json: list what it ships`);
  for (const entry of manifest.files) {
    const source = join(from, entry);
    const found = await stat(source).catch(() => undefined);
    if (found === undefined)
      throw new Error(`production layout: ${manifest.name} ships ${entry}, which is missing: run \`npm run build\``);
    await mkdir(dirname(join(to, entry)), { recursive: true });
    await cp(source, join(to, entry), { recursive: true });
  }
}

export interface InstallOptions {
  /** Use only the npm cache (no registry): the cache an earlier `npm ci` filled. */
  readonly offline?: boolean;
  readonly timeoutMs?: number;
}

/** `npm ci --omit=dev` for the layout's workspaces, run in `outDir`. */
export async function installProductionDependencies(
  outDir: string,
  layout: ProductionLayout,
  options: InstallOptions = {},
): Promise<void> {
  const args = [
    'ci',
    '--omit=dev',
    '--no-audit',
    '--no-fund',
    '--ignore-scripts',
    options.offline ? '--offline' : '--prefer-offline',
    ...layout.workspaces.flatMap((name) => ['--workspace', name]),
  ];
  const env = { ...process.env };
  // The repository's development condition (its .npmrc) must not leak into the layout's scripts.
  delete env['NODE_OPTIONS'];
  delete env['npm_config_node_options'];
  await promisify(execFile)('npm', args, { cwd: outDir, env, timeout: options.timeoutMs ?? 180_000 });
}
