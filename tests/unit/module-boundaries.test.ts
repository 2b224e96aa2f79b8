import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The boundaries live in eslint.config.js (decision 019-l); this proves they fire, and that imports
// through a public index.ts pass. The snippets are linted as if they were files at these paths.
const eslint = new ESLint({ overrideConfigFile: 'eslint.config.js' });

async function boundaryMessages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((message) => message.ruleId === 'boundaries/dependencies').map((message) => message.message);
}

describe('module boundaries', () => {
  it("refuses a feature importing another feature's internal file", async () => {
    const code = "export { CustomerForm } from '#client/features/customers/customer-form.tsx';\n";
    expect(await boundaryMessages(code, 'app/features/leads/fixture.tsx')).toEqual([
      expect.stringContaining('#client/features/customers/index.ts'),
    ]);
    const relative = "export { WorkOrderFieldset } from '../work-orders/work-order-fields.tsx';\n";
    expect(await boundaryMessages(relative, 'app/features/leads/fixture.tsx')).toEqual([
      expect.stringContaining('#client/features/work-orders/index.ts'),
    ]);
  });

  it("refuses an admin route importing a feature's internal file", async () => {
    const code = "export { WorkOrderList } from '#client/features/work-orders/work-order-list.tsx';\n";
    expect(await boundaryMessages(code, 'app/routes/admin/fixture.tsx')).toEqual([
      expect.stringContaining('#client/features/work-orders/index.ts'),
    ]);
  });

  it("refuses a module importing another module's repository, directly or through its index", async () => {
    const direct = "export { createCustomerRepository } from '#server/modules/customers/customer.repository.ts';\n";
    expect(await boundaryMessages(direct, 'server/modules/chat/fixture.ts')).toEqual([
      expect.stringContaining("never builds another module's repository"),
    ]);
    const throughIndex = "export { createWorkOrderRepository } from '#server/modules/work-orders/index.ts';\n";
    expect(await boundaryMessages(throughIndex, 'server/modules/leads/fixture.ts')).toEqual([
      expect.stringContaining("never builds another module's repository"),
    ]);
  });

  it("refuses a module importing another module's internal file", async () => {
    const code = "export { toCustomer } from '#server/modules/customers/customer.service.ts';\n";
    expect(await boundaryMessages(code, 'server/modules/geocoding/fixture.ts')).toEqual([
      expect.stringContaining('#server/modules/customers/index.ts'),
    ]);
  });

  it('refuses shared/ importing app/ or server/, and the client importing the server', async () => {
    expect(await boundaryMessages("export { containsPattern } from '#server/db/like-pattern.ts';\n", 'shared/fixture.ts')).toEqual([
      expect.stringContaining('shared/ is pure'),
    ]);
    expect(await boundaryMessages("export { containsPattern } from '#server/db/like-pattern.ts';\n", 'app/features/leads/fixture.ts')).toEqual([
      expect.stringContaining('The client imports nothing from server/'),
    ]);
  });

  it("passes imports through a public index.ts, a feature's own files, and shared layers", async () => {
    const feature = [
      "export { CustomerPicker, type PickedCustomer } from '#client/features/customers/index.ts';",
      "export { workOrderKeys } from '#client/features/work-orders/index.ts';",
      "export { useLeadList } from './api.ts';",
      "export { Button } from '#client/components/ui/button.tsx';",
      "export { customerMessages } from '#shared/customer.ts';",
      '',
    ].join('\n');
    expect(await boundaryMessages(feature, 'app/features/leads/fixture.tsx')).toEqual([]);
    const module = [
      "export { recordAudit } from '#server/modules/audit/index.ts';",
      "export type { CustomerRepository } from '#server/modules/customers/index.ts';",
      "export { createLeadRepository } from './lead.repository.ts';",
      "export { containsPattern } from '#server/db/like-pattern.ts';",
      '',
    ].join('\n');
    expect(await boundaryMessages(module, 'server/modules/leads/fixture.ts')).toEqual([]);
  });
});
