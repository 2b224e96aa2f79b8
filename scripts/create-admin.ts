// Adds a staff user: npm run admin:create -- --email pat@example.com [--name "Pat Lee"] [--role admin|dispatcher]
// The password is read from standard input (a hidden prompt on a terminal), never from the
// command line, where other users of the machine could read it in the process list.
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { staffRoles } from '#shared/enums.ts';
import { ConfigError, loadConfig } from '#server/config.ts';
import { DataDirLockedError } from '#server/db/data-dir-lock.ts';
import { AppError } from '#server/errors.ts';
import { createAuthRepository } from '#server/modules/auth/auth.repository.ts';
import { createStaffService } from '#server/modules/auth/auth.service.ts';
import { openConfiguredDatabase } from '#server/db/configured.ts';

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    let input = '';
    for await (const chunk of process.stdin) input += chunk;
    return input.split(/\r?\n/)[0] ?? '';
  }
  const prompt = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const ask = (question: string) =>
    new Promise<string>((resolve) => {
      process.stdout.write(question);
      const muted = prompt as unknown as { _writeToOutput: (text: string) => void };
      muted._writeToOutput = () => undefined;
      prompt.question('', (answer) => {
        process.stdout.write('\n');
        resolve(answer);
      });
    });
  const password = await ask('Password: ');
  const confirmation = await ask('Repeat the password: ');
  prompt.close();
  if (password !== confirmation) throw new AppError('VALIDATION_FAILED', 'The two passwords differ.');
  return password;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' } } });
  if (!values.email) {
    process.stderr.write('Usage: npm run admin:create -- --email someone@example.com [--name "Full Name"] [--role admin|dispatcher] (password on stdin)\n');
    return 2;
  }
  const role = staffRoles.find((candidate) => candidate === (values.role ?? 'admin'));
  if (!role) {
    process.stderr.write(`--role must be one of ${staffRoles.join(', ')}\n`);
    return 2;
  }
  const config = loadConfig();
  const password = await readPassword();
  const database = await openConfiguredDatabase(config);
  try {
    const user = await createStaffService(createAuthRepository(database.db), { companyName: config.company.name }).createStaffUser({
      email: values.email,
      name: values.name ?? values.email.split('@')[0]!,
      role,
      password,
    });
    process.stdout.write(`Created staff user ${user.email} (${user.name}, ${user.role}).\n`);
    return 0;
  } finally {
    await database.close();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof AppError) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
