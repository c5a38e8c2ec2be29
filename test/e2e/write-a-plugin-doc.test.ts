/**
 * Keeps docs/write-a-plugin.md honest. Its files must be docs/examples/hello-plugin byte for byte,
 * and its commands must print what it shows. The plugin and the gateway run as separate processes
 * from the example folder, as the doc starts them, but on free ports and temp state dirs: the doc's
 * 127.0.0.1:7070 (plugin) is rewritten in a temp copy of hookgate/, its 127.0.0.1:8080 (gateway) in
 * the commands. Every process is stopped by pid.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { REPO_ROOT, startGateway, type GatewayProcess } from '@hookgate/devtools';
import { startPluginProcess, type PluginProcess } from '@hookgate/plugin-sdk/testing';

const DOC = join(REPO_ROOT, 'docs/write-a-plugin.md');
const EXAMPLE = join(REPO_ROOT, 'docs/examples/hello-plugin');
const DOC_GATEWAY = 'http://127.0.0.1:8080';
const DOC_PLUGIN_TARGET = 'target: 127.0.0.1:7070';
const START_TIMEOUT_MS = 60_000;

// Commands of the doc that this test starts itself (with free ports), or that only create the reader's folder.
const SERVE_STATIC = 'npx hookgate serve --config hookgate --insecure-http';
const SERVE_REGISTRY = 'npx hookgate serve --config self-registration --insecure-http';
const START_REGISTERED = 'node --conditions=development --import tsx src/main-registered.ts';
const REVIEW = 'npx hookgate review --config hookgate review.json';
const MKDIR = 'mkdir -p apps/plugins/hello && cd apps/plugins/hello && mkdir src hookgate self-registration';
const NOT_RUN = new Set([MKDIR, 'npm start', SERVE_STATIC, SERVE_REGISTRY, START_REGISTERED]);
const CALL_FAILED =
  'Internal error occurred: failed calling webhook "require-team.hello.example.com": failed to call webhook: ';

// ---- the doc, parsed -------------------------------------------------------------------------

interface Block {
  readonly lang: string;
  readonly body: string;
  /** `**path**` on the line before the fence: the block is that file. */
  readonly file: string | undefined;
}

interface Section {
  readonly title: string;
  readonly blocks: Block[];
}

/** A command block followed by its output block. */
interface Example {
  readonly section: string;
  readonly command: string;
  readonly output: string;
}

function parseDoc(markdown: string): Section[] {
  const sections: Section[] = [{ title: '', blocks: [] }];
  const fence = /^(?:\*\*([^*\s]+)\*\*\n\n)?```([a-z]*)\n([\s\S]*?)\n```$|^## (.+)$/gm;
  for (const m of markdown.matchAll(fence)) {
    if (m[4] !== undefined) sections.push({ title: m[4], blocks: [] });
    else sections.at(-1)!.blocks.push({ file: m[1], lang: m[2] ?? '', body: m[3] ?? '' });
  }
  return sections;
}

function examplesOf(sections: readonly Section[]): Example[] {
  const examples: Example[] = [];
  for (const { title, blocks } of sections) {
    blocks.forEach((block, i) => {
      const next = blocks[i + 1];
      if (block.lang === 'sh' && next !== undefined && next.lang !== 'sh' && next.file === undefined) {
        examples.push({ section: title, command: block.body, output: next.body });
      }
    });
  }
  return examples;
}

function section(sections: readonly Section[], words: string): string {
  const found = sections.find((s) => s.title.includes(words));
  if (found === undefined)
    throw new Error(`docs/write-a-plugin.md has no section "${words}" (the test runs its commands by section)`);
  return found.title;
}

async function exampleFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && !/(^|\/)(node_modules|\.hookgate)(\/|$)/.test(relative(EXAMPLE, e.parentPath)))
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

// ---- processes -------------------------------------------------------------------------------

/** The environment of this vitest run, minus what would make a nested vitest think it is a worker, without colours. */
const CHILD_ENV = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      // NODE_OPTIONS: a shell has not the development condition npm sets (.npmrc); commands give it.
      ([key]) => !key.startsWith('VITEST') && !['NODE_ENV', 'FORCE_COLOR', 'NODE_OPTIONS'].includes(key),
    ),
  ),
  NO_COLOR: '1',
};

/**
 * A plugin of the example, started as the doc starts it (`node [--conditions=development] --import tsx
 * <entry>`), from the example folder.
 */
