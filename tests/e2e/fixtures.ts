import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { e2eAdmin, e2eDataDir } from '../../playwright.config.ts';

export { e2eAdmin };

/** The e-mails the server wrote (no SMTP_URL in e2e: .eml files in DATA_DIR/outbox) that mention `text`. */
export function outboxMailsMentioning(text: string): string[] {
  const outbox = path.join(e2eDataDir, 'outbox');
  if (!fs.existsSync(outbox)) return [];
  return fs
    .readdirSync(outbox)
    .map((file) => fs.readFileSync(path.join(outbox, file), 'utf8'))
    .filter((mail) => mail.includes(text));
}

export async function signIn(page: Page, credentials = e2eAdmin): Promise<void> {
  await page.goto('/admin/login');
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

/** A technician with no session opens /tech, is sent to the sign-in page and, signed in, lands on My day (decision 022-b). */
export async function signInToTechApp(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/tech');
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/tech$/);
  await expect(page.getByRole('heading', { name: 'My day', level: 1 })).toBeVisible();
}

/** Fails on any serious or critical accessibility violation axe-core finds. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** Draws a stroke with the mouse on a signature pad (a canvas with role img named `name`). */
export async function drawSignature(page: Page, name: RegExp): Promise<void> {
  const canvas = page.getByRole('img', { name });
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + box.height * 0.7);
  await page.mouse.down();
  for (let step = 1; step <= 12; step += 1) await page.mouse.move(box.x + 30 + step * 20, box.y + box.height * (0.7 - 0.4 * Math.sin(step / 2)), { steps: 3 });
  await page.mouse.up();
}
