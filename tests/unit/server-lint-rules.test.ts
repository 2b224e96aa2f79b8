import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The rules live in eslint.config.js; this proves they fire on the files they are meant for.
const eslint = new ESLint();

async function restrictedSyntaxMessages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-syntax').map((message) => message.message);
}

describe('server lint rules', () => {
  const doubleCast = 'export const value = (1 as unknown as string).length;\n';

  it('refuses `as unknown as` anywhere in server/, config.ts included', async () => {
    for (const file of ['server/modules/work-orders/x.ts', 'server/db/x.ts', 'server/config.ts']) {
      expect(await restrictedSyntaxMessages(doubleCast, file)).toEqual([expect.stringContaining('No `as unknown as` in server/')]);
    }
  });

  it('allows a single cast and keeps the process.env rule beside it', async () => {
    expect(await restrictedSyntaxMessages('export const value = (1 as number).toFixed();\n', 'server/db/x.ts')).toEqual([]);
    expect(await restrictedSyntaxMessages('export const value = process.env.X;\n', 'server/db/x.ts')).toEqual([
      'Read configuration through server/config.ts.',
    ]);
    expect(await restrictedSyntaxMessages('export const value = process.env.X;\n', 'server/config.ts')).toEqual([]);
  });

  it('leaves tests alone', async () => {
    expect(await restrictedSyntaxMessages(doubleCast, 'tests/unit/x.ts')).toEqual([]);
  });
});