function startExamplePlugin(command: string, env: Record<string, string>): PluginProcess {
  const [node, ...flags] = command.split(' ');
  const entry = flags.pop();
  expect([node, flags.filter((f) => f !== '--conditions=development')], `the doc's plugin command: ${command}`).toEqual(
    ['node', ['--import', 'tsx']],
  );
  return startPluginProcess({ cwd: EXAMPLE, entry: entry!, execArgv: flags, args: [], env: { ...CHILD_ENV, ...env } });
}

/** The first JSON log line of `plugin` whose msg is `msg` (seen or future). */
async function pluginLogLine(plugin: PluginProcess, msg: string): Promise<Record<string, unknown>> {
  const [line] = await plugin.waitForOutput(new RegExp(`^.*"msg":${JSON.stringify(msg)}.*$`, 'm'), START_TIMEOUT_MS);
  return JSON.parse(line) as Record<string, unknown>;
}

/** `hookgate serve` on the doc's configuration folder, on free ports and a temp state dir. */
function startDocGateway(configDir: string, stateDir: string): Promise<GatewayProcess> {
  return startGateway({ configPath: configDir, stateDir, readyTimeoutMs: START_TIMEOUT_MS });
}

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function sh(command: string, cwd = EXAMPLE): Promise<Ran> {
  return new Promise((done) => {
    execFile('sh', ['-c', command], { cwd, env: CHILD_ENV, timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** Runs a command of the doc against the gateway at `url` and checks it prints what the doc shows. */
async function expectShownOutput(example: Example, url?: string): Promise<void> {
  const command = url === undefined ? example.command : example.command.replaceAll(DOC_GATEWAY, url);
  const ran = await sh(command);
  expect({ command: example.command, code: ran.code, stdout: ran.stdout.trim() }, ran.stderr).toEqual({
    command: example.command,
    code: 0,
    stdout: example.output.trim(),
  });
}

// ---- the tests -------------------------------------------------------------------------------

describe('docs/write-a-plugin.md', () => {
  let sections: Section[];
  let examples: Example[];
  const verified = new Set<Example>();
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    for (const tool of ['curl', 'jq']) {
      const found = await sh(`command -v ${tool}`);
      if (found.code !== 0) throw new Error(`the doc's examples use ${tool}; install it to run this test`);
    }
    const markdown = await readFile(DOC, 'utf8');
    sections = parseDoc(markdown);
    examples = examplesOf(sections);
  });

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const inSection = (words: string): Example[] => {
    const title = section(sections, words);
    return examples.filter((e) => e.section === title);
  };

  it('shows every file of docs/examples/hello-plugin, exactly as it is', async () => {
    const shown = new Map(
      sections.flatMap((s) =>
        s.blocks.filter((b) => b.file !== undefined).map((b) => [b.file!, `${b.body}\n`] as const),
      ),
    );
    expect([...shown.keys()].sort()).toEqual(await exampleFiles(EXAMPLE));
    for (const [file, body] of shown)
      expect(body, `docs/write-a-plugin.md shows ${file} differently from docs/examples/hello-plugin/${file}`).toBe(
        await readFile(join(EXAMPLE, file), 'utf8'),
      );
  });

  it('runs only commands this test runs or starts', () => {
    const commands = sections.flatMap((s) => s.blocks.filter((b) => b.lang === 'sh').map((b) => b.body));
    const checked = new Set(examples.map((e) => e.command));
    expect(commands.filter((c) => !checked.has(c) && !NOT_RUN.has(c) && c !== 'npx vitest run')).toEqual([]);
    expect(commands).toEqual(expect.arrayContaining([...NOT_RUN, 'npx vitest run']));
  });

  it('the mkdir command creates the folders the files go in', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hookgate-doc-mkdir-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const ran = await sh(`${MKDIR} && find . -mindepth 1 -type d | sort`, root);
    const folders = new Set((await exampleFiles(EXAMPLE)).map((f) => dirname(f)).filter((d) => d !== '.'));
    expect(ran.stdout.split('\n').filter(Boolean)).toEqual([...folders].sort().map((d) => `./${d}`));
  });

  it('check-config prints what the doc shows', async () => {
    for (const example of inSection('Tell the gateway')) {
      await expectShownOutput(example);
      verified.add(example);
    }
  });

  it('the unit tests pass: npx vitest run', async () => {
    const ran = await sh('npx vitest run');
    expect(ran.code, `${ran.stdout}\n${ran.stderr}`).toBe(0);
    expect(ran.stdout).toMatch(/Tests\s+\S*\s*\d+ passed/);
  });

  describe('static configuration: plugin, gateway, reviews, then the plugin stopped', () => {
    let plugin: PluginProcess;
    let url: string;
    let configDir: string;

    beforeAll(async () => {
      const dir = await mkdtemp(join(tmpdir(), 'hookgate-doc-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const script = (
        JSON.parse(await readFile(join(EXAMPLE, 'package.json'), 'utf8')) as { scripts: { start: string } }
      ).scripts.start;
      expect(script).toBe('node --import tsx src/main.ts');
      // `npm start`: npm runs the script with the repository's node-options (.npmrc).
      plugin = startExamplePlugin(script, { LISTEN: '127.0.0.1:0', NODE_OPTIONS: '--conditions=development' });
      cleanups.push(() => plugin.stop());
      const target = String((await pluginLogLine(plugin, 'plugin serving'))['target']);

      // The doc's hookgate/ with the plugin's real port.
      configDir = join(dir, 'hookgate');
      await cp(join(EXAMPLE, 'hookgate'), configDir, { recursive: true });
      const gatewayYaml = await readFile(join(configDir, 'gateway.yaml'), 'utf8');
      expect(gatewayYaml).toContain(DOC_PLUGIN_TARGET);
      await writeFile(join(configDir, 'gateway.yaml'), gatewayYaml.replace(DOC_PLUGIN_TARGET, `target: ${target}`));
      const gateway = await startDocGateway(configDir, join(dir, 'state'));
      cleanups.push(() => gateway.stop());
      url = gateway.admissionUrl;
    });

    it('answers the reviews as the doc shows: the patch, the denial, the allowed object', async () => {
      const shown = inSection('Run it');
      expect(shown.length).toBeGreaterThanOrEqual(3);
      for (const example of shown) {
        await expectShownOutput(example, url);
        verified.add(example);
      }
    });

    it('hookgate review: the same decision, exit code 2', async () => {
      expect(await readFile(DOC, 'utf8')).toContain(`\`${REVIEW}\``);
      const ran = await sh(REVIEW.replace('--config hookgate', `--config ${configDir}`));
      expect(ran.code, ran.stderr).toBe(2);
      expect(ran.stdout).toContain('admission webhook "require-team.hello.example.com" denied the request');
      expect(ran.stdout).toContain('decision: denied');
    });

    it('with the plugin stopped (Ctrl-C), the failure policies decide as the doc shows', async () => {
      plugin.kill('SIGINT');
      expect(await plugin.exited()).toBe(0);
      const shown = inSection('Failure policy');
      expect(shown).toHaveLength(2);
      for (const example of shown) {
        await expectShownOutput(example, url);
        verified.add(example);
      }
      const answer = await sh(
        `curl -s -H 'Content-Type: application/json' --data @review.json '${url}/validate?timeout=10s' | jq -r .response.status.message`,
      );
      expect(answer.stdout).toContain(CALL_FAILED);
      expect((await readFile(DOC, 'utf8')).replace(/\s+/g, ' ')).toContain(`(\`${CALL_FAILED}…\``);
    });
  });

  describe('self-registration', () => {
    it('registers with the gateway and answers as the doc shows', async () => {
      const [docRegistry, stateDir] = await Promise.all([
        readFile(join(EXAMPLE, 'src/main-registered.ts'), 'utf8').then((ts) => /'unix:([^']+)'/.exec(ts)?.[1]),
        readFile(join(EXAMPLE, 'self-registration/gateway.yaml'), 'utf8').then(
          (y) => (parseYaml(y) as { stateDir: string }).stateDir,
        ),
      ]);
      // The plugin's default registry address is where that gateway configuration puts the socket.
      expect(docRegistry && resolve(EXAMPLE, docRegistry)).toBe(
        resolve(EXAMPLE, 'self-registration', stateDir, 'registry.sock'),
      );

      const dir = await mkdtemp(join(tmpdir(), 'hookgate-doc-registry-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const gateway = await startDocGateway(join(EXAMPLE, 'self-registration'), dir);
      cleanups.push(() => gateway.stop());
      const plugin = startExamplePlugin(START_REGISTERED, {
        HOOKGATE_REGISTRY: `unix://${join(dir, 'registry.sock')}`,
      });
      cleanups.push(() => plugin.stop());
      await gateway.waitForLog((l) => l['msg'] === 'plugin registered' && l['plugin'] === 'hello', START_TIMEOUT_MS);
      await pluginLogLine(plugin, 'registered with the gateway');
      const url = gateway.admissionUrl;

      const shown = inSection('Self-registration');
      expect(shown).toHaveLength(1);
      for (const example of shown) {
        await expectShownOutput(example, url);
        verified.add(example);
      }
    });
  });

  it('every command with a shown output was checked', () => {
    expect(examples.filter((e) => !verified.has(e)).map((e) => `${e.section}: ${e.command}`)).toEqual([]);
  });
});
