import { ESLint } from 'eslint';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md draws the modules and their allowed dependencies as one Mermaid flowchart.
 * This keeps it true: its nodes are the element types of the boundaries rule (eslint.config.js,
 * decision 019-l), the feature and module nodes name every folder under app/features and
 * server/modules, and its edges are exactly the imports the rule lets through, found by linting
 * one probe import per pair of element types. Change a module, a feature or a policy without
 * redrawing the diagram and this fails.
 */
const eslint = new ESLint({ overrideConfigFile: 'eslint.config.js' });

/** Per element type: a file path inside it to lint from, and files in it to import (its public entry, and an inner file). */
const probes: Record<string, { from: string; entry: string; inner?: string }> = {
  feature: { from: 'app/features/leads/probe.tsx', entry: '#client/features/customers/index.ts', inner: '#client/features/customers/api.ts' },
  module: { from: 'server/modules/leads/probe.ts', entry: '#server/modules/customers/index.ts', inner: '#server/modules/customers/customer.service.ts' },
  'admin-route': { from: 'app/routes/admin/probe.tsx', entry: '#client/routes/admin/layout.tsx' },
  'client-shared': { from: 'app/components/ui/probe.tsx', entry: '#client/lib/api.ts' },
  'server-shared': { from: 'server/lib/probe.ts', entry: '#server/db/client.ts' },
  shared: { from: 'shared/probe.ts', entry: '#shared/enums.ts' },
};

type Edge = { from: string; to: string; label: string };

function architectureDiagram() {
  const doc = readFileSync('docs/architecture.md', 'utf8');
  const blocks = [...doc.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((match) => match[1]!);
  expect(blocks, 'docs/architecture.md has exactly one Mermaid diagram').toHaveLength(1);
  const lines = blocks[0]!.split('\n').map((line) => line.trim());
  expect(lines[0]).toMatch(/^flowchart\b/);
  const nodes = new Map<string, string>();
  const edges: Edge[] = [];
  for (const line of lines.slice(1)) {
    if (line === '' || line.startsWith('%%')) continue;
    const node = /^(\w+)\["(.*)"\]$/.exec(line);
    const edge = /^(\w+)\s*-->(?:\|"?([^|"]*)"?\|)?\s*(\w+)$/.exec(line);
    if (node) nodes.set(node[1]!.replaceAll('_', '-'), node[2]!);
    else if (edge) edges.push({ from: edge[1]!.replaceAll('_', '-'), to: edge[3]!.replaceAll('_', '-'), label: edge[2] ?? '' });
    else throw new Error(`Unexpected line in the architecture diagram: ${line}`);
  }
  return { nodes, edges };
}

/** The names a node lists after its first line ("<b>module</b> server/modules/*<br/>audit, auth, ..."). */
function listedNames(label: string): string[] {
  return label
    .split('<br/>')
    .slice(1)
    .join(',')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
    .sort();
}

const folders = (path: string) =>
  readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/** Lints one file of `fromType` importing `source` (a named import `specifier`); true when the boundaries rule lets it through. */
async function allowedImports(fromType: string, sources: { source: string; specifier: string }[]): Promise<boolean[]> {
  const code = sources.map(({ source, specifier }) => `export { ${specifier} } from '${source}';`).join('\n') + '\n';
  const [result] = await eslint.lintText(code, { filePath: probes[fromType]!.from });
  const refusedLines = new Set(result!.messages.filter((message) => message.ruleId === 'boundaries/dependencies').map((message) => message.line));
  return sources.map((_, index) => !refusedLines.has(index + 1));
}

describe('docs/architecture.md diagram', () => {
  it('has one node per element type of the boundaries rule', async () => {
    const config = (await eslint.calculateConfigForFile('server/modules/leads/probe.ts')) as { settings: Record<string, unknown> };
    const types = (config.settings['boundaries/elements'] as { type: string }[]).map((element) => element.type).sort();
    expect(Object.keys(probes).sort(), 'a new element type needs a probe in this test').toEqual(types);
    expect([...architectureDiagram().nodes.keys()].sort()).toEqual(types);
  });

  it('names every server module and every client feature', () => {
    const { nodes } = architectureDiagram();
    expect(listedNames(nodes.get('module')!)).toEqual(folders('server/modules'));
    expect(listedNames(nodes.get('feature')!)).toEqual(folders('app/features'));
  });

  it('draws exactly the dependencies the boundaries rule allows, with their conditions', async () => {
    const expected: string[] = [];
    for (const from of Object.keys(probes)) {
      const targets = Object.keys(probes);
      const sources = targets.flatMap((to) => [
        { source: probes[to]!.entry, specifier: 'probe' },
        { source: probes[to]!.inner ?? probes[to]!.entry, specifier: 'probe' },
        { source: probes[to]!.entry, specifier: 'createProbeRepository' },
      ]);
      const allowed = await allowedImports(from, sources);
      targets.forEach((to, index) => {
        const [entry, inner, repository] = allowed.slice(index * 3, index * 3 + 3);
        // Imports inside one element of the admin routes or a shared layer are its own files: not drawn.
        if (from === to && !probes[from]!.inner) return;
        if (!entry) return;
        const conditions = [inner ? '' : 'index.ts', repository ? '' : 'no create*Repository'].filter(Boolean).join(', ');
        expected.push(`${from} -> ${to} [${conditions}]`);
      });
    }
    const drawn = architectureDiagram().edges.map(({ from, to, label }) => {
      const conditions = [label.includes('index.ts') ? 'index.ts' : '', label.includes('create*Repository') ? 'no create*Repository' : '']
        .filter(Boolean)
        .join(', ');
      return `${from} -> ${to} [${conditions}]`;
    });
    expect(drawn.sort()).toEqual(expected.sort());
  }, 60_000);
});
